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
        version: turnstileVersion,
        // -h is --no-filename, as in grep: help is --help only.
        helpNames: [.long])

    @OptionGroup(title: "Rule options") var rules: RuleArguments

    @Flag(name: .customLong("builtin"), help: "Search with the built-in spam list (whole words, ASCII case-insensitive).")
    var builtin = false

    @OptionGroup(title: "Output (as grep)") var grep: GrepArguments
    @OptionGroup(title: "Input and output") var stream: StreamArguments
    /// `--format mbox|eml|maildir`: records are messages, searched as raw bytes (offsets
    /// are input offsets; scope prefixes are not read).
    @OptionGroup(title: "Mail") var input: FormatArguments

    @Option(name: .customLong("match-kind"),
            help: ArgumentHelp("leftmost-first (the default; with -F -o leftmost-longest, as grep), leftmost-longest or overlapping (the last two with -F).",
                               valueName: "kind"))
    var matchKind: MatchKind?

    @Flag(name: .customLong("offsets"), help: "Print every match as 'start:end:pattern:text' (absolute byte offsets).")
    var offsets = false

    @Flag(name: .customLong("json"), help: "Print ripgrep's JSON Lines messages: begin, one match per record with its submatches, end, summary.")
    var json = false

    /// The values given, as the run reads them (``MatchOptions``).
    var options: MatchOptions {
        MatchOptions(
            rules: rules.options,
            builtin: builtin,
            grep: grep.options,
            stream: stream.options,
            input: input.options,
            matchKind: matchKind,
            offsets: offsets,
            json: json)
    }

    func validate() throws { try options.validate() }

    func run() throws { try options.run() }
}

/// `match`'s options as values, and its run. The quick reader (``QuickArguments``) fills
/// them without ArgumentParser; ``MatchCommand`` describes them to ArgumentParser and maps to them.
struct MatchOptions {
    var rules: RuleOptions = RuleOptions()
    var builtin = false
    var grep: GrepOptions = GrepOptions()
    var stream: StreamOptions = StreamOptions()
    var input: FormatOptions = FormatOptions()
    var matchKind: MatchKind?
    var offsets = false
    var json = false

    func validate() throws {
        if offsets && json { throw ValidationError("choose at most one of --offsets and --json") }
        if offsets || json {
            let g = grep
            if g.onlyMatching || g.byteOffset || g.lineNumber || (g.invert && offsets) || g.count || g.countMatches
                || g.filesWithMatches || g.filesWithoutMatch || g.quiet || g.hasContext || g.maxCount != nil {
                throw ValidationError("--offsets and --json list every match; they take none of -o, -b, -n, -c, --count-matches, -l, -L, -q, -m, -A, -B, -C (and --offsets not -v)")
            }
        }
        if builtin && !rules.isEmpty {
            throw ValidationError("--builtin cannot be combined with -e, -f, --rules or --automaton")
        }
    }

    func run() throws {
        let reading = try PatternReading(match: grep, fixedStrings: rules.fixedStrings)
        try SearchRequest(rules: rules, grep: grep, stream: stream, input: input, builtin: builtin,
                          matchKind: matchKind, offsets: offsets, json: json, reading: reading).run()
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
