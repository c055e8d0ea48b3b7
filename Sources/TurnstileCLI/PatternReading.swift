import RegexAutomata
import Turnstile

/// How a command reads its patterns: `match` reads regexes in the parser's own syntax
/// (an ERE with Perl's classes), `grep` reads GNU grep's BRE (the default) or ERE (`-E`)
/// and follows the locale as grep does; `-F` makes them literal words for both.
///
/// GNU patterns are rewritten into the parser's syntax once, before the automaton is
/// built (``GNURegex``), so the rest of the run is the same for both commands.
struct PatternReading {
    enum Syntax: Equatable {
        /// The regex parser's syntax (`match`, `match -E`).
        case parser
        /// GNU's BRE or ERE (`grep`, `grep -E`, `match -G`).
        case gnu(GNURegex.Dialect)
        /// Literal words (`-F`).
        case fixed
    }

    var syntax: Syntax
    /// Whether every byte is a character (grep in the C locale, or any locale whose
    /// character set is not UTF-8): `.` matches any byte, classes and `-i` are ASCII.
    var bytesMode = false

    /// `match`: the parser's ERE unless `-G` (GNU BRE) or `-F`.
    init(match grep: GrepOptions, fixedStrings: Bool) throws {
        try Self.checkOneMatcher(grep, fixedStrings: fixedStrings)
        syntax = fixedStrings ? .fixed : grep.basicRegexp ? .gnu(.basic) : .parser
    }

    /// `grep`: GNU's BRE unless `-E` or `-F`, in the locale's character set.
    init(grep: GrepOptions, fixedStrings: Bool) throws {
        try Self.checkOneMatcher(grep, fixedStrings: fixedStrings)
        syntax = fixedStrings ? .fixed : grep.extendedRegexp ? .gnu(.extended) : .gnu(.basic)
        bytesMode = !Self.localeIsUTF8()
    }

    /// grep refuses two different matchers (`-E -F`) rather than picking one; `-P` is refused.
    private static func checkOneMatcher(_ grep: GrepOptions, fixedStrings: Bool) throws {
        if grep.perlRegexp {
            throw CommandFailure("-P (Perl regexes) is not supported: lookaround and back-references cannot run in a finite automaton, so use -E")
        }
        if [grep.extendedRegexp, grep.basicRegexp, fixedStrings].filter({ $0 }).count > 1 {
            throw CommandFailure("conflicting matchers specified")
        }
    }

    /// Whether the locale's character set is UTF-8, as grep decides it: `LC_ALL`, then
    /// `LC_CTYPE`, then `LANG`; a locale that is not installed is the C locale.
    static func localeIsUTF8() -> Bool {
        guard setlocale(LC_CTYPE, "") != nil, let codeset = nl_langinfo(nl_item(CODESET)) else { return false }
        return String(cString: codeset) == "UTF-8"
    }

    /// `set` with its regexes rewritten from GNU's syntax and the locale's mode applied;
    /// GNU's warnings are printed as grep prints them. A set of literal words, or one
    /// in the parser's syntax, is returned as it is (bar the mode).
    func translated(_ set: RuleSet, nullData: Bool) throws -> RuleSet {
        var set = set
        if bytesMode {
            set.options.bytesMode = true
            set.options.unicodeWords = false
        }
        guard case .gnu(let dialect) = syntax, set.options.syntax == .regex else { return set }
        for i in set.rules.indices {
            let t = try GNURegex.translate(set.rules[i].pattern, dialect: dialect, bytesMode: bytesMode,
                                           dotMatchesNewline: nullData)
            for warning in t.warnings { printError("\(programName): warning: \(warning)") }
            set.rules[i].pattern = t.pattern
        }
        return set
    }
}
