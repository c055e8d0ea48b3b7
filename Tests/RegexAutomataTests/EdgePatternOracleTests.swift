import AutomatonCore
import PCRE2Oracle
@testable import RegexAutomata
import Testing
import TestSupport

/// Small patterns at the edges of the semantics (empty matches, anchors, word
/// boundaries, UTF-8, lazy repetition), every engine against PCRE2.
@Suite("Edge-case patterns against PCRE2") struct EdgePatternOracleTests {
    static let cases: [(String, String)] = [
        ("a*", "ab"), ("|a", "a"), ("abc", "xxabcabc"), ("a+?", "aaa"), ("(a|ab)(c|bcd)", "abcd"),
        ("\\bfoo\\b", "foo foobar foo"), ("\\B", "ab cd"), ("^a|b$", "ab\nab"), ("(?m)^a|b$", "ab\nab\n"),
        ("(?m)$", "a\nb\n"), ("(?m)^", "a\nb\n"), ("$", "a\n"), ("\\z|a", "aa"), ("(|a)*", "aa"),
        ("(a*)*", "aab"), ("(a|)+b", "aab"), (".", "é\u{1F600}x"), ("[^a]", "aéb"), ("x*", "éé"),
        ("\\B", "aé"), ("a{2,3}?", "aaaaa"), ("(?:a?)*?b", "aab"), ("(a*?)*", "aa"), ("(?s).*", "a\nb"),
        ("\\b", "ab cd"), ("(?i)hello", "HeLLo hello"), ("a|b|", "abc"), ("(?:ab)*", "ababa"),
    ]

    @Test(arguments: 0..<cases.count)
    func againstPCRE2(_ index: Int) throws {
        let (pattern, haystack) = Self.cases[index]
        let options = RegexSyntax.Options()
        let engines = try RegexEngines(patterns: [pattern], options: options)
        let oracle = try PCRE2Regex(pattern: pattern, options: PCRE2Options(options))
        let expected = try oracle.matches(in: Array(haystack.utf8))
        for (name, got) in engines.allMatches(Array(haystack.utf8)) {
            #expect(got.map(\.range) == expected, "\(name): /\(pattern)/ on \(haystack.debugDescription)")
        }
    }
}
