// Regressions found while hardening the regex compiler (Fuzz/Sources/FuzzRegexCompile,
// FuzzRegexDiff and the hardening tests).

import AutomatonCore
import PCRE2Oracle
@testable import RegexAutomata
import Testing
import TestSupport

@Suite("Regression: regex compiler")
struct RegressionRegexTests {
    /// A 9,000-byte periodic literal has 9,000 DFA states (within the default 10,000),
    /// but after k repetitions every earlier repetition boundary is still a live NFA
    /// state, so the state keys held ~13 million NFA ids: minutes of subset
    /// construction and hundreds of MB (the hardening test with `abc` × 20,000 and
    /// raised limits never finished). The keys now count against maxTableBytes, so the
    /// construction stops with a typed error and the compiler uses the lazy DFA.
    @Test("a long periodic literal stops the full DFA at maxTableBytes instead of running for minutes")
    func periodicLiteral() throws {
        let pattern = String(repeating: "abc", count: 3_000)
        let nfa = try ThompsonNFA([try RegexSyntax.parse(pattern)], limits: RegexCompiler.defaultLimits)
        #expect(throws: AutomatonError(.tableTooLarge(limit: RegexCompiler.defaultLimits.maxTableBytes))) {
            try nfa.determinized(limits: RegexCompiler.defaultLimits)
        }
        let regex = try RegexCompiler().compile(pattern)
        #expect(regex.engineKind == .lazy)
        #expect(!regex.isMatch(in: "abcabcabd"))
        #expect(regex.matches(in: "x" + String(repeating: "abc", count: 10)).isEmpty)
    }

    /// The fuzzer's finding of 2026-12-03: a group repeated `{0}` times that holds `\A`.
    /// PCRE2 10.42 anchors the whole pattern on it (one match, at 0), so the check skips
    /// such patterns (`PCRE2KnownDifferences`); the group matches only the empty string,
    /// so every engine must agree with PCRE2 on the pattern without it.
    @Test func zeroRepeatedGroupWithStartAnchor() throws {
        let pattern = "(?ims:(?s-m)|\\A|\\zaa+){0}?[_\\n[:upper:]]"
        #expect(PCRE2KnownDifferences.reason(pattern) != nil)
        var options = RegexSyntax.Options()
        options.mode = .bytes
        let haystack: [UInt8] = Array("B-b\nbb\na\nbaa".utf8) + [0xA9, UInt8(ascii: "b")]
        let oracle = try PCRE2Regex(pattern: "[_\\n[:upper:]]", options: PCRE2Options(options))
        let expected = try oracle.matches(in: haystack)
        #expect(expected == [0..<1, 3..<4, 6..<7, 8..<9])
        let engines = try RegexEngines(patterns: [pattern], options: options)
        for (name, got) in engines.allMatches(haystack) {
            #expect(got.map(\.range) == expected, "\(name)")
        }
    }
}
