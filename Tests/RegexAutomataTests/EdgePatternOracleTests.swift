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

    /// PCRE2's character escapes and quoting: `\a \e \0nn \o{…} \cX \N \N{U+hh} \Q…\E`.
    static let escapeCases: [(String, String)] = [
        ("\\a", "x\u{7}y"), ("\\e", "\u{1B}["), ("\\0", "a\u{0}b"), ("\\012", "a\nb"), ("\\08", "\u{0}8 8"),
        ("\\0123", "\n3 S"), ("\\o{101}", "BA"), ("\\o{0}", "\u{0}"), ("\\o{351}", "é"), ("\\ca", "\u{1}a"),
        ("\\cA", "\u{1}"), ("\\c[", "\u{1B}"), ("\\c?", "\u{7F}?"), ("\\c ", "` "), ("\\c\\", "\u{1C}"),
        ("[\\ca-\\cc]+", "\u{1}\u{2}\u{3}\u{4}"), ("[\\a\\e\\0]", "\u{7}\u{1B}\u{0}"), ("\\N", "a\nb"),
        ("\\N+", "ab\ncd"), ("(?s)\\N+", "ab\ncd"), ("\\N{3}", "abcd"), ("\\N{U+41}", "BA"), ("\\N{U+e9}", "é"),
        ("\\N{U+1F600}", "\u{1F600}"), ("\\Qa.b\\E+", "a.bbb axb"), ("\\Q(a|b)*\\E", "(a|b)* ab"), ("\\Qa", "a"),
        ("a\\Q\\E+", "aaa"), ("\\E", "x"), ("(\\Qa)\\E)", "a)"), ("[\\Q]\\E]", "]"), ("[\\Qa-z\\E]+", "-bz"),
        ("(?i)\\Qab\\E", "AB"), ("\\Q\\d\\E", "\\d 1"), ("x\\Q\\E*", "xxx"), ("[\\Q^\\E]", "^a"),
        ("\\Q[a]", "[a] a"), ("a\\Q|\\Eb", "a|b ab"),
        ("\\101", "BA"), ("\\12", "a\nb"), ("(a)\\12", "a\n"), ("[\\1]", "\u{1}1"), ("[\\8]", "8\u{8}"), ("[\\101]", "A"),
        ("\\0101", "\u{8}1 A"),
    ]

    /// Escapes PCRE2 refuses, refused here too.
    static let escapeErrors = ["\\c", "\\cé", "\\o{8}", "\\o{}", "\\o", "[\\N]", "\\N{U+}", "\\o{10000000}", "\\8", "\\1"]

    @Test(arguments: 0..<cases.count)
    func againstPCRE2(_ index: Int) throws {
        try Self.compare(Self.cases[index])
    }

    @Test("\\a \\e \\0 \\o \\cX \\N and \\Q…\\E read as PCRE2 reads them", arguments: 0..<escapeCases.count)
    func escapesAgainstPCRE2(_ index: Int) throws {
        try Self.compare(Self.escapeCases[index])
    }

    @Test("escapes PCRE2 refuses are refused", arguments: escapeErrors)
    func escapeErrorsAsPCRE2(_ pattern: String) throws {
        #expect(throws: (any Error).self, "PCRE2 accepts /\(pattern)/") {
            try PCRE2Regex(pattern: pattern, options: PCRE2Options(RegexSyntax.Options()))
        }
        #expect(throws: RegexSyntaxError.self, "we accept /\(pattern)/") { try RegexSyntax.parse(pattern) }
    }

    /// `\N{U+hh}` is PCRE2's in UTF mode only; in bytes mode both refuse it.
    @Test func namedCodePointNeedsUTF8() throws {
        let options = RegexSyntax.Options(mode: .bytes)
        #expect(throws: (any Error).self) { try PCRE2Regex(pattern: "\\N{U+41}", options: PCRE2Options(options)) }
        #expect(throws: RegexSyntaxError.self) { try RegexSyntax.parse("\\N{U+41}", options: options) }
    }

    /// Every engine's matches of `pattern` in `haystack` are PCRE2's.
    static func compare(_ c: (pattern: String, haystack: String)) throws {
        let (pattern, haystack) = c
        let options = RegexSyntax.Options()
        let engines = try RegexEngines(patterns: [pattern], options: options)
        let oracle = try PCRE2Regex(pattern: pattern, options: PCRE2Options(options))
        let expected = try oracle.matches(in: Array(haystack.utf8))
        for (name, got) in engines.allMatches(Array(haystack.utf8)) {
            #expect(got.map(\.range) == expected, "\(name): /\(pattern)/ on \(haystack.debugDescription)")
        }
    }
}
