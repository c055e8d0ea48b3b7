// Issue 53: the reverse-inner / reverse-suffix strategy (Strategy/ReverseInner.swift)
// is chosen only where one of its rules holds (the literal's first byte occurs nowhere
// else in a match, or the pattern's first byte nowhere after it), agrees with itself
// switched off, with PCRE2 and with a naive backtracker on random haystacks (fixed
// seed, printed), stays linear on haystacks built against its guard, and the
// determinization budget sends a pattern the full DFA cannot hold to the lazy DFA at
// once.

import AutomatonCore
import PCRE2Oracle
@testable import RegexAutomata
import Testing
import TestSupport

@Suite("Reverse inner and reverse suffix, and the determinization budget")
struct ReverseInnerTests {
    @Test("the literal is chosen by a rule, or none", arguments: [
        ("https?://[a-z0-9.-]+", "://", false, .uniqueLiteral),
        ("[a-q][^u-z]{13}x", "x", true, .uniqueLiteral),
        ("\\w+@[a-z]+\\.com", "@", false, .uniqueLiteral),
        // 'i' occurs in [a-z]+, but a capital starts every match and no capital follows.
        ("[A-Z][a-z]+ing", "ing", true, .uniqueStart),
        ("\\b[A-Z][a-z]+ing\\b", "ing", false, .uniqueStart),
        // ':' may recur after "://"; [a-z] both starts and follows; no literal after a prefix.
        ("https?://[a-z:]+", nil, false, .uniqueLiteral),
        ("[a-z]+ing", nil, false, .uniqueLiteral),
        ("[A-Z][A-Za-z]+ing", nil, false, .uniqueLiteral),
        ("foo[a-z]+", nil, false, .uniqueLiteral),
    ] as [(String, String?, Bool, ReverseInner.Exactness)])
    func chosen(pattern: String, literal: String?, isSuffix: Bool, exactness: ReverseInner.Exactness) throws {
        let regex = try RegexCompiler().compile(pattern)
        #expect(regex.reverseInner.map { String(decoding: $0.literal, as: UTF8.self) } == literal, "\(pattern)")
        if literal != nil {
            #expect(regex.reverseInner?.isSuffix == isSuffix, "\(pattern)")
            #expect(regex.reverseInner?.exactness == exactness, "\(pattern)")
        }
        #expect(try RegexCompiler().reverseInner(false).compile(pattern).reverseInner == nil)
    }

    @Test("on and off agree with PCRE2 (dense and lazy engines)", arguments: [
        ("https?://[a-z0-9.-]+", ["http", "https", "://", ":", "/", "ab", "x", ".", " ", "\n"]),
        ("[a-q][^u-z]{4}x", ["a", "b", "q", "r", "u", "x", "y", " ", "\n", "é"]),
        ("\\b[a-c]+:[0-9]*\\b", ["a", "b", "cc", ":", "1", "22", "_", " ", "é"]),
        ("(?:ab|b)*=[a-c]?b", ["a", "b", "ab", "=", "c", " "]),
        // The start rule: occurrences inside a prefix match ("singing"), starts whose
        // forward scan fails ("Kingdom" under \b), a literal that overlaps itself.
        ("[A-Z][a-z]+ing", ["S", "K", "ing", "in", "g", "s", "a", " ", "\n"]),
        ("\\b[A-Z][a-z]+ing\\b", ["S", "K", "ing", "in", "g", "s", "dom", " ", "\n"]),
        ("X[ab]*aba[ab]*!", ["X", "a", "b", "ab", "aba", "!", " "]),
    ] as [(String, [String])])
    func agreeWithPCRE2(pattern: String, alphabet: [String]) throws {
        let small = Limits(maxStates: 10_000, maxTableBytes: 1024, maxCacheBytes: 1 << 16)
        let builds = [RegexCompiler(), RegexCompiler().reverseInner(false), RegexCompiler().limits(small),
                      RegexCompiler().forceLazy(true)]
        let regexes = try builds.map { try $0.compile(pattern) }
        #expect(regexes[0].reverseInner != nil, "\(pattern): no reverse-inner strategy")
        #expect(regexes[1].reverseInner == nil)
        let oracle = try PCRE2Regex(pattern: Array(pattern.utf8), options: PCRE2Options())
        let hir = try RegexSyntax.parse(Array(pattern.utf8), options: RegexCompiler().syntax)
        var rng = SeededGenerator(defaultSeed: 20_261_201)
        for round in 0..<400 {
            let haystack = Array((0..<Int.random(in: 0...30, using: &rng))
                .map { _ in alphabet.randomElement(using: &rng)! }.joined().utf8)
            let expected = try oracle.matches(in: haystack)
            // The naive reference: a backtracker over the pattern's Hir.
            let naive = try HirBacktracker(haystack: haystack, utf8: true).allMatches(hir)
            #expect(naive == expected.map { [0, $0.lowerBound, $0.upperBound] },
                    "seed \(rng.seed) round \(round): backtracker and PCRE2 differ on \(pattern)")
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

    @Test("the start rule stays linear where its scans back would overlap (the min_start guard)", arguments: [
        // No capital: every scan back from an "ing" runs over the ones before it.
        ("[A-Z][a-z]+ing", "a", "ing", 2_000),
        // A start whose forward scan fails, then occurrences its scan crossed.
        ("\\b[A-Z][a-z]+ing\\b", "", "Kinging" + String(repeating: "ingx", count: 20) + " ", 100),
        ("X[ab]*aba[ab]*!", "X", "ab", 3_000),
    ])
    func startRuleLinear(pattern: String, head: String, piece: String, count: Int) throws {
        let regex = try RegexCompiler().compile(pattern)
        #expect(regex.reverseInner?.exactness == .uniqueStart)
        let bytes = Array((head + String(repeating: piece, count: count)).utf8)
        var stats = RegexAutomaton.SearchStats()
        let found = regex.matches(in: bytes, stats: &stats).map(\.range)
        let expected = try PCRE2Regex(pattern: Array(pattern.utf8), options: PCRE2Options()).matches(in: bytes)
        #expect(found == expected)
        #expect(stats.transitions <= 8 * bytes.count, "\(pattern): \(stats.transitions) transitions on \(bytes.count) bytes")
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
