// The prefix-prefilter strategy (Strategy/RegexPrefilter.swift) forced on and off:
// each kernel (memmem, memchr, Teddy) chosen by a pattern built for it, compared with
// the plain DFA scan and with PCRE2 on random literal-rich haystacks (fixed seed,
// printed) and on corpus text; and the scan stays linear when candidates are dense.
import AutomatonCore
import Foundation
import PCRE2Oracle
@testable import RegexAutomata
import Testing
import TestSupport

/// A pattern and the kernel its prefix set must choose.
private let forcedKernels: [(pattern: String, kernel: String)] = [
    ("https?://[a-z0-9.-]+", "teddy"),
    ("zebra[0-9]*", "memmem"),
    ("(?i)zebra[0-9]*", "memmem"),
    ("[xq][a-z]+", "memchr"),
    ("(?:qa|zc)[0-9]+", "memchr"),
    ("(?:ab|cd)[0-9]+", "teddy"),
    ("(?i)(?:ab|cd|ef)x*", "teddy"),
    ("(?:foo|bar|baz|qux|zap)\\d+", "teddy"),
    ("(?:free|win|cash|prize)[a-z]*", "teddy"),
]

private func oracleMatches(_ pattern: String, _ options: RegexSyntax.Options, _ haystack: [UInt8]) -> [Range<Int>]? {
    guard let oracle = try? PCRE2Regex(pattern: pattern, options: PCRE2Options(options)) else { return nil }
    return try? oracle.matches(in: haystack)
}

@Suite("Regex prefix prefilter")
struct RegexPrefilterTests {
    @Test(arguments: forcedKernels.map(\.pattern))
    func eachKernelAgreesWithThePlainDFAAndPCRE2(pattern: String) throws {
        let kernel = forcedKernels.first { $0.pattern == pattern }!.kernel
        var options = RegexSyntax.Options()
        options.mode = .bytes
        let on = try RegexCompiler().syntax(options).compile(pattern)
        let off = try RegexCompiler().syntax(options).prefilter(false).compile(pattern)
        #expect(on.prefilterKernel == kernel, "/\(pattern)/ chose \(on.prefilterKernel ?? "none")")
        #expect(off.prefilterKernel == nil)
        var rng = SeededGenerator(defaultSeed: 20_261_125)
        // Pieces of the patterns' literals, separators and noise, so candidates that
        // fail, matches that overlap candidates, and matches at the edges all occur.
        let pieces = ["http", "https://", "://", "a.b", "-", "HeLLo", "hello", "12", "x", "q", "ab", "cd",
                      "EF", "ef", "zebra", "ZeBRa9", "zeb", "qa", "zc1", "foo", "bar", "baz1", "qux", "free", "win", "cash", "prize", "cat", "dogs",
                      " ", "\n", "z", "Q9", "é"].map { Array($0.utf8) }
        for round in 0..<300 {
            var haystack: [UInt8] = []
            for _ in 0..<Int.random(in: 0...30, using: &rng) { haystack += pieces.randomElement(using: &rng)! }
            let expected = on.matches(in: haystack).map(\.range)
            let plain = off.matches(in: haystack).map(\.range)
            #expect(expected == plain, "seed \(rng.seed) round \(round): /\(pattern)/ on \(describe(haystack))")
            if let pcre = oracleMatches(pattern, options, haystack) {
                #expect(expected == pcre, "seed \(rng.seed) round \(round): /\(pattern)/ vs PCRE2 on \(describe(haystack))")
            }
            #expect(on.isMatch(in: haystack) == !plain.isEmpty)
            if expected != plain { return }
        }
    }

    @Test func patternsWithoutAUsablePrefixSetScanEveryByte() throws {
        #expect(try RegexCompiler().compile("[A-Z][a-z]+ing").prefilterKernel == nil)
        #expect(try RegexCompiler().compile("a*").prefilterKernel == nil)
        // Anchored at the text start: start states differ by context, so no jumping.
        #expect(try RegexCompiler().compile("^http").prefilterKernel == nil)
        #expect(try RegexCompiler().compile("(?m)^http").prefilterKernel == nil)
        // A word boundary first: one start state per look-behind context (not yet).
        #expect(try RegexCompiler().compile("\\b(?:cat|dog)s?\\b").prefilterKernel == nil)
    }

    /// Random literal-prefixed patterns (a literal alternation, then a random tail) ×
    /// random haystacks: on, off and PCRE2 agree.
    @Test func randomPrefixedPatterns() {
        var rng = SeededGenerator(defaultSeed: 20_261_126)
        let words = ["a", "ab", "abc", "b", "ba", "bab", "c", "ca", "A", "aB"]
        let tails = ["", "a*", "b+", "[ab]c?", "(?:a|bc)*", "c{1,3}", "\\b", "[^a]", ".", "(?:ab)??", "$"]
        var compared = 0
        for _ in 0..<200 {
            let n = Int.random(in: 1...4, using: &rng)
            let alternation = (0..<n).map { _ in words.randomElement(using: &rng)! }.joined(separator: "|")
            let ci = Bool.random(using: &rng)
            let pattern = (ci ? "(?i)" : "") + "(?:\(alternation))" + tails.randomElement(using: &rng)!
            var options = RegexSyntax.Options()
            options.mode = Bool.random(using: &rng) ? .bytes : .utf8
            guard let on = try? RegexCompiler().syntax(options).compile(pattern),
                  let off = try? RegexCompiler().syntax(options).prefilter(false).compile(pattern) else { continue }
            for _ in 0..<10 {
                let haystack = (0..<Int.random(in: 0...40, using: &rng)).map { _ in Array("abcAB \n".utf8).randomElement(using: &rng)! }
                let got = on.matches(in: haystack).map(\.range)
                compared += 1
                #expect(got == off.matches(in: haystack).map(\.range), "seed \(rng.seed): /\(pattern)/ on \(describe(haystack))")
                if let pcre = oracleMatches(pattern, options, haystack) {
                    #expect(got == pcre, "seed \(rng.seed): /\(pattern)/ vs PCRE2 on \(describe(haystack))")
                    if got != pcre { return }
                }
            }
        }
        print("prefix prefilter random: \(compared) pairs, seed \(rng.seed)")
    }

    /// Corpus text: the issue's literal-bearing regexes on the rebar subtitles sample.
    @Test(.enabled(if: SharedCorpora.isAvailable, "needs ../shared/corpora (see its SOURCES.md)")) func corpusTextAgreesWithThePlainScanAndPCRE2() throws {
        let text = try #require(SharedCorpora.bytes("rebar/opensubtitles/en-sampled.txt"))
        let sample = Array(text.prefix(1 << 20))
        for pattern in ["https?://[a-z0-9.-]+", "(?i)you[a-z]*", "(?:free|win|cash|prize)[a-z]*", "(?:The|They) [a-z]+"] {
            let on = try RegexCompiler().compile(pattern)
            let off = try RegexCompiler().prefilter(false).compile(pattern)
            #expect(on.prefilterKernel != nil, "/\(pattern)/")
            let got = on.matches(in: sample).map(\.range)
            #expect(got == off.matches(in: sample).map(\.range), "/\(pattern)/")
            if let pcre = oracleMatches(pattern, RegexSyntax.Options(), sample) {
                #expect(got == pcre, "/\(pattern)/ vs PCRE2")
            }
        }
    }

    /// Dense candidates never make the scan quadratic: every byte is stepped at most
    /// once per forward scan, and the prefilter switches itself off.
    @Test func denseCandidatesStayLinear() throws {
        let regex = try RegexCompiler().compile("ab[^x]*x")
        #expect(regex.prefilterKernel == "teddy")
        let haystack = [UInt8](repeating: UInt8(ascii: "a"), count: 20_000) + Array("ab".utf8)
        var stats = RegexAutomaton.SearchStats()
        #expect(regex.matches(in: haystack, stats: &stats).isEmpty)
        #expect(stats.transitions <= 2 * haystack.count + 10, "\(stats.transitions) transitions")
        // memmem verifies each candidate: a run of its rare byte must not make it O(n·m).
        let rare = try RegexCompiler().compile("zzq[^x]*x")
        #expect(rare.prefilterKernel == "memmem")
        let zs = [UInt8](repeating: UInt8(ascii: "z"), count: 20_000)
        var stats3 = RegexAutomaton.SearchStats()
        #expect(rare.matches(in: zs, stats: &stats3).isEmpty)
        #expect(stats3.transitions <= 2 * zs.count + 10, "\(stats3.transitions) transitions")
        let words = [UInt8](String(repeating: "abab ", count: 4_000).utf8)
        var stats2 = RegexAutomaton.SearchStats()
        #expect(regex.matches(in: words, stats: &stats2).isEmpty)
        #expect(stats2.transitions <= 2 * words.count + 10, "\(stats2.transitions) transitions")
    }
}
