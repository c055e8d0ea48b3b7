import ArgumentParser
import Turnstile

/// `turnstile grep`: GNU grep's interface on turnstile's automata. Patterns are GNU
/// basic regexes unless `-E` (extended) or `-F` (literal words); the locale decides
/// what a character is, as in grep. Run through a link named `grep`, `egrep` or
/// `fgrep`, turnstile is this command (`egrep` adds `-E`, `fgrep` `-F`).
///
/// It shares everything past reading its patterns with `match` (``SearchRequest``).
struct GrepCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "grep",
        abstract: "Search inputs for lines that match patterns, as GNU grep does.",
        discussion: """
            Usage as grep: grep [OPTION]... PATTERNS [FILE]...
            PATTERNS are GNU basic regexes (BRE) unless -E (extended) or -F (literal
            strings); a newline separates patterns. Under a link named grep, egrep or
            fgrep, turnstile is this command (egrep = grep -E, fgrep = grep -F).
            In a UTF-8 locale a character is a UTF-8 sequence; in the C locale (or any
            other) every byte is one. -P reads one pattern in PCRE2's syntax. Back-references
            and look-around are refused: they cannot run in a finite automaton. The README's grep section lists what still differs
            from GNU grep.

            Exit status: 0 when a line was selected, 1 when none was, 2 on an error
            (with -q: 0 as soon as one is selected).

            Examples:
              $ printf 'a winner\\nlunch\\n' | turnstile grep -n 'win\\(ner\\|s\\)'
              1:a winner
              $ printf 'ab\\naab\\n' | turnstile grep -c -E '^a{2}'
              1
            """,
        // -h is --no-filename, as in grep: help is --help only.
        helpNames: [.long])

    @OptionGroup(title: "Pattern options") var rules: RuleArguments
    @OptionGroup(title: "Output (as grep)") var grep: GrepArguments
    @OptionGroup(title: "Input and output") var stream: StreamArguments
    @OptionGroup(visibility: .hidden) var input: FormatArguments

    @Flag(name: [.customShort("V"), .customLong("version")], help: "Print the version and exit.")
    var version = false

    /// The values given, as the run reads them (``GrepCommandOptions``).
    var options: GrepCommandOptions {
        GrepCommandOptions(
            rules: rules.options,
            grep: grep.options,
            stream: stream.options,
            input: input.options,
            version: version)
    }

    func run() throws { try options.run() }
}

/// `grep`'s options as values, and its run. The quick reader (``QuickArguments``) fills
/// them without ArgumentParser; ``GrepCommand`` describes them to ArgumentParser and maps to them.
struct GrepCommandOptions {
    var rules: RuleOptions = RuleOptions()
    var grep: GrepOptions = GrepOptions()
    var stream: StreamOptions = StreamOptions()
    var input: FormatOptions = FormatOptions()
    var version = false

    func run() throws {
        if version {
            print(grepVersion)
            return
        }
        // No pattern at all: GNU grep prints its usage lines alone.
        if rules.isEmpty && stream.files.isEmpty {
            printUsageHint()
            throw ExitCode(2)
        }
        let reading = try PatternReading(grep: grep, fixedStrings: rules.fixedStrings)
        try SearchRequest(rules: rules, grep: grep, stream: stream, input: input, reading: reading).run()
    }
}

/// `grep -V`: says it is GNU grep compatible, which scripts that look for "GNU" in
/// `grep --version` (autoconf among them) rely on to use GNU's options.
let grepVersion = """
    grep (turnstile \(turnstileVersion.split(separator: " ").last ?? "")) — a GNU grep compatible search on finite automata
    """
