import ArgumentParser
import Turnstile

extension RecordDelimiter: ExpressibleByArgument {}
extension MatchKind: ExpressibleByArgument {
    public init?(argument: String) {
        guard let kind = MatchKind.allCases.first(where: { $0.description == argument }) else { return nil }
        self = kind
    }
    public var defaultValueDescription: String { description }
    public static var allValueStrings: [String] { allCases.map(\.description) }
}

/// When to colour matches.
enum ColorWhen: String, ExpressibleByArgument, CaseIterable {
    case auto, always, never
}

/// The rule options every subcommand shares: where the patterns come from and how
/// they are read, as ArgumentParser sees them. A new option here, in GrepArguments,
/// StreamArguments or FormatArguments also goes into its values type (``RuleOptions``
/// ...), its ``options`` mapping and QuickArguments' table: QuickArgumentsTests fails
/// until it does.
struct RuleArguments: ParsableArguments {
    @Option(
        name: [.customShort("e"), .customLong("regexp")], parsing: .unconditionalSingleValue,
        help: ArgumentHelp("A pattern (repeatable). --regexp=PATTERN accepts a pattern that starts with '-'.",
                           valueName: "pattern"))
    var regexp: [String] = []

    @Option(name: [.customShort("f"), .customLong("file")],
            help: ArgumentHelp("Read patterns from a file, one per line, verbatim (an empty line is an empty pattern; a UTF-8 BOM and a CR before LF are dropped).",
                               valueName: "file"))
    var patternFiles: [String] = []

    @Option(name: .customLong("rules"),
            help: ArgumentHelp("A rule file: 'pattern<TAB>weight' per line (weight optional, default 1); '#' comments and blank lines ignored.",
                               valueName: "file"))
    var ruleFiles: [String] = []

    @Option(name: .customLong("add-rules"),
            help: ArgumentHelp("Add the rules of this file ('pattern<TAB>weight' lines) to the list in use — the built-in one, --rules FILE or --automaton — read with that list's flags and judged at its threshold (repeatable).",
                               valueName: "file"))
    var addedRuleFiles: [String] = []

    @Flag(name: [.customShort("F"), .customLong("fixed-strings")],
          help: "Patterns are literal words (KMP for one, Aho-Corasick for several).")
    var fixedStrings = false

    @Flag(name: [.customShort("i"), .customLong("ignore-case")],
          help: "Case-insensitive matching: Unicode simple case folding in UTF-8 text (grep in the C locale: ASCII).")
    var ignoreCaseFlag = false

    @Flag(name: .customLong("no-ignore-case"), help: "Case-sensitive matching (the default; undoes an earlier -i).")
    var noIgnoreCase = false

    @Flag(name: [.customShort("w"), .customLong("word-regexp")], help: "Match whole words only.")
    var wordRegexp = false

    @Flag(name: .customLong("bytes"), help: "Regex bytes mode ('.' matches any byte) instead of UTF-8.")
    var bytes = false

    @Flag(name: .customLong("ucp"),
          help: "Unicode \\d \\s \\w and POSIX classes in regexes (PCRE2_UCP, as a leading (*UCP)): \\w is [\\p{L}\\p{N}_].")
    var ucp = false

    @Flag(name: .customLong("debug-strategy"),
          help: "Print the search strategy chosen for the patterns (its name, wrapper and prefilter kernel) on standard error.")
    var debugStrategy = false

    @Option(name: .customLong("max-pattern-file-bytes"),
            help: ArgumentHelp("The most bytes a -f or --rules file may hold (default 16 MiB).", valueName: "n"))
    var maxPatternFileBytes: Int = defaultMaxPatternFileBytes

    @Option(name: .customLong("automaton"),
            help: ArgumentHelp("Load an automaton saved with 'turnstile compile -o' (its rules, options and threshold).", valueName: "file"))
    var automaton: String?

    @Option(name: .customLong("max-automaton-bytes"),
            help: ArgumentHelp("The most bytes an --automaton file may hold (default 32 MiB; the built-in list takes 1.7 MB).", valueName: "n"))
    var maxAutomatonBytes: Int = 32 << 20

    @Option(name: .customLong("max-states"),
            help: ArgumentHelp("The most states the automaton may have (default: 4,000,000 for word lists; for regexes 10,000, past which the full DFA gives way to a lazy one and the NFA fails).",
                               valueName: "n"))
    var maxStates: Int?

    @Option(name: .customLong("max-table-bytes"),
            help: ArgumentHelp("The most bytes its transition table may take (default: 256 MiB for word lists, 4 MiB for a regex's full DFA).",
                               valueName: "n"))
    var maxTableBytes: Int?

    /// The values given, as the run reads them (``RuleOptions``).
    var options: RuleOptions {
        RuleOptions(
            regexp: regexp,
            patternFiles: patternFiles,
            ruleFiles: ruleFiles,
            addedRuleFiles: addedRuleFiles,
            fixedStrings: fixedStrings,
            ignoreCaseFlag: ignoreCaseFlag,
            noIgnoreCase: noIgnoreCase,
            wordRegexp: wordRegexp,
            bytes: bytes,
            ucp: ucp,
            debugStrategy: debugStrategy,
            maxPatternFileBytes: maxPatternFileBytes,
            automaton: automaton,
            maxAutomatonBytes: maxAutomatonBytes,
            maxStates: maxStates,
            maxTableBytes: maxTableBytes)
    }

    func validate() throws { try options.validate() }
}

/// The values of ``RuleArguments``: what a run reads. The quick reader (``QuickArguments``) fills
/// them without ArgumentParser; ArgumentParser's path maps its wrappers to them.
struct RuleOptions {
    var regexp: [String] = []
    var patternFiles: [String] = []
    var ruleFiles: [String] = []
    var addedRuleFiles: [String] = []
    var fixedStrings = false
    var ignoreCaseFlag = false
    var noIgnoreCase = false
    var wordRegexp = false
    var bytes = false
    var ucp = false
    var debugStrategy = false
    var maxPatternFileBytes: Int = defaultMaxPatternFileBytes
    var automaton: String?
    var maxAutomatonBytes: Int = 32 << 20
    var maxStates: Int?
    var maxTableBytes: Int?

    /// `-i`, unless a later `--no-ignore-case` undid it (the last one given wins, as in
    /// grep; ArgumentParser keeps no order between two flags, so the arguments say).
    var ignoreCase: Bool {
        guard ignoreCaseFlag else { return false }
        guard noIgnoreCase else { return true }
        return LastWins.last(of: [["-i", "--ignore-case"], ["--no-ignore-case"]]) == 0
    }

    /// Prints `matcher`'s strategy on standard error when --debug-strategy asks.
    func reportStrategy(_ matcher: Matcher) {
        if debugStrategy { printError("\(programName): strategy: \(matcher.strategy.description)") }
    }

    func validate() throws {
        if maxPatternFileBytes < 1 { throw ValidationError("--max-pattern-file-bytes must be at least 1") }
        if maxAutomatonBytes < 1 { throw ValidationError("--max-automaton-bytes must be at least 1") }
        if let maxStates, maxStates < 1 { throw ValidationError("--max-states must be at least 1") }
        if let maxTableBytes, maxTableBytes < 1 { throw ValidationError("--max-table-bytes must be at least 1") }
    }

    /// `true` when no rule option was given (the default spam list applies where a
    /// subcommand has one).
    var isEmpty: Bool { regexp.isEmpty && patternFiles.isEmpty && ruleFiles.isEmpty && automaton == nil }

    /// What `body` makes of the rule set the options describe: a saved one
    /// (`--automaton`), the given rules, or `fallback` when no rule option was given —
    /// or `replacement` instead when given (a list learned into a database).
    ///
    /// Each `-f`, `--rules` and `--add-rules` file is read once, through `read`: the
    /// rules, a rules file's header and, when `body` fails on a regex from a file, the
    /// `file:line` the error names all come from that one read. Any error becomes the
    /// one sentence the command prints.
    func withRuleSet<T>(
        _ replacement: RuleSet? = nil, fallback: @autoclosure () -> RuleSet,
        reading read: ((String) throws -> [UInt8])? = nil, _ body: (RuleSet) throws -> T
    ) throws(CommandFailure) -> T {
        let limit = maxPatternFileBytes
        var files = RuleFileContents(read: read ?? { try readPatternFile($0, limit: limit) })
        do {
            return try body(try replacement ?? ruleSet(fallback: fallback(), files: &files))
        } catch let failure as CommandFailure {
            throw failure
        } catch {
            throw CommandFailure(replacement == nil ? describe(error, files: files) : String(describing: error))
        }
    }

    /// The bytes of the options' files, each read once, in the order they are asked for.
    struct RuleFileContents {
        let read: (String) throws -> [UInt8]
        /// `-f` and `--rules` files in command-line order (``sourceOrder(counts:arguments:)``).
        var sources: [(kind: SourceKind, path: String, bytes: [UInt8])] = []
    }

    private func ruleSet(fallback: @autoclosure () -> RuleSet, files: inout RuleFileContents) throws -> RuleSet {
        withLimits(try withAddedRules(unlimitedRuleSet(fallback: fallback(), files: &files), read: files.read))
    }

    /// `set` with `--max-states` and `--max-table-bytes` applied over its engine's
    /// default limits (a loaded word list keeps its saved tables; its regexes and any
    /// rebuild use them).
    private func withLimits(_ set: RuleSet) -> RuleSet {
        guard maxStates != nil || maxTableBytes != nil else { return set }
        var set = set
        var limits = set.options.limits ?? Matcher.Options.defaultLimits(for: set.options.syntax)
        if let maxStates { limits.maxStates = maxStates }
        if let maxTableBytes { limits.maxTableBytes = maxTableBytes }
        set.options.limits = limits
        return set
    }

    /// `set` with the rules of every `--add-rules` file after its own (its options and
    /// threshold kept).
    private func withAddedRules(_ set: RuleSet, read: (String) throws -> [UInt8]) throws -> RuleSet {
        guard !addedRuleFiles.isEmpty else { return set }
        var more: [SpamFilter.Rule] = []
        for path in addedRuleFiles {
            more += try RuleFile.parse(read(path), source: path)
        }
        return set.adding(more)
    }

    private func unlimitedRuleSet(fallback: @autoclosure () -> RuleSet, files: inout RuleFileContents) throws -> RuleSet {
        if let automaton {
            if !(regexp.isEmpty && patternFiles.isEmpty && ruleFiles.isEmpty) || fixedStrings || ignoreCase
                || wordRegexp || bytes {
                throw TurnstileError(.invalidOptions(
                    "--automaton cannot be combined with other rule options; rebuild the automaton with 'turnstile compile' instead"))
            }
            let bytes = try readWhole(automaton, limit: maxAutomatonBytes, limitFlag: "--max-automaton-bytes")
            do {
                return try RuleSet(deserializing: bytes)
            } catch {
                throw TurnstileError(.invalidOptions("\(automaton): \(error)"))
            }
        }
        if isEmpty { return fallback() }
        var set = RuleSet(rules: try rules(files: &files), options: matcherOptions)
        // One rules file alone brings its header: `# threshold:` and, unless -F, -i or
        // -w is given (the command line wins), `# flags:` (what `train` writes).
        if ruleFiles.count == 1, regexp.isEmpty, patternFiles.isEmpty, let only = files.sources.first {
            let file = try RuleFile(parsing: only.bytes, source: only.path)
            set.threshold = file.threshold
            set.model = file.model ?? .sum
            if let flags = file.flags, !(fixedStrings || ignoreCase || wordRegexp) {
                set.options.syntax = flags.literal ? .literal : .regex
                set.options.caseInsensitive = flags.caseInsensitive
                set.options.wholeWord = flags.wholeWord
            }
        }
        return set
    }

    /// The matcher options the flags ask for.
    private var matcherOptions: Matcher.Options {
        var options = Matcher.Options()
        options.syntax = fixedStrings ? .literal : .regex
        options.caseInsensitive = ignoreCase
        options.wholeWord = wordRegexp
        options.unicodeWords = wordRegexp  // grep's -w in UTF-8 text
        options.bytesMode = bytes
        options.ucp = ucp
        return options
    }

    /// The rules in command-line order over `-e`, `-f` lines and `--rules` lines, each
    /// file read into `files`. Pattern ids are the indices of the returned rules.
    private func rules(files: inout RuleFileContents) throws -> [SpamFilter.Rule] {
        var rules: [SpamFilter.Rule] = []
        var e = regexp.makeIterator(), f = patternFiles.makeIterator(), r = ruleFiles.makeIterator()
        for kind in Self.sourceOrder(counts: (regexp.count, patternFiles.count, ruleFiles.count)) {
            switch kind {
            case .regexp:
                rules.append(contentsOf: Self.patternPieces(e.next()!).map { SpamFilter.Rule(pattern: $0, weight: 1) })
            case .patternFile:
                let path = f.next()!
                let bytes = try files.read(path)
                files.sources.append((kind, path, bytes))
                rules.append(contentsOf: Self.patternLines(bytes).map { SpamFilter.Rule(pattern: Array($0), weight: 1) })
            case .ruleFile:
                let path = r.next()!
                let bytes = try files.read(path)
                files.sources.append((kind, path, bytes))
                rules.append(contentsOf: try RuleFile.parse(bytes, source: path))
            }
        }
        return rules
    }

    /// The patterns an `-e` value holds: a newline separates patterns, as in grep
    /// (`-e $'a\nb'` is `a` and `b`; a final newline adds the empty pattern, as in grep).
    static func patternPieces(_ value: String) -> [[UInt8]] {
        PathBytes.bytes(value).split(separator: 0x0A, omittingEmptySubsequences: false).map(Array.init)
    }

    /// The lines of a `-f` file: split at LF, a CR before the LF dropped (a file saved
    /// on Windows), and no empty last pattern after a final LF.
    static func patternLines(_ bytes: [UInt8]) -> [ArraySlice<UInt8>] {
        var lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false)
        if lines.last?.isEmpty == true { lines.removeLast() }
        return lines.map { $0.last == 0x0D ? $0.dropLast() : $0 }
    }

    /// Where each rule of ``rules(files:)`` came from, index by index: `file:line` for
    /// a line of a `-f` or `--rules` file, nil for an `-e` pattern. Worked out from the
    /// bytes already read, only when an error needs it.
    private func origins(_ files: RuleFileContents) -> [String?] {
        var result: [String?] = []
        var read = files.sources.makeIterator()
        var e = regexp.makeIterator()
        for kind in Self.sourceOrder(counts: (regexp.count, patternFiles.count, ruleFiles.count)) {
            if kind == .regexp {
                result.append(contentsOf: repeatElement(nil, count: Self.patternPieces(e.next()!).count))
                continue
            }
            // Files are read in this same order, and a file that failed to read ended it.
            guard let (_, path, bytes) = read.next() else { break }
            if kind == .patternFile {
                result.append(contentsOf: Self.patternLines(bytes).indices.map { "\(path):\($0 + 1)" })
                continue
            }
            // The lines RuleFile reads as rules: neither blank nor a '#' comment.
            for (i, line) in bytes.split(separator: 0x0A, omittingEmptySubsequences: false).enumerated()
            where !line.allSatisfy({ $0 == 0x20 || $0 == 0x09 || $0 == 0x0D }) && line.first != UInt8(ascii: "#") {
                result.append("\(path):\(i + 1)")
            }
        }
        return result
    }

    /// The message for an error from building the rules: a regex error from a file
    /// names `file:line` rather than the pattern's index.
    private func describe(_ error: any Error, files: RuleFileContents) -> String {
        guard let failure = error as? TurnstileError, case .regexSyntax(let syntax, let index) = failure.kind,
              automaton == nil, case let places = origins(files), index < places.count, let place = places[index]
        else { return String(describing: error) }
        let shown = syntax.description.split(separator: "\n", omittingEmptySubsequences: false).dropFirst()
        return "\(place): not a valid regex: \(syntax.message) (at byte \(syntax.offset))\n" + shown.joined(separator: "\n")
    }

    enum SourceKind { case regexp, patternFile, ruleFile }

    /// The order in which `-e`, `-f` and `--rules` appeared on the command line.
    /// ArgumentParser keeps each option's values in order but not their interleaving,
    /// so the arguments are scanned again; when that scan does not account for every
    /// value (an unusual spelling), the order falls back to all `-e`, then `-f`, then
    /// `--rules`.
    static func sourceOrder(counts: (Int, Int, Int), arguments: [String] = ArgumentNormalizer.current) -> [SourceKind] {
        var order: [SourceKind] = []
        var i = 1
        while i < arguments.count {
            let a = arguments[i]
            i += 1
            if a == "--" { break }
            switch a {
            case "-e", "--regexp": order.append(.regexp); i += 1; continue
            case "-f", "--file": order.append(.patternFile); i += 1; continue
            case "--rules": order.append(.ruleFile); i += 1; continue
            default: break
            }
            if a.hasPrefix("--regexp=") { order.append(.regexp) }
            else if a.hasPrefix("--file=") { order.append(.patternFile) }
            else if a.hasPrefix("--rules=") { order.append(.ruleFile) }
            else if a.hasPrefix("-e"), !a.hasPrefix("--") { order.append(.regexp) }
            else if a.hasPrefix("-f"), !a.hasPrefix("--") { order.append(.patternFile) }
        }
        let found = (order.filter { $0 == .regexp }.count, order.filter { $0 == .patternFile }.count,
                     order.filter { $0 == .ruleFile }.count)
        if found == counts { return order }
        return Array(repeating: .regexp, count: counts.0) + Array(repeating: .patternFile, count: counts.1)
            + Array(repeating: .ruleFile, count: counts.2)
    }
}

/// Options for reading and printing streams, shared by `filter` and `match`.
struct StreamArguments: ParsableArguments {
    @Option(name: .customLong("delimiter"),
            help: ArgumentHelp("Records are lines (line), NUL-terminated (nul), blank-line separated paragraphs (blank) or the whole input (none).",
                               valueName: "line|nul|blank|none"))
    var delimiter: RecordDelimiter = .line

    @Option(name: .customLong("color"), help: ArgumentHelp("Highlight matches: auto (on a terminal, unless NO_COLOR is set), always or never.", valueName: "auto|always|never"))
    var color: ColorWhen = .auto

    @Option(name: .customLong("max-record-bytes"),
            help: ArgumentHelp("Records are kept in memory up to N bytes (default 16 MiB). filter judges a longer record on its first N bytes and passes it through (or holds it back) whole; match and grep read it in pieces and judge it whole (up to 4 GiB in memory when -o, --color, --json, --offsets or --count-matches list matches).",
                               valueName: "n"))
    var maxRecordBytesOption: Int?

    @Option(name: [.customShort("j"), .customLong("threads")],
            help: ArgumentHelp("Search with at most N threads, where they pay: several inputs are searched side by side, a compute-bound search of one input in chunks of whole records; output is always in input order (default: the number of cores).",
                               valueName: "n"))
    var threads: Int?

    @Argument(help: ArgumentHelp("Input files; '-' or none reads standard input.", valueName: "file"))
    var files: [String] = []

    /// The values given, as the run reads them (``StreamOptions``).
    var options: StreamOptions {
        StreamOptions(
            delimiter: delimiter,
            color: color,
            maxRecordBytesOption: maxRecordBytesOption,
            threads: threads,
            files: files)
    }

    func validate() throws { try options.validate() }
}

/// The values of ``StreamArguments``: what a run reads. The quick reader (``QuickArguments``) fills
/// them without ArgumentParser; ArgumentParser's path maps its wrappers to them.
struct StreamOptions {
    var delimiter: RecordDelimiter = .line
    var color: ColorWhen = .auto
    var maxRecordBytesOption: Int?
    var threads: Int?
    var files: [String] = []

    /// `--max-record-bytes`, or 16 MiB.
    var maxRecordBytes: Int { maxRecordBytesOption ?? RecordReader.defaultMaxRecordBytes }

    func validate() throws {
        if let maxRecordBytesOption, maxRecordBytesOption < 1 {
            throw ValidationError("--max-record-bytes must be at least 1")
        }
        if let threads, threads < 1 { throw ValidationError("--threads must be at least 1") }
    }

    /// The number of worker threads when the inputs are searched in parallel, nil for
    /// one thread (asked for, one core, or a record limit too small for chunks).
    var parallelThreads: Int? {
        let n = threads ?? max(1, sysconf(Int32(_SC_NPROCESSORS_ONLN)))
        guard n > 1, RecordReader.canChunk(maxRecordBytes: maxRecordBytes, chunkBytes: chunkBytes) else { return nil }
        return n
    }

    /// Bytes per chunk under `--threads`: 1 MiB; tests set `TURNSTILE_CHUNK_BYTES` to
    /// put many chunk boundaries into small inputs.
    var chunkBytes: Int {
        if let text = ProcessEnvironment.value("TURNSTILE_CHUNK_BYTES"), let n = Int(text), n >= 16 { return n }
        return RecordReader.defaultChunkBytes
    }

    /// A thread plan that replaces the choice (``RecordPipeline/forcedThreads``): tests
    /// set `TURNSTILE_THREADS_PLAN` to `chunks` or `inputs` to run those paths on small
    /// inputs, or `one`; the `--threads` count still bounds it.
    var forcedThreads: RunThreads? {
        guard let text = ProcessEnvironment.value("TURNSTILE_THREADS_PLAN") else { return nil }
        let n = parallelThreads ?? 1
        switch text {
        case "chunks": return .chunks(n)
        case "inputs": return .inputs(n)
        case "one": return .one
        default: return nil
        }
    }

    /// Whether to colour, given the output.
    func useColor(_ output: OutputWriter) -> Bool {
        switch color {
        case .always: return true
        case .never: return false
        case .auto:
            let env = ProcessEnvironment.self
            if let v = env.value("NO_COLOR"), !v.isEmpty { return false }
            if env.value("TERM") == "dumb" { return false }
            return output.isTerminal
        }
    }

    /// The inputs: the files, or standard input.
    var inputs: [String] { files.isEmpty ? ["-"] : files }
}
