import ArgumentParser
import AutomatonCore
import Turnstile

/// `turnstile filter`: the spam filter.
struct FilterCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "filter",
        abstract: "Let clean records through and hold back spam.",
        discussion: """
            Reads records (lines by default), scores each one and prints the clean ones.
            A record's score is the sum of the weights of the distinct rules that match
            in it; it is spam when the score reaches --threshold. With no rule option the
            built-in spam list is used, as whole words, ASCII case-insensitive.
            With --format mbox|eml|maildir each record is an e-mail message, judged on
            its decoded text (rules may be scoped: subject:, from:, header:NAME:, uri:)
            with the built-in mail list by default; its original bytes pass through.
            --explain shows each verdict: the score, the threshold and every rule that
            fired, with its weight and first match; --json gives the same as fields.
            Scores are compared and printed at the decimals the weights carry.
            grep's -n, -c, -H, -q, -s and -r work with grep's meanings on the records
            filter prints; match's output flags (-o, -v, -A, ...) are refused.

            --tag (mail) writes every message back with X-Spam-Status and, for spam,
            X-Spam-Flag: YES added to its header, for procmail, maildrop and Sieve.

            Exit status: 0 when some record was spam, 1 when none was, 2 on any error;
            with --tag, 0 whenever the messages were written.

            Examples:
              $ printf 'lunch?\\nURGENT: claim your prize\\n' | turnstile filter
              lunch?
              $ printf 'lunch?\\nURGENT: claim your prize\\nsee you\\n' | turnstile filter -n
              1:lunch?
              3:see you
              $ turnstile filter --count Corpora/messages/sample.txt
              clean 18 spam 10
              $ turnstile filter --spam --color=always Corpora/messages/sample.txt
              $ printf 'Free entry! Txt now\\n' | turnstile filter --mask
              **********! *******
              $ printf 'hi\\n' | turnstile filter --threshold 5 --json
              {"record":1,"spam":false,"score":0,"threshold":5,"rules":[],"matches":[]}
              $ printf 'Free entry! Txt now\\n' | turnstile filter --explain
              record 1: spam, score 13.277, threshold 6.9523
                +2.8336  0:4  free
                +2.3451  5:10  entry
              ...
              $ printf 'winner\\t2\\nfree\\t0.5\\n' > rules.tsv
              $ printf 'free\\nwinner\\n' | turnstile filter -F -i --rules rules.tsv
              free
              $ turnstile filter --format mbox --count Corpora/mail/sample.mbox
              clean 3 spam 2
              $ turnstile filter --format mbox --spam-to spam.mbox Corpora/mail/sample.mbox
              $ turnstile filter --format mbox --tag Corpora/mail/sample.mbox | grep -c YES
              2
            """)

    @OptionGroup(title: "Rule options") var rules: RuleArguments
    @OptionGroup(title: "Input and output") var stream: StreamArguments
    @OptionGroup(title: "As grep") var grep: FilterGrepArguments
    @OptionGroup(title: "Mail") var input: FormatArguments
    @OptionGroup(title: "Mail delivery") var delivery: DeliveryArguments

    @Option(name: .customLong("threshold"),
            help: "A record is spam when its score reaches this (default: the built-in list's own threshold with no rule option, else 1).")
    var threshold: Double?

    @Option(name: .customLong("db"),
            help: ArgumentHelp("Judge mail with the list a 'turnstile learn' database gives (mail formats).", valueName: "path"))
    var db: String?

    @Flag(name: .customLong("spam"), help: "Print only the spam records.")
    var spam = false

    @Flag(name: .customLong("mask"),
          help: "Print every record with each character matched by a rule of positive weight replaced by '*'.")
    var mask = false

    @Flag(name: .customLong("count"), help: "Print 'clean N spam M' instead of records.")
    var count = false

    @Flag(name: .customLong("json"),
          help: "Print one JSON object per record: {\"record\":n,\"spam\":bool,\"unsure\":bool,\"score\":x,\"threshold\":t,\"rules\":[...],\"matches\":[...]}; \"unsure\" only for a chi-square list (the built-in mail list is one); mail has \"problems\":{...} in place of \"matches\".")
    var json = false

    @Flag(name: .customLong("explain"),
          help: "Print each record's verdict: 'record N: spam|unsure|clean, score S, threshold T' (a chi-square list adds ', unsure from C'), then each rule that fired as '  WEIGHT  START:END  PATTERN'.")
    var explain = false

    @Flag(name: .customLong("stats"), help: "Print records, bytes, spam and throughput to standard error.")
    var stats = false

    /// The values given, as the run reads them (``FilterOptions``).
    var options: FilterOptions {
        FilterOptions(
            rules: rules.options,
            stream: stream.options,
            grep: grep.options,
            input: input.options,
            delivery: delivery.options,
            threshold: threshold,
            db: db,
            spam: spam,
            mask: mask,
            count: count,
            json: json,
            explain: explain,
            stats: stats)
    }

    func validate() throws { try options.validate() }

    func run() throws { try options.run() }
}

/// `filter`'s options as values, and its run. The quick reader (``QuickArguments``) fills
/// them without ArgumentParser; ``FilterCommand`` describes them to ArgumentParser and maps to them.
struct FilterOptions {
    var rules: RuleOptions = RuleOptions()
    var stream: StreamOptions = StreamOptions()
    var grep: FilterGrepOptions = FilterGrepOptions()
    var input: FormatOptions = FormatOptions()
    var delivery: DeliveryOptions = DeliveryOptions()
    var threshold: Double?
    var db: String?
    var spam = false
    var mask = false
    var count = false
    var json = false
    var explain = false
    var stats = false

    func validate() throws {
        if [spam, mask, count, json, explain].filter({ $0 }).count > 1 {
            throw ValidationError("choose at most one of --spam, --mask, --count, --json and --explain")
        }
        if let threshold, !threshold.isFinite { throw ValidationError("--threshold must be a finite number") }
        if db != nil, !input.format.isMail { throw ValidationError("--db needs --format mbox, eml or maildir: a learned list judges mail") }
        if db != nil, !rules.isEmpty { throw ValidationError("--db gives the rules; it cannot be combined with rule options") }
        if input.format.isMail, mask { throw ValidationError("--mask needs --format lines: a message's verdict comes from its decoded text, not its bytes") }
        try delivery.validate(format: input.format, printsOtherwise: spam || count || json || explain)
        if delivery.spamTo != nil, spam || mask { throw ValidationError("--spam-to cannot be combined with --spam or --mask") }
        if input.format.isMail, grep.lineNumber || grep.count || grep.withFilename || grep.quiet {
            throw ValidationError("-n, -c, -H and -q apply to --format lines; with mail, use --count or --json")
        }
        if grep.count, count || json || explain {
            throw ValidationError("-c counts the records filter prints; it cannot be combined with --count, --json or --explain")
        }
        if grep.lineNumber || grep.withFilename, count || json || explain {
            throw ValidationError("-n and -H prefix printed records; --count, --json and --explain print none")
        }
    }

    /// What grep's flags ask of the sink.
    var habits: FilterSink.GrepHabits {
        FilterSink.GrepHabits(lineNumber: grep.lineNumber, withName: grep.withFilename, countOnly: grep.count, quiet: grep.quiet)
    }

    func run() throws {
        inputMessagesSuppressed = grep.noMessages
        if input.format.isMail { return try runMail() }
        let filter = try rules.withRuleSet(fallback: .standard) { try $0.spamFilter(threshold: threshold) }
        rules.reportStrategy(filter.matcher)
        let mode: FilterSink.Mode = spam ? .spam : mask ? .mask : count ? .count : json ? .json : explain ? .explain : .clean
        let output = OutputWriter(fd: 1)
        let color = stream.useColor(output)
        let delimiter = stream.delimiter, maxRecordBytes = stream.maxRecordBytes
        let habits = self.habits
        let makeSink = { @Sendable (output: OutputWriter) in
            FilterSink(filter: filter, mode: mode, output: output, color: color, delimiter: delimiter, habits: habits)
        }
        let clock = ContinuousClock()
        let started = clock.now
        var inputs = stream.inputs
        var sawFolder = false
        if grep.recursive { (inputs, sawFolder) = try recursiveInputs(stream.files) }
        let named = inputs.count > 1 || grep.withFilename || sawFolder
        var pipeline = RecordPipeline(
            matcher: filter.matcher, delimiter: delimiter, maxRecordBytes: maxRecordBytes,
            threads: stream.parallelThreads ?? 1, chunkBytes: stream.chunkBytes,
            knownInputBytes: knownInputBytes(inputs))
        pipeline.forcedThreads = stream.forcedThreads
        var (status, outcome) = pipeline.run(inputs, named: named, output: output, makeSink: makeSink) {
            (name, tally) throws(OutputError) in
            // -c prints each input's count of printed records after its last record.
            guard habits.countOnly && !habits.quiet else { return }
            try output.write(named ? "\(name):\(tally.selected)\n" : "\(tally.selected)\n")
        }
        let tally = outcome.tally, bytesRead = outcome.bytesRead
        finishRun(&status, output: output) { () throws(OutputError) in
            if mode == .count { try output.write("clean \(tally.records - tally.spamRecords) spam \(tally.spamRecords)\n") }
        }
        if stats {
            let seconds = (clock.now - started) / .seconds(1)
            let rate = seconds > 0 ? Double(bytesRead) / 1_000_000 / seconds : 0
            printError("turnstile: records \(tally.records), bytes \(bytesRead), spam \(tally.spamRecords), clean \(tally.records - tally.spamRecords), \(formatRate(rate)) MB/s")
        }
        // -q: a spam record is success, whatever went wrong before it.
        if grep.quiet && tally.spamRecords > 0 { throw ExitCode(0) }
        throw ExitCode(status.exitCode(matched: tally.spamRecords > 0))
    }
}

/// Prints records as the filter's output mode says; every verdict comes from its
/// ``RecordJudge``.
struct FilterSink: ChunkSink {
    typealias Failure = OutputError
    enum Mode { case clean, spam, mask, count, json, explain }

    /// grep's flags as filter takes them: `-n` and `-H` prefix each printed record with
    /// its number and its input's name, `-c` counts the records that would be printed
    /// instead, `-q` prints nothing and stops at the first spam record.
    struct GrepHabits: Sendable {
        var lineNumber = false
        var withName = false
        var countOnly = false
        var quiet = false
        /// Whether records are printed other than as they are.
        var changesOutput: Bool { lineNumber || withName || countOnly || quiet }
    }

    let mode: Mode
    let output: OutputWriter
    let color: Bool
    /// Written after a last record that had no delimiter.
    let defaultTerminator: [UInt8]
    /// Every verdict. In the modes that need no list of a record's matches
    /// (``takesMatchStream``) the reader's one search adds each match here as it is
    /// found, and the record follows.
    private var judge: RecordJudge
    /// `.endRun` once `-q` has seen a spam record (``RecordSink/flow``).
    private(set) var flow = RecordFlow.more
    /// `true` when the sink takes matches as a stream: every mode but those that mark
    /// matches in the printed record (`--mask`, `--spam --color`).
    let takesMatchStream: Bool
    /// `true` when only the verdict is printed (or the record as it is): the search of
    /// a record stops once it is settled spam.
    /// PERF: Benchmarks/scripts/literal_throughput.py 'filter'.
    private let stopsWhenSettled: Bool
    /// `--json`: the current record's matches, waiting for its verdict to be printed.
    private var log = MatchLog()
    /// The filter's matcher: `--json` searches a record again only when its matches
    /// did not fit in the log (``MatchLog/budget``).
    private let matcher: Matcher
    /// Writes verdicts (`--json`, `--explain`).
    private var rendering: VerdictRendering
    /// `isMarked[rule]`: the rule's weight is positive, so `--mask` and `--color` mark
    /// its matches (a rule weighted towards ham is no reason to hide a word).
    private let isMarked: [Bool]
    private var scratch: [UInt8] = []
    private var ranges: [Range<Int>] = []
    private var fileName: String?
    /// Records in the current input (numbers in JSON are 1-based per input).
    private var recordNumber = 0
    /// Totals over every input.
    private(set) var records = 0
    private(set) var spamRecords = 0
    /// Whether the tail of a truncated record is printed.
    private var printTail = false
    /// `records` and `spamRecords` when ``takeTally()`` was last called.
    private var taken = RecordTally()
    let habits: GrepHabits
    /// Records printed (or, under `-c`, counted) since ``takeTally()`` was last called.
    private var printedSinceTake = 0

    init(filter: SpamFilter, mode: Mode, output: OutputWriter, color: Bool, delimiter: RecordDelimiter,
         habits: GrepHabits = GrepHabits()) {
        self.habits = habits
        // Only --json and --explain show the rule hits.
        self.judge = RecordJudge(filter, recordingHits: mode == .json || mode == .explain)
        self.matcher = filter.matcher
        let verdictOnly = mode == .count || mode == .clean || (mode == .spam && !color) || habits.countOnly || habits.quiet
        self.takesMatchStream = verdictOnly || mode == .json || mode == .explain
        self.stopsWhenSettled = verdictOnly
        self.rendering = VerdictRendering(rules: filter.rules, threshold: filter.threshold, precision: filter.precision)
        self.isMarked = filter.rules.map { $0.weight > 0 }
        self.defaultTerminator = delimiter.defaultTerminator
        self.mode = mode
        self.output = output
        self.color = color
    }

    mutating func beginInput(name: String?, firstRecord: Int) {
        fileName = name
        recordNumber = firstRecord
    }


    mutating func takeOutput(reusing storage: ChunkOutput) -> ChunkOutput { output.takeCollected(next: storage) }

    /// Records are numbered in `--json`, `--explain` and `-n` only.
    var needsRecordNumbers: Bool { mode == .json || mode == .explain || habits.lineNumber }
    /// `-q` stops at the first spam record, which a chunk cannot tell the run.
    var parallelism: SinkParallelism { habits.quiet ? .inputs : .chunks }
    mutating func takeTally() -> RecordTally {
        let now = RecordTally(records: records, spamRecords: spamRecords)
        defer { taken = now; printedSinceTake = 0 }
        return RecordTally(records: now.records - taken.records, spamRecords: now.spamRecords - taken.spamRecords,
                           selected: printedSinceTake)
    }

    mutating func record(
        content: UnsafeBufferPointer<UInt8>, terminator: UnsafeBufferPointer<UInt8>,
        offset: Int, matches found: ArraySlice<Match>, truncated: Bool
    ) throws(OutputError) {
        recordNumber += 1
        records += 1
        // Streamed: the matches are in the judge (and the log) already; the next
        // record's start afresh.
        defer { if takesMatchStream { judge.beginRecord(); log.removeAll() } }
        let matches = takesMatchStream ? judge.completeRecord(content) : judge.judge(content, found: found)
        let isSpam = judge.isSpam
        if isSpam { spamRecords += 1 }
        if habits.changesOutput, takenByHabits(isSpam: isSpam) { return }
        let printed: Bool
        switch mode {
        case .clean:
            printed = !isSpam
            if printed { try writePrefix(); try output.write(content) }
        case .spam:
            printed = isSpam
            if printed {
                try writePrefix()
                if color { try writeHighlighted(content, matches) } else { try output.write(content) }
            }
        case .mask:
            printed = true
            try writePrefix()
            try writeMasked(content, matches)
        case .count:
            printed = false
        case .json:
            printed = false
            // The search's matches, then the completion pass's (regex rules a
            // leftmost-first search hid).
            try writeJSON(content, offset: offset, completion: matches, isSpam: isSpam)
        case .explain:
            printed = false
            scratch.removeAll(keepingCapacity: true)
            rendering.appendExplanation(record: recordNumber, file: fileName, isSpam: isSpam,
                                        isUnsure: judge.isUnsure, score: judge.score, hits: judge.hits, to: &scratch)
            try output.write(scratch)
        }
        if printed { printedSinceTake += 1 }
        if truncated {
            printTail = printed
        } else if printed {
            try writeTerminator(terminator, afterEmpty: content.isEmpty)
        }
    }

    /// `-q` and `-c`: counts the record instead of printing it, or ends the run at the
    /// first spam record (``flow``). Returns `true` when the record needs nothing more.
    private mutating func takenByHabits(isSpam: Bool) -> Bool {
        if habits.quiet {
            if isSpam { flow = .endRun }
            return true
        }
        guard habits.countOnly else { return false }
        let wouldPrint = mode == .clean ? !isSpam : mode == .spam ? isSpam : true
        if wouldPrint { printedSinceTake += 1 }
        printTail = false
        return true
    }

    /// `name:` (`-H`, or several inputs with `-n`… as grep) and `number:` (`-n`).
    private mutating func writePrefix() throws(OutputError) {
        guard habits.lineNumber || habits.withName else { return }
        scratch.removeAll(keepingCapacity: true)
        if habits.withName, let fileName { scratch.append(contentsOf: fileName.utf8); scratch.append(UInt8(ascii: ":")) }
        if habits.lineNumber { scratch.append(contentsOf: String(recordNumber).utf8); scratch.append(UInt8(ascii: ":")) }
        try output.write(scratch)
    }

    /// A record without matches is clean when the threshold is above 0 — then the
    /// modes that print only verdicts or whole records take runs of them at once.
    var acceptsCleanRuns: Bool {
        judge.recordWithoutMatchesIsClean && !judge.needsCompletion && (mode == .count || mode == .clean || mode == .spam)
            && !habits.lineNumber && !habits.withName
    }

    mutating func willRead() throws(OutputError) { try output.flushIfInteractive() }

    mutating func match(_ match: Match) -> Bool {
        judge.add(match)
        if mode == .json { log.append(match) }
        return !(stopsWhenSettled && judge.isSettledSpam)
    }

    /// `--count` (and `-c` with no other habit): the judge tallies a block of records
    /// in one walk of the automaton (RecordJudge+Blocks.swift).
    mutating func judgeBlock(_ block: UnsafeBufferPointer<UInt8>, delimiter: UInt8) throws(OutputError) -> Bool {
        let countsOnly = mode == .count ? !habits.changesOutput
            : habits.countOnly && !habits.quiet && (mode == .clean || mode == .spam)
        guard countsOnly, judge.canTallyRecords(delimiter: delimiter) else { return false }
        let (n, spam) = judge.tallyRecords(in: block, delimiter: delimiter)
        recordNumber += n
        records += n
        spamRecords += spam
        if habits.countOnly { printedSinceTake += mode == .clean ? n - spam : mode == .spam ? spam : 0 }
        return true
    }

    mutating func cleanRun(_ bytes: UnsafeBufferPointer<UInt8>, records n: Int) throws(OutputError) {
        recordNumber += n
        records += n
        if habits.quiet { return }
        if habits.countOnly {
            if mode == .clean { printedSinceTake += n }
            return
        }
        if mode == .clean { printedSinceTake += n; try output.write(bytes) }
    }

    mutating func tail(_ bytes: UnsafeBufferPointer<UInt8>, end: UnsafeBufferPointer<UInt8>?) throws(OutputError) {
        guard printTail else { return }
        try output.write(bytes)
        if let end { try writeTerminator(end, afterEmpty: false) }
    }

    private func writeTerminator(_ terminator: UnsafeBufferPointer<UInt8>, afterEmpty: Bool) throws(OutputError) {
        if terminator.isEmpty {
            // The last record had no delimiter: end it, as grep does.
            if !afterEmpty { try output.write(defaultTerminator) }
        } else {
            try output.write(terminator)
        }
    }

    private mutating func writeHighlighted(_ content: UnsafeBufferPointer<UInt8>, _ matches: ArraySlice<Match>) throws(OutputError) {
        Rendering.mergedRanges(matches, marking: isMarked, into: &ranges)
        try Rendering.writeHighlighted(content, ranges: ranges, to: output)
    }

    private mutating func writeMasked(_ content: UnsafeBufferPointer<UInt8>, _ matches: ArraySlice<Match>) throws(OutputError) {
        Rendering.mergedRanges(matches, marking: isMarked, into: &ranges)
        var at = 0
        for r in ranges {
            try output.write(UnsafeBufferPointer(rebasing: content[at..<r.lowerBound]))
            for _ in 0..<maskLength(of: UnsafeBufferPointer(rebasing: content[r])) {
                try output.write(byte: UInt8(ascii: "*"))
            }
            at = r.upperBound
        }
        try output.write(UnsafeBufferPointer(rebasing: content[at...]))
    }

    /// The fixed parts of a record's and a match's JSON objects, spelled once.
    private static let jsonRecord: StaticString = "{\"record\":"
    private static let jsonSpam: StaticString = "\"spam\":true,"
    private static let jsonClean: StaticString = "\"spam\":false,"
    private static let jsonStart: StaticString = "{\"start\":"
    private static let jsonEnd: StaticString = ",\"end\":"
    private static let jsonPattern: StaticString = ",\"pattern\":"
    private static let jsonText: StaticString = ",\"text\":"

    private mutating func writeJSON(
        _ content: UnsafeBufferPointer<UInt8>, offset: Int, completion: ArraySlice<Match>, isSpam: Bool
    ) throws(OutputError) {
        scratch.removeAll(keepingCapacity: true)
        Rendering.append(Self.jsonRecord, to: &scratch)
        Rendering.appendDecimal(recordNumber, to: &scratch)
        scratch.append(UInt8(ascii: ","))
        if let fileName {
            scratch.append(contentsOf: "\"file\":".utf8)
            var name = fileName
            name.withUTF8 { Rendering.appendJSONString($0, to: &scratch) }
            scratch.append(UInt8(ascii: ","))
        }
        Rendering.append(isSpam ? Self.jsonSpam : Self.jsonClean, to: &scratch)
        rendering.appendJSONFields(score: judge.score, isUnsure: judge.isUnsure, hasUnsureBand: judge.model == .chiSquare,
                                   hits: judge.hits, offset: offset, to: &scratch)
        scratch.append(contentsOf: ",\"matches\":[".utf8)
        // Every match of the one search (the log), written out in 64 KiB pieces; a
        // record whose matches overflowed the log (a 19 MB line dense with matches) is
        // searched again, so that neither a match array nor its JSON is in memory.
        var first = true
        var failure: OutputError?
        func append(_ m: Match) -> Bool {
            if !first { scratch.append(UInt8(ascii: ",")) }
            first = false
            Rendering.append(Self.jsonStart, to: &scratch)
            Rendering.appendDecimal(offset + m.start, to: &scratch)
            Rendering.append(Self.jsonEnd, to: &scratch)
            Rendering.appendDecimal(offset + m.end, to: &scratch)
            Rendering.append(Self.jsonPattern, to: &scratch)
            Rendering.appendDecimal(m.pattern, to: &scratch)
            Rendering.append(Self.jsonText, to: &scratch)
            Rendering.appendJSONString(UnsafeBufferPointer(rebasing: content[m.range]), to: &scratch)
            scratch.append(UInt8(ascii: "}"))
            guard scratch.count >= 1 << 16 else { return true }
            do throws(OutputError) { try output.write(scratch) } catch { failure = error; return false }
            scratch.removeAll(keepingCapacity: true)
            return true
        }
        if log.isComplete {
            log.forEach { append($0) }
        } else {
            matcher.forEachMatch(in: content, from: 0) { append($0) }
        }
        for m in completion where failure == nil { _ = append(m) }
        if let failure { throw failure }
        scratch.append(contentsOf: "]}\n".utf8)
        try output.write(scratch)
    }
}

