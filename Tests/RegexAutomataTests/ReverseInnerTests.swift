// Issue 53: the reverse-inner / reverse-suffix strategy (Strategy/ReverseInner.swift)
// is chosen only where its rule holds (the literal's first byte occurs nowhere else in
// a match), agrees with itself switched off and with PCRE2 on random haystacks (fixed
// seed, printed), and the determinization budget sends a pattern the full DFA cannot
// hold to the lazy DFA at once.

import AutomatonCore
import PCRE2Oracle
@testable import RegexAutomata
import Testing
import TestSupport

@Suite("Reverse inner and reverse suffix, and the determinization budget")
struct ReverseInnerTests {
    @Test("the literal is chosen by the rule, or none", arguments: [
        ("https?://[a-z0-9.-]+", "://", false),
        ("[a-q][^u-z]{13}x", "x", true),
        ("\\w+@[a-z]+\\.com", "@", false),
        // ':' may recur after "://"; 'i' of "ing" occurs in [a-z]+; no literal after a prefix.
        ("https?://[a-z:]+", nil, false),
        ("[a-z]+ing", nil, false),
        ("foo[a-z]+", nil, false),
    ] as [(String, String?, Bool)])
    func chosen(pattern: String, literal: String?, isSuffix: Bool) throws {
        let regex = try RegexCompiler().compile(pattern)
        #expect(regex.reverseInner.map { String(decoding: $0.literal, as: UTF8.self) } == literal, "\(pattern)")
        if literal != nil { #expect(regex.reverseInner?.isSuffix == isSuffix, "\(pattern)") }
        #expect(try RegexCompiler().reverseInner(false).compile(pattern).reverseInner == nil)
    }

    @Test("on and off agree with PCRE2 (dense and lazy engines)", arguments: [
        ("https?://[a-z0-9.-]+", ["http", "https", "://", ":", "/", "ab", "x", ".", " ", "\n"]),
        ("[a-q][^u-z]{4}x", ["a", "b", "q", "r", "u", "x", "y", " ", "\n", "é"]),
        ("\\b[a-c]+:[0-9]*\\b", ["a", "b", "cc", ":", "1", "22", "_", " ", "é"]),
        ("(?:ab|b)*=[a-c]?b", ["a", "b", "ab", "=", "c", " "]),
    ] as [(String, [String])])
    func agreeWithPCRE2(pattern: String, alphabet: [String]) throws {
        let small = Limits(maxStates: 10_000, maxTableBytes: 1024, maxCacheBytes: 1 << 16)
        let builds = [RegexCompiler(), RegexCompiler().reverseInner(false), RegexCompiler().limits(small),
                      RegexCompiler().forceLazy(true)]
        let regexes = try builds.map { try $0.compile(pattern) }
        #expect(regexes[0].reverseInner != nil, "\(pattern): no reverse-inner strategy")
        #expect(regexes[1].reverseInner == nil)
        let oracle = try PCRE2Regex(pattern: Array(pattern.utf8), options: PCRE2Options())
        var rng = SeededGenerator(defaultSeed: 20_261_201)
        for round in 0..<400 {
            let haystack = Array((0..<Int.random(in: 0...30, using: &rng))
                .map { _ in alphabet.randomElement(using: &rng)! }.joined().utf8)
            let expected = try oracle.matches(in: haystack)
            for (k, regex) in regexes.enumerated() {
                #expect(regex.matches(in: haystack).map(\.range) == expected,
                        "seed \(rng.seed) round \(round) build \(k): \(pattern) on \(String(decoding: haystack, as: UTF8.self).debugDescription)")
            }
        }
    }

    @Test("a haystack of literals without a match costs linear work (the guard)")
    func linear() throws {
        let regex = try RegexCompiler().compile("[a-c]*:[0-9]+")
        #expect(regex.reverseInner != nil)
        for n in [1_000, 4_000] {
            let haystack = Array(String(repeating: "abc:", count: n).utf8)
            var stats = RegexAutomaton.SearchStats()
            #expect(regex.matches(in: haystack, stats: &stats).isEmpty)
            #expect(stats.transitions <= 8 * haystack.count, "n \(n): \(stats.transitions) transitions")
        }
    }

    @Test("a pattern the full DFA cannot hold, or a large Unicode class, starts lazy; small ones stay dense")
    func determinizationBudget() throws {
        #expect(try RegexCompiler().compile("[a-q][^u-z]{13}x").engineKind == .lazy)
        #expect(try RegexCompiler().compile("\\p{L}{5}").engineKind == .lazy)
        for pattern in ["[A-Z][a-z]+ing", "[A-Za-z]{12,}", "(?i)sherlock holmes", "[0-9]{3}[- ][0-9]{3}[- ][0-9]{4}"] {
            #expect(try RegexCompiler().compile(pattern).engineKind == .dense, "\(pattern)")
        }
        // The budget scales with the state limit, and unlimited stays unlimited.
        #expect(RegexCompiler.determinizationBudget(.unlimited) == .max)
        #expect(try RegexCompiler().limits(.unlimited).compile("[a-q][^u-z]{8}x").engineKind == .dense)
    }
}
