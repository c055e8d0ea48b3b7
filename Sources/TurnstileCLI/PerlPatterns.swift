import RegexAutomata
import Turnstile

/// `grep -P` and `match -P`: patterns in PCRE2's syntax, which is the regex parser's own
/// (Parser.swift), so a regular pattern (`\t`, `\d+`, `(?i)…`, `\w`, classes) runs on the
/// automata as it is. What PCRE2 has beyond regular languages — look-around,
/// back-references, atomic groups, possessive quantifiers, recursion, `\K`, conditionals,
/// verbs — cannot run in a finite automaton and is refused before building, in one
/// sentence with status 2 (a script reading grep's errors wants one line).
///
/// GNU grep 3.8 compiles `-P` without PCRE2_UCP: `\w`, `\d` and `-w`'s word characters
/// are ASCII there, in a UTF-8 locale too, so `-w` here counts ASCII word characters.
enum PerlPatterns {
    /// `set` ready to build as `-P` reads it, or the one-sentence refusal. GNU grep
    /// takes one pattern (`-e a -e b`, a newline in it, two lines of `-f`: "the -P
    /// option only supports a single pattern").
    static func checked(_ set: RuleSet) throws -> RuleSet {
        if set.rules.count > 1 { throw CommandFailure("the -P option only supports a single pattern") }
        var set = set
        set.options.unicodeWords = false
        let options = RegexSyntax.Options(caseInsensitive: set.options.caseInsensitive,
                                          mode: set.options.bytesMode ? .bytes : .utf8, ucp: set.options.ucp)
        for rule in set.rules {
            do {
                _ = try RegexSyntax.parse(rule.pattern, options: options)
            } catch {
                guard case .notRegular = error.kind else { continue }  // reported when the set is built
                throw CommandFailure("-P pattern '\(String(decoding: rule.pattern, as: UTF8.self))': \(error.message) (at byte \(error.offset))")
            }
        }
        return set
    }
}
