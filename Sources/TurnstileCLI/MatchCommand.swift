import ArgumentParser
import Turnstile

/// `turnstile match`: every match, like `grep -o -b`.
struct MatchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "match",
        abstract: "Print every match with its byte offsets.",
        discussion: """
            Prints one line per match, 'start:end:pattern:text', where start and end are
            absolute byte offsets in that input (end is exclusive) and pattern is the
            0-based pattern id in command-line order over -e, -f lines and --rules lines.
            With several inputs each line starts with the input's name and ':'.
            With no rule option the built-in spam list is used (whole words, ASCII
            case-insensitive). A pattern that can match the empty string reports its
            empty matches too (start = end), as PCRE2's global matching does.

            Exit status: 0 when something matched, 1 when nothing did, 2 on any error.

            Examples:
              $ printf 'a winner, a prize\\n' | turnstile match -F -e prize -e winner
              2:8:1:winner
              12:17:0:prize
              $ printf 'a winner, a prize\\n' | turnstile match -F -e prize -e winner --json
              {"start":2,"end":8,"pattern":1,"text":"winner"}
              {"start":12,"end":17,"pattern":0,"text":"prize"}
              $ printf 'abcd\\n' | turnstile match -F -e abc -e bcd --match-kind overlapping
              0:3:0:abc
              1:4:1:bcd
              $ turnstile match -c -F -i -e free Corpora/messages/sample.txt
            """)

    @OptionGroup(title: "Rule options") var rules: RuleOptions
    @OptionGroup(title: "Input and output") var stream: StreamOptions
    /// `--format mbox|eml|maildir`: records are messages, searched as raw bytes (offsets
    /// are input offsets; scope prefixes are not read).
    @OptionGroup(title: "Mail") var input: FormatOptions

    @Option(name: .customLong("match-kind"),
            help: ArgumentHelp("leftmost-first (default), leftmost-longest or overlapping (the last two with -F).",
                               valueName: "kind"))
    var matchKind: MatchKind = .leftmostFirst

    @Flag(name: [.customShort("c"), .customLong("count")], help: "Print the number of matches instead.")
    var count = false

    @Flag(name: .customLong("json"), help: "Print one JSON object per match: {\"start\":S,\"end\":E,\"pattern\":P,\"text\":...}.")
    var json = false

    func validate() throws {
        if count && json { throw ValidationError("choose at most one of --count and --json") }
    }

    func run() throws {
        let matcher: Matcher
        do {
            var set = try rules.ruleSet(fallback: .standard)
            if matchKind != .leftmostFirst, set.options.syntax != .literal {
                throw TurnstileError(.invalidOptions("--match-kind \(matchKind) needs literal patterns (-F)"))
            }
            set.options.matchKind = matchKind
            matcher = try set.matcher()
        } catch {
            throw CommandFailure(String(describing: error))
        }
        let output = OutputWriter(fd: 1)
        let inputs = try input.inputs(stream.inputs)
        let mode: MatchSink.Mode = count ? .count : json ? .json : .lines
        let color = stream.useColor(output)
        let delimiter = try input.delimiter(stream.delimiter), maxRecordBytes = stream.maxRecordBytes
        let makeSink = { @Sendable (output: OutputWriter) in MatchSink(output: output, mode: mode, color: color) }
        let makeReader = { @Sendable in
            RecordReader(matcher: matcher, delimiter: delimiter, maxRecordBytes: maxRecordBytes)
        }
        let named = inputs.count > 1
        /// `-c` prints each input's count after its last record.
        let printCount = { @Sendable (name: String, matches: Int, output: OutputWriter) throws(OutputError) in
            guard mode == .count else { return }
            try output.write(named ? "\(name):\(matches)\n" : "\(matches)\n")
        }
        var status: RunStatus
        var total = 0
        let truncated: Bool
        if let threads = stream.parallelThreads {
            let scan = ParallelScan(threads: threads, delimiter: delimiter, maxRecordBytes: maxRecordBytes,
                                    makeReader: makeReader, makeSink: makeSink) { name, tally, output throws(OutputError) in
                try printCount(name, tally.matches, output)
            }
            let outcome = scan.run(inputs, output: output)
            (status, total, truncated) = (outcome.status, outcome.tally.matches, outcome.truncatedSomeRecord)
            finishRun(&status, output: output) {}
        } else {
            var sink = makeSink(output)
            var reader = makeReader()
            defer { reader.deallocate() }
            status = runInputs(inputs, output: output) { (fd, name) throws(ScanError) in
                sink.beginInput(name: named ? name : nil, firstRecord: 0)
                try reader.read(fd: fd, into: &sink)
                let matches = sink.takeTally().matches
                total += matches
                do throws(OutputError) { try printCount(name, matches, output) } catch { throw .sink(error) }
            } finish: {}
            truncated = reader.truncatedSomeRecord
        }
        if truncated {
            printError("turnstile: warning: a record longer than \(stream.maxRecordBytes) bytes was searched only in its first \(stream.maxRecordBytes) bytes (see --max-record-bytes)")
        }
        throw ExitCode(status.exitCode(matched: total > 0))
    }
}

/// Prints matches.
struct MatchSink: ChunkSink {
    typealias Failure = OutputError
    enum Mode { case lines, json, count }

    let output: OutputWriter
    let mode: Mode
    let color: Bool
    private var prefix: [UInt8] = []
    private var jsonFile: [UInt8] = []
    private var scratch: [UInt8] = []
    /// Matches in the current input.
    private(set) var inputMatches = 0

    init(output: OutputWriter, mode: Mode, color: Bool) {
        self.output = output
        self.mode = mode
        self.color = color
    }

    mutating func beginInput(name: String?, firstRecord: Int) {
        inputMatches = 0
        prefix = name.map { Array(($0 + ":").utf8) } ?? []
        jsonFile.removeAll()
        if var name {
            jsonFile.append(contentsOf: ",\"file\":".utf8)
            name.withUTF8 { Rendering.appendJSONString($0, to: &jsonFile) }
        }
    }

    mutating func record(
        content: UnsafeBufferPointer<UInt8>, terminator: UnsafeBufferPointer<UInt8>,
        offset: Int, matches: ArraySlice<Match>, truncated: Bool
    ) throws(OutputError) {
        inputMatches += matches.count
        guard mode != .count else { return }
        for m in matches {
            let text = UnsafeBufferPointer(rebasing: content[m.range])
            scratch.removeAll(keepingCapacity: true)
            if mode == .json {
                scratch.append(contentsOf: "{\"start\":\(offset + m.start),\"end\":\(offset + m.end),\"pattern\":\(m.pattern),\"text\":".utf8)
                Rendering.appendJSONString(text, to: &scratch)
                scratch.append(contentsOf: jsonFile)
                scratch.append(contentsOf: "}\n".utf8)
            } else {
                scratch.append(contentsOf: prefix)
                scratch.append(contentsOf: "\(offset + m.start):\(offset + m.end):\(m.pattern):".utf8)
                if color { scratch.append(contentsOf: Rendering.colorStart) }
                scratch.append(contentsOf: text)
                if color { scratch.append(contentsOf: Rendering.colorEnd) }
                scratch.append(0x0A)
            }
            try output.write(scratch)
        }
    }

    mutating func tail(_ bytes: UnsafeBufferPointer<UInt8>, end: UnsafeBufferPointer<UInt8>?) throws(OutputError) {}

    mutating func willRead() throws(OutputError) { try output.flushIfInteractive() }

    mutating func takeTally() -> RecordTally {
        defer { inputMatches = 0 }
        return RecordTally(matches: inputMatches)
    }

    /// Counting needs no record boundaries.
    var needsRecordBoundaries: Bool { mode != .count }
}
