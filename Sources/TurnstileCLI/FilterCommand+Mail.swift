import ArgumentParser
import Turnstile

// `turnstile filter --format mbox|eml|maildir`: each record is one message, decoded
// (MailMessage) and judged on its parts (MailJudge); its original bytes are what is
// passed through or held back.

extension FilterOptions {
    /// The mail filter: a ``MailFilterSink`` over the library's reader, on `--threads`
    /// workers unless `--spam-to` is given.
    func runMail() throws {
        let format = input.format
        let output = OutputWriter(fd: 1)
        let delimiter = try input.delimiter(stream.delimiter)
        let inputs = try input.inputs(stream.inputs)
        let judge: MailJudge
        do {
            judge = try rules.withRuleSet(try db.map(learnedRuleSet), fallback: .standardMail) { set in
                var made = try MailJudge(rules: set, threshold: threshold)
                made.senders = try delivery.senderPolicy()
                return made
            }
        } catch {
            let failure = (error as? CommandFailure) ?? CommandFailure(String(describing: error))
            // Every configuration error — a rules file missing, unreadable or malformed, a
            // database that cannot be opened — exits 75 (EX_TEMPFAIL): procmail (with the
            // README's recipe) and maildrop keep the message for the MTA to retry, rather
            // than deliver it unfiltered with exit 0 (issue 46).
            throw CommandFailure(failure.message, status: 75)
        }
        let mode: MailFilterSink.Mode = delivery.tag ? .tag : spam ? .spam : count ? .count : json ? .json : explain ? .explain : .clean
        let tagger = delivery.tag ? SpamStatusHeaders(prefix: delivery.tagPrefix ?? "X-Spam") : nil
        if let spamTo = delivery.spamTo, format == .mbox, let same = inputs.first(where: { sameFile($0, spamTo) }) {
            // Creating the spam file would empty the input before it is read.
            throw CommandFailure("--spam-to \(spamTo) is the input \(same); write spam to another file", status: 75)
        }
        let destination = try delivery.spamTo.map { try SpamDestination(path: $0, format: format) }
        var mover = try delivery.moveSpamTo.map { try MaildirMove(folder: $0) }
        let clock = ContinuousClock()
        let started = clock.now
        var status: RunStatus
        let tally: RecordTally, bytesRead: Int
        let maxRecordBytes = stream.maxRecordBytes
        var pipeline = RecordPipeline(delimiter: delimiter, maxRecordBytes: maxRecordBytes,
                                      threads: stream.parallelThreads ?? 1, chunkBytes: stream.chunkBytes,
                                      knownInputBytes: knownInputBytes(inputs))
        // Decoding and judging messages is work on every byte (the sink's, not a matcher's).
        pipeline.workCost = .computeBound
        pipeline.forcedThreads = stream.forcedThreads
        // `--spam-to`, `--move-spam-to` and `--tag` keep to one thread (MailFilterSink's
        // parallelism); messages are otherwise decoded in parallel, in chunks of whole
        // messages (mbox) or a file each (eml, Maildir), and the output is one thread's.
        let report = MailRunReport()
        let shared = UncheckedSendable((destination, tagger))
        let keepsOrder = mover != nil
        let makeSink = { @Sendable (output: OutputWriter) in
            var sink = MailFilterSink(judge: judge, format: format, mode: mode, output: output, spamTo: shared.value.0,
                                      delimiter: delimiter, tagger: shared.value.1)
            sink.report = report
            sink.keepsOrder = keepsOrder
            return sink
        }
        var moveFailed = false
        let run = pipeline.run(inputs, named: inputs.count > 1, output: output, makeSink: makeSink) { (name, tally) in
            // A Maildir message is moved once its file was read to the end.
            guard tally.spamRecords > 0, var moving = mover, !moving.holds(name) else { return }
            do {
                _ = try moving.move(name)
                mover = moving
            } catch {
                printError("turnstile: \((error as? CommandFailure)?.message ?? String(describing: error))")
                moveFailed = true
            }
        }
        status = run.status
        (tally, bytesRead) = (run.outcome.tally, run.outcome.bytesRead)
        if moveFailed { status.hadError = true }
        let untagged = report.untagged
        if let failure = report.spamFailure {
            printError("turnstile: \(failure)")
            status.hadError = true
        }
        let incomplete = status.hadError || status.brokenPipe
        if incomplete, let spamTo = delivery.spamTo, format == .mbox, tally.spamRecords > 0 {
            printError("turnstile: \(spamTo) left as it was: not every input was read")
        }
        do { try destination?.finish(inputFailed: incomplete) } catch {
            printError("turnstile: \((error as? CommandFailure)?.message ?? String(describing: error))")
            status.hadError = true
        }
        finishRun(&status, output: output) { () throws(OutputError) in
            if mode == .count { try output.write("clean \(tally.records - tally.spamRecords) spam \(tally.spamRecords)\n") }
        }
        if stats {
            let seconds = (clock.now - started) / .seconds(1)
            let rate = seconds > 0 ? Double(bytesRead) / 1_000_000 / seconds : 0
            let perSecond = seconds > 0 ? Int((Double(tally.records) / seconds).rounded()) : 0
            let problems = tally.problems.nonZero.map { "\($0.kind) \($0.count)" }.joined(separator: ", ")
            printError("turnstile: messages \(tally.records), bytes \(bytesRead), spam \(tally.spamRecords), clean \(tally.records - tally.spamRecords), \(formatRate(rate)) MB/s, \(perSecond) messages/s")
            printError("turnstile: decoding problems \(tally.problems.total)\(problems.isEmpty ? "" : " (\(problems))")")
        }
        if delivery.tag {
            // Written is success; --exit-verdict: bogofilter's 0 spam, 1 clean, 2 error.
            let failed = status.hadError || status.brokenPipe
            if delivery.exitVerdict { throw ExitCode(failed || untagged > 0 ? 2 : tally.spamRecords > 0 ? 0 : 1) }
            throw ExitCode(failed ? 2 : 0)
        }
        throw ExitCode(status.exitCode(matched: tally.spamRecords > 0))
    }
}

/// Whether two paths name the same existing file (device and inode).
func sameFile(_ a: String, _ b: String) -> Bool {
    var x = stat(), y = stat()
    guard a != "-", stat(a, &x) == 0, stat(b, &y) == 0 else { return false }
    return x.st_dev == y.st_dev && x.st_ino == y.st_ino
}

/// What a one-thread mail run reports after its end, written by its sink as it goes
/// (the pipeline makes the sink, so the command reads the box, not the sink).
final class MailRunReport: @unchecked Sendable {
    // @unchecked: written by the one sink of a one-thread run, read after it.
    var untagged = 0
    var spamFailure: String?
}

/// Decodes and judges each message, and passes its original bytes on: to the output
/// as the mode says, and to `--spam-to` when it is spam.
struct MailFilterSink: ChunkSink {
    typealias Failure = OutputError
    enum Mode { case clean, spam, count, json, explain, tag }

    private var judge: MailJudge
    /// `--tag`: the status fields every message is written with.
    let tagger: SpamStatusHeaders?
    /// What the run reports once it ends: messages written untagged, the `--spam-to`
    /// failure (one-thread runs only: the sink asks for one thread when it writes them).
    var report: MailRunReport?
    /// `--move-spam-to`: inputs are moved in order, on one thread.
    var keepsOrder = false
    /// `records` when the current input began (an input without a record is an empty message).
    private var recordsAtInputStart = 0
    /// Writes verdicts (`--json`, `--explain`).
    private var rendering: VerdictRendering
    let format: RecordFormat
    let mode: Mode
    let output: OutputWriter
    let spamTo: SpamDestination?
    let defaultTerminator: [UInt8]
    private(set) var records = 0
    private(set) var spamRecords = 0
    /// Decoding problems over every message.
    private(set) var problems = MailDecodingProblems()
    /// The first failure writing `--spam-to` (writing stops there; the output goes on).
    private(set) var spamFailure: String?
    private var inputName = ""
    /// The current input's path, which names `--spam-to` files (eml, maildir).
    var inputPath = ""
    private var showName = false
    private var recordNumber = 0
    private var printTail = false
    private var spamTail = false
    private var scratch: [UInt8] = []
    /// The counts when ``takeTally()`` was last called.
    private var taken = RecordTally()

    init(judge: MailJudge, format: RecordFormat, mode: Mode, output: OutputWriter, spamTo: SpamDestination?,
         delimiter: RecordDelimiter, tagger: SpamStatusHeaders? = nil) {
        self.judge = judge
        self.tagger = tagger
        self.rendering = VerdictRendering(rules: judge.rules, threshold: judge.threshold, precision: judge.precision)
        self.format = format
        self.mode = mode
        self.output = output
        self.spamTo = spamTo
        self.defaultTerminator = delimiter.defaultTerminator
    }

    mutating func beginInput(name: String?, firstRecord: Int) {
        inputName = name ?? ""
        showName = name != nil
        recordNumber = firstRecord
        recordsAtInputStart = records
    }

    /// `--spam-to` and `--tag` write in input order, as does moving files: one thread.
    /// An .eml or Maildir file is one message: files apart, never chunks (an empty
    /// one would have no chunk, and it is a message too).
    var parallelism: SinkParallelism {
        if spamTo != nil || tagger != nil || keepsOrder { return .none }
        return format == .mbox ? .chunks : .inputs
    }

    mutating func inputOpened(_ fd: Int32, name: String) -> InputStart {
        inputPath = name
        return .read
    }

    mutating func inputRead(_ fd: Int32) throws(OutputError) { try endInput() }

    /// The input ended: an .eml or Maildir file that held no byte is an empty message,
    /// which gets its verdict (and its line in `--json` and `--explain`) like any other.
    mutating func endInput() throws(OutputError) {
        guard format != .mbox, records == recordsAtInputStart else { return }
        let none = UnsafeBufferPointer<UInt8>(start: nil, count: 0)
        try record(content: none, terminator: none, offset: 0, matches: [][...], truncated: false)
    }

    mutating func takeOutput(reusing storage: ChunkOutput) -> ChunkOutput { output.takeCollected(next: storage) }
    /// What was counted since the last call.
    mutating func takeTally() -> RecordTally {
        defer { taken = RecordTally(records: records, spamRecords: spamRecords, problems: problems) }
        var delta = problems
        delta -= taken.problems
        return RecordTally(records: records - taken.records, spamRecords: spamRecords - taken.spamRecords,
                           problems: delta)
    }

    mutating func record(
        content: UnsafeBufferPointer<UInt8>, terminator: UnsafeBufferPointer<UInt8>,
        offset: Int, matches: ArraySlice<Match>, truncated: Bool
    ) throws(OutputError) {
        recordNumber += 1
        records += 1
        let message = format.message(of: content, truncated: truncated, firstOfInput: recordNumber == 1)
        problems += message.problems
        judge.judge(message)
        let isSpam = judge.isSpam
        if isSpam { spamRecords += 1 }
        let printed: Bool
        switch mode {
        case .tag: printed = true
        case .clean: printed = !isSpam
        case .spam: printed = isSpam
        case .count: printed = false
        case .json:
            printed = false
            try writeJSON(message, isSpam: isSpam)
        case .explain:
            printed = false
            scratch.removeAll(keepingCapacity: true)
            rendering.appendExplanation(record: recordNumber, file: showName ? inputName : nil, isSpam: isSpam,
                                        isUnsure: judge.isUnsure, score: judge.score, hits: judge.hits, to: &scratch)
            if let m = judge.senderMatch {
                // Which line of which list decided, after the rules that were outweighed.
                scratch.append(contentsOf: "  \(m.decision == .allow ? "allowed" : "denied") by \(m.source):\(m.entry.line)  \(m.entry.text)  \(m.field): \(m.address)\n".utf8)
            }
            try output.write(scratch)
        }
        if printed {
            if let tagger { try writeTagged(content, complete: !truncated, tagger: tagger) } else { try output.write(content) }
        }
        let toSpam = isSpam && spamTo != nil && spamFailure == nil
        if toSpam {
            let name = inputPath
            let fromLine = content.starts(with: RecordDelimiter.mboxSeparatorBytes)
            spamGuard { try $0.begin(input: name, startsWithFromLine: fromLine); try $0.write(content) }
        }
        if truncated {
            printTail = printed
            spamTail = toSpam
        } else {
            if printed { try writeTerminator(terminator, afterEmpty: content.isEmpty) }
            if toSpam { endSpam(terminator, afterEmpty: content.isEmpty) }
        }
    }

    mutating func tail(_ bytes: UnsafeBufferPointer<UInt8>, end: UnsafeBufferPointer<UInt8>?) throws(OutputError) {
        if printTail {
            try output.write(bytes)
            if let end { try writeTerminator(end, afterEmpty: false) }
        }
        if spamTail {
            spamGuard { try $0.write(bytes) }
            if let end { endSpam(end, afterEmpty: false) }
        }
    }

    mutating func willRead() throws(OutputError) { try output.flushIfInteractive() }

    /// Ends a spam message in `--spam-to` with its terminator.
    private mutating func endSpam(_ terminator: UnsafeBufferPointer<UInt8>, afterEmpty: Bool) {
        let fallback = defaultTerminator
        spamGuard { destination in
            if !terminator.isEmpty { try destination.write(terminator) }
            else if !afterEmpty { try destination.write(fallback) }
            try destination.end()
        }
    }

    private mutating func spamGuard(_ body: (SpamDestination) throws -> Void) {
        guard spamFailure == nil, let spamTo else { return }
        do { try body(spamTo) } catch {
            spamFailure = (error as? CommandFailure)?.message ?? String(describing: error)
            report?.spamFailure = spamFailure
        }
    }

    /// A message's terminator, as it was: a last message without a final line end
    /// gets none (the output is the input, byte for byte).
    private func writeTerminator(_ terminator: UnsafeBufferPointer<UInt8>, afterEmpty: Bool) throws(OutputError) {
        try output.write(terminator)
    }

    /// `--tag`: the message with its status fields; unchanged, with a warning, when its
    /// header section does not end within the bytes read (`--max-record-bytes`).
    private mutating func writeTagged(_ content: UnsafeBufferPointer<UInt8>, complete: Bool,
                                      tagger: SpamStatusHeaders) throws(OutputError) {
        guard let tagged = tagger.taggedHead(content, complete: complete, status: judge.spamStatus) else {
            report?.untagged += 1
            printError("turnstile: \(showName ? inputName + ": " : "")message \(recordNumber): its header is longer than --max-record-bytes (\(content.count)); written untagged")
            try output.write(content)
            return
        }
        try output.write(tagged.head)
        try output.write(UnsafeBufferPointer(rebasing: content[tagged.restStart...]))
    }

    /// `{"record":n,"file":…,"spam":b,"unsure":b,"score":x,"threshold":t,"rules":[{"rule":i,"pattern":…,"weight":w,"start":s,"end":e}],"problems":{…}}`
    /// (a rule's offsets are those of its first match in the part it looks at).
    private mutating func writeJSON(_ message: MailMessage, isSpam: Bool) throws(OutputError) {
        scratch.removeAll(keepingCapacity: true)
        scratch.append(contentsOf: "{\"record\":\(recordNumber),".utf8)
        if showName {
            scratch.append(contentsOf: "\"file\":".utf8)
            var name = inputName
            name.withUTF8 { Rendering.appendJSONString($0, to: &scratch) }
            scratch.append(UInt8(ascii: ","))
        }
        scratch.append(contentsOf: "\"spam\":\(isSpam),".utf8)
        rendering.appendJSONFields(score: judge.score, isUnsure: judge.isUnsure, hasUnsureBand: judge.model == .chiSquare,
                                   hits: judge.hits, offset: 0, to: &scratch)
        if let m = judge.senderMatch {
            scratch.append(contentsOf: ",\"sender\":{\"decision\":\"\(m.decision.rawValue)\",\"file\":".utf8)
            for (k, text) in [m.source, m.entry.text, m.field, m.address].enumerated() {
                if k == 1 { scratch.append(contentsOf: ",\"line\":\(m.entry.line),\"entry\":".utf8) }
                if k == 2 { scratch.append(contentsOf: ",\"field\":".utf8) }
                if k == 3 { scratch.append(contentsOf: ",\"address\":".utf8) }
                var t = text
                t.withUTF8 { Rendering.appendJSONString($0, to: &scratch) }
            }
            scratch.append(UInt8(ascii: "}"))
        }
        scratch.append(contentsOf: ",\"problems\":{".utf8)
        scratch.append(contentsOf: message.problems.nonZero.map { "\"\($0.kind)\":\($0.count)" }.joined(separator: ",").utf8)
        scratch.append(contentsOf: "}}\n".utf8)
        try output.write(scratch)
    }
}
