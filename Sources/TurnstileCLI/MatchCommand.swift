import ArgumentParser
import Turnstile

/// `turnstile match`: grep, on turnstile's automata.
struct MatchCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "match",
        abstract: "Print the records a pattern matches, as grep does (or the matches, with -o).",
        discussion: """
            The first operand is the pattern (a regex; -F for literal words) unless -e,
            -f, --rules, --automaton or --builtin gives the patterns; the other operands
            are the inputs ('-' or none: standard input). The flags are grep's, with
            grep's meanings: -o -b -n -v -c -l -L -q -s -m -A -B -C -H -h -r -w -x -z -Z
            -a -I -y -E --binary-files --include --exclude --exclude-dir --label
            --line-buffered --color (GREP_COLORS), and with ASCII input and LC_ALL=C
            the output is grep -E's (grep -F's with -F). One difference: -o reports
            leftmost-first matches (Perl's order) for regexes, where grep reports the
            longest of alternatives starting at one place. Help is --help only.
            --count-matches counts matches rather than records, as ripgrep does.

            --offsets prints one line per match, 'start:end:pattern:text', with absolute
            byte offsets (end exclusive) and the 0-based pattern id in command-line order
            over -e, -f lines and --rules lines. --json prints rg --json's messages
            (begin, match with lines, line_number, absolute_offset and submatches,
            end, summary; text as {"text":…} when it is UTF-8, else {"bytes":base64}).
            --builtin searches with the built-in spam list (whole words, ASCII
            case-insensitive). A pattern that can match the empty string reports its
            empty matches with --offsets (start = end), as PCRE2 does.

            Exit status: 0 when a record was selected, 1 when none was, 2 on an error
            (with -q: 0 as soon as one is selected).

            Examples:
              $ printf 'a winner\\nlunch\\na prize\\n' | turnstile match -n 'prize|winner'
              1:a winner
              3:a prize
              $ printf 'a winner, a prize\\n' | turnstile match -o -b -F -e prize -e winner
              2:winner
              12:prize
              $ printf 'winner, prize\\n' | turnstile match --offsets -F -e prize -e winner
              0:6:1:winner
              8:13:0:prize
              $ printf 'abcd\\n' | turnstile match -oFe abc -e bcd --match-kind overlapping
              abc
              bcd
              $ turnstile match -c -F -i free Corpora/messages/sample.txt
              4
              $ turnstile match --count-matches --builtin Corpora/messages/sample.txt
            """,
        version: turnstileVersion)

    @OptionGroup(title: "Rule options") var rules: RuleOptions

    @Flag(name: .customLong("builtin"), help: "Search with the built-in spam list (whole words, ASCII case-insensitive).")
    var builtin = false

    @OptionGroup(title: "Output (as grep)") var grep: GrepOptions
    @OptionGroup(title: "Input and output") var stream: StreamOptions
    /// `--format mbox|eml|maildir`: records are messages, searched as raw bytes (offsets
    /// are input offsets; scope prefixes are not read).
    @OptionGroup(title: "Mail") var input: FormatOptions

    @Option(name: .customLong("match-kind"),
            help: ArgumentHelp("leftmost-first (the default; with -F -o leftmost-longest, as grep), leftmost-longest or overlapping (the last two with -F).",
                               valueName: "kind"))
    var matchKind: MatchKind?

    @Flag(name: .customLong("offsets"), help: "Print every match as 'start:end:pattern:text' (absolute byte offsets).")
    var offsets = false

    @Flag(name: .customLong("json"), help: "Print ripgrep's JSON Lines messages: begin, one match per record with its submatches, end, summary.")
    var json = false

    func validate() throws {
        if offsets && json { throw ValidationError("choose at most one of --offsets and --json") }
        if offsets || json {
            let g = grep
            if g.onlyMatching || g.byteOffset || g.lineNumber || g.invert || g.count || g.countMatches
                || g.filesWithMatches || g.filesWithoutMatch || g.quiet || g.hasContext || g.maxCount != nil {
                throw ValidationError("--offsets and --json list every match; they take none of -o, -b, -n, -v, -c, --count-matches, -l, -L, -q, -m, -A, -B, -C")
            }
        }
        if builtin && !rules.isEmpty {
            throw ValidationError("--builtin cannot be combined with -e, -f, --rules or --automaton")
        }
    }

    func run() throws {
        inputMessagesSuppressed = grep.noMessages
        if let label = grep.label { standardInputLabel = label }
        let delimiter = try input.delimiter(grep.nullData ? .nul : stream.delimiter)
        var operands = stream.files
        var ruleOptions = rules
        if rules.isEmpty && !builtin {
            guard !operands.isEmpty else {
                throw CommandFailure("no pattern: give it as the first operand, or use -e, -f, --rules, --automaton or --builtin")
            }
            ruleOptions.regexp = [operands.removeFirst()]
        }
        let (matcher, cannotSelect) = try ruleOptions.withRuleSet(fallback: .standard) { set in
            let cannotSelect = Self.cannotSelect(set, invert: grep.invert, lineRegexp: grep.lineRegexp)
            if let matchKind, matchKind != .leftmostFirst, set.options.syntax != .literal {
                throw TurnstileError(.invalidOptions("--match-kind \(matchKind) needs literal patterns (-F)"))
            }
            var set = set
            // grep -F -o reports the longest of the words starting at one place.
            let grepKind: MatchKind = grep.onlyMatching && set.options.syntax == .literal ? .leftmostLongest : .leftmostFirst
            set.options.matchKind = matchKind ?? grepKind
            set.options.wholeLine = grep.lineRegexp
            set.options.lineRecords = delimiter == .line
            return (try set.matcher(), cannotSelect)
        }
        // grep -m 0 reads nothing and selects nothing; nor does grep read when no record
        // can be selected, unless -L is to list the inputs.
        if grep.limit == 0 { throw ExitCode(1) }
        if cannotSelect, !offsets, !json, grep.mode != .filesWithoutMatch { throw ExitCode(1) }

        let inputs: [String]
        var sawFolder = false
        if grep.recursive, !input.format.isMail {
            (inputs, sawFolder) = try recursiveInputs(operands, names: grep.names)
        } else {
            let given = try input.inputs(operands.isEmpty ? ["-"] : operands)
            inputs = given.filter { !grep.names.skipsFile($0, commandLine: true) }
            sawFolder = given.count > 1  // grep names inputs by how many were given
        }
        let named = grep.withFilename || (!grep.noFilename && (inputs.count > 1 || sawFolder))
        var run = MatchRun(
            matcher: matcher, inputs: inputs, named: named, output: OutputWriter(fd: 1),
            delimiter: delimiter, maxRecordBytes: stream.maxRecordBytes,
            threads: stream.parallelThreads)
        run.chunkBytes = stream.chunkBytes
        // Binary input: a NUL in the first buffer, unless NUL ends records (-z).
        if delimiter.byte != 0 && !input.format.isMail { run.binaryFiles = grep.binaryHandling }
        let color = stream.useColor(run.output)
        let outcome: MatchRun.Outcome
        if json {
            outcome = run.listJSON()
        } else if offsets || (grep.countMatches && grep.mode == .records && !grep.invert && grep.limit == nil) {
            outcome = run.listMatches(mode: offsets ? .lines : .count, color: color)
        } else {
            var settings = GrepSink.Settings()
            settings.mode = grep.countMatches && grep.mode == .records ? .count : grep.mode
            settings.countsMatches = grep.countMatches && grep.mode == .records && !grep.invert
            settings.matchTerminator = delimiter == .nul ? [0] : [0x0A]
            settings.invert = grep.invert
            settings.onlyMatching = grep.onlyMatching
            settings.lineNumber = grep.lineNumber
            settings.byteOffset = grep.byteOffset
            settings.maxCount = grep.limit
            settings.before = grep.before ?? grep.context ?? 0
            settings.after = grep.after ?? grep.context ?? 0
            settings.separators = grep.hasContext
            settings.color = color
            if color { settings.colors = GrepColors() }
            settings.terminator = run.delimiter.defaultTerminator
            settings.delimiterByte = run.delimiter.byte
            settings.nullAfterName = grep.nullAfterName
            settings.lineBuffered = grep.lineBuffered
            outcome = run.selectRecords(settings)
        }
        if outcome.truncated {
            printError("turnstile: warning: a record longer than \(stream.maxRecordBytes) bytes was searched only in its first \(stream.maxRecordBytes) bytes (see --max-record-bytes)")
        }
        // grep -q: a selected record is success, whatever went wrong before it.
        if grep.quiet && outcome.matched { throw ExitCode(0) }
        throw ExitCode(outcome.status.exitCode(matched: outcome.matched))
    }

    /// Whether it is plain that no record can be selected, as GNU grep sees it: no
    /// pattern at all (`-f /dev/null`), or `-v` with the one empty pattern (which
    /// matches every record) and neither `-w` nor `-x`. grep then exits 1 without reading, so
    /// `grep -c -v -e ''` prints no counts; match does the same.
    static func cannotSelect(_ set: RuleSet, invert: Bool, lineRegexp: Bool = false) -> Bool {
        if set.rules.isEmpty { return !invert }
        return invert && set.rules.count == 1 && set.rules[0].pattern.isEmpty && !set.options.wholeWord && !lineRegexp
    }
}
