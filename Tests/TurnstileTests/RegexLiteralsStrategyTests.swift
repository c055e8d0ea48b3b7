// The literal-alternation strategy (RegexAutomata/Strategy/RegexLiterals.swift) forced on and off:
// a regex that is an alternation of literals is searched by KMP / Aho-Corasick with
// exactly the regex DFA's matches (and PCRE2's), on random alternations × random
// haystacks (fixed seed, printed) and on corpus text.
import AutomatonCore
import PCRE2Oracle
import Testing
import TestSupport
@testable import Turnstile

private func matcher(_ patterns: [String], prefilter: Bool, caseInsensitive: Bool = false, bytes: Bool = false) throws -> Matcher {
    var options = Matcher.Options()
    options.prefilter = prefilter
    options.caseInsensitive = caseInsensitive
    options.bytesMode = bytes
    return try Matcher(patterns: patterns, options: options)
}

/// A literal engine searches: the literal alternation, or (for a plain word) the
/// literal strategies the chooser takes for plain words whatever the syntax.
private func isLiteralStrategy(_ m: Matcher) -> Bool {
    [.literalAlternation, .singleLiteral, .literalSet, .foldedLiteralSet].contains(m.strategy.engineName)
}

@Suite("Regex literal-alternation strategy")
struct RegexLiteralsStrategyTests {
    @Test func theIssuesPatternsUseTheLiteralEngine() throws {
        for p in ["free|win|winner|cash|prize", "(?i)congratulations", "winner", "(?:a|ab)(?:c|bcd)"] {
            #expect(isLiteralStrategy(try matcher([p], prefilter: true)), "/\(p)/")
            #expect(!isLiteralStrategy(try matcher([p], prefilter: false)), "/\(p)/ with the plain DFA forced")
        }
        for p in ["https?://[a-z]+", "a*", "\\bwin\\b", "^win", "win$"] {
            #expect(!isLiteralStrategy(try matcher([p], prefilter: true)), "/\(p)/")
        }
        var options = Matcher.Options()
        options.wholeWord = true
        #expect(!isLiteralStrategy(try Matcher(patterns: ["win|winner"], options: options)))
        #expect(try matcher(["free|win"], prefilter: true).representation == .regex)
    }

    @Test func leftmostFirstPriorityAsPCRE2() throws {
        let m = try matcher(["win|winner"], prefilter: true)
        #expect(m.matches(in: "winner").map(\.range) == [0..<3])
        let n = try matcher(["winner|win"], prefilter: true)
        #expect(n.matches(in: "winner wins").map(\.range) == [0..<6, 7..<10])
        let ci = try matcher(["(?i)congratulations"], prefilter: true)
        #expect(ci.matches(in: "CONGRATULATIONS, Congratulations").map(\.range) == [0..<15, 17..<32])
        // Several regexes: ids of the regexes, earlier regex first at one start.
        let multi = try matcher(["cash|prize", "pri|free"], prefilter: true)
        #expect(isLiteralStrategy(multi))
        #expect(multi.matches(in: "free prize").map { [$0.pattern, $0.start, $0.end] } == [[1, 0, 4], [0, 5, 10]])
    }

    /// Random alternations of short words over a small alphabet × random haystacks:
    /// the literal engine, the plain regex DFA and PCRE2 agree.
    @Test func randomAlternationsAgreeWithTheDFAAndPCRE2() throws {
        var rng = SeededGenerator(defaultSeed: 20_261_127)
        var compared = 0
        for _ in 0..<300 {
            let words = (0..<Int.random(in: 1...6, using: &rng)).map { _ in
                String((0..<Int.random(in: 1...4, using: &rng)).map { _ in "abcAB-".randomElement(using: &rng)! })
            }
            let ci = Bool.random(using: &rng)
            let bytes = Bool.random(using: &rng)
            let pattern = words.joined(separator: "|")
            let on = try matcher([pattern], prefilter: true, caseInsensitive: ci, bytes: bytes)
            let off = try matcher([pattern], prefilter: false, caseInsensitive: ci, bytes: bytes)
            let oracle = try PCRE2Regex(pattern: pattern, options: PCRE2Options(encoding: bytes ? .bytes : .utf, caseless: ci))
            for _ in 0..<10 {
                let haystack = (0..<Int.random(in: 0...40, using: &rng)).map { _ in Array("abcAB- \n".utf8).randomElement(using: &rng)! }
                let got = on.matches(in: haystack).map(\.range)
                compared += 1
                #expect(got == off.matches(in: haystack).map(\.range), "seed \(rng.seed): /\(pattern)/ ci \(ci) on \(haystack)")
                #expect(got == (try oracle.matches(in: haystack)), "seed \(rng.seed): /\(pattern)/ ci \(ci) vs PCRE2 on \(haystack)")
                #expect(on.isMatch(in: haystack) == !got.isEmpty)
                if got != off.matches(in: haystack).map(\.range) { return }
            }
        }
        print("literal-alternation strategy random: \(compared) pairs, seed \(rng.seed)")
    }

    /// Corpus text: the issue's patterns on the rebar subtitles sample, searched whole.
    @Test(.enabled(if: SharedCorpora.isAvailable, "needs ../shared/corpora (see its SOURCES.md)")) func corpusTextAgreesWithTheDFAAndPCRE2() throws {
        let text = try #require(SharedCorpora.bytes("rebar/opensubtitles/en-sampled.txt"))
        let sample = Array(text.prefix(1 << 20))
        for pattern in ["free|win|winner|cash|prize", "(?i)congratulations", "(?i)you|the"] {
            let on = try matcher([pattern], prefilter: true)
            #expect(isLiteralStrategy(on))
            let got = on.matches(in: sample).map(\.range)
            #expect(got == (try matcher([pattern], prefilter: false)).matches(in: sample).map(\.range), "/\(pattern)/")
            let oracle = try PCRE2Regex(pattern: pattern, options: PCRE2Options(encoding: .utf))
            #expect(got == (try oracle.matches(in: sample)), "/\(pattern)/ vs PCRE2")
        }
    }
}
