import AutomatonCore
import LiteralAutomata
import TestSupport
import Testing

/// The start-byte prefilter skips bytes that leave the automaton in its start state;
/// it must never change a result. Long haystacks where the start bytes are rare
/// exercise the word-at-a-time scan and its byte-wise tail.
@Suite struct PrefilterTests {
    @Test(arguments: [1, 2, 3])
    func prefilterNeverChangesAResult(_ startByteCount: Int) throws {
        var rng = SeededGenerator(defaultSeed: 0x9F17_0001 + UInt64(startByteCount))
        let seed = rng.seed
        let starts = Array("xyz".utf8.prefix(startByteCount))
        for round in 0..<80 {
            // Patterns begin with one of the start bytes; the haystack is mostly filler.
            let patterns = (0..<Int.random(in: 1...4, using: &rng)).map { _ in
                [starts.randomElement(using: &rng)!] + rng.bytes(from: Array("xab".utf8), maxLength: 3)
            }
            var haystack = rng.bytes(from: Array("abcdefgh ".utf8), maxLength: 300)
            for _ in 0..<Int.random(in: 0...6, using: &rng) where !haystack.isEmpty {
                let at = Int.random(in: 0..<haystack.count, using: &rng)
                let p = patterns.randomElement(using: &rng)!
                haystack.replaceSubrange(at..<min(at + p.count, haystack.count), with: p)
            }
            for kind in MatchKind.allCases {
                let expected = NaiveLiteralMatcher(patterns: patterns, kind: kind.naive).matches(in: haystack)
                for representation in LiteralRepresentation.allCases {
                    let with = try AhoCorasick.Builder().matchKind(kind).representation(representation).build(patterns)
                    let without = try AhoCorasick.Builder().matchKind(kind).representation(representation)
                        .prefilter(false).build(patterns)
                    #expect(with.statistics.hasPrefilter && !without.statistics.hasPrefilter)
                    let context = "seed \(seed) round \(round) \(kind) \(representation) patterns \(show(patterns)) haystack \(show(haystack))"
                    #expect(with.matches(in: haystack) == expected, "\(context)")
                    #expect(without.matches(in: haystack) == expected, "\(context)")
                    #expect(with.isMatch(in: haystack) == !expected.isEmpty, "\(context)")
                }
                if patterns.count == 1 {
                    let kmp = try KMP(patterns[0], matchKind: kind)
                    #expect(kmp.statistics.hasPrefilter)
                    #expect(kmp.matches(in: haystack) == expected, "seed \(seed) round \(round) KMP \(kind)")
                }
            }
        }
    }

    @Test func caseInsensitiveStartBytes() throws {
        let ac = try AhoCorasick.Builder().asciiCaseInsensitive(true).build(["Viagra"])
        #expect(ac.statistics.hasPrefilter)   // 'v' and 'V'
        let text = String(repeating: "buy cheap pills ", count: 20) + "VIAGRA now, viagra later"
        #expect(ac.matches(in: text).count == 2)
    }

    /// The Teddy prefilter (up to 64 patterns of 2+ bytes): every kind, case
    /// folding and whole words, with and without it, against the naive matcher —
    /// sparse haystacks (the scan) and dense ones (candidates everywhere).
    @Test(arguments: [2, 10, 64])
    func teddyNeverChangesAResult(_ maxPatterns: Int) throws {
        var rng = SeededGenerator(defaultSeed: 0xF1_9E12 + UInt64(maxPatterns))
        let seed = rng.seed
        for round in 0..<60 {
            let alphabet = Array((round % 2 == 0 ? "abcAB_ '" : "abcdefghijklmnop").utf8)
            let patterns = (0..<Int.random(in: 2...maxPatterns, using: &rng)).map { _ in
                (0..<Int.random(in: 2...5, using: &rng)).map { _ in alphabet.randomElement(using: &rng)! }
            }
            var haystack = rng.bytes(from: round % 3 == 0 ? alphabet : Array("xyz \n".utf8), maxLength: 400)
            for _ in 0..<Int.random(in: 0...8, using: &rng) where !haystack.isEmpty {
                let at = Int.random(in: 0..<haystack.count, using: &rng)
                let p = patterns.randomElement(using: &rng)!
                haystack.replaceSubrange(at..<min(at + p.count, haystack.count), with: p)
            }
            let ci = Bool.random(using: &rng), ww = Bool.random(using: &rng)
            for kind in MatchKind.allCases {
                var expected = NaiveLiteralMatcher(patterns: patterns, kind: kind.naive, caseInsensitive: ci, wholeWord: ww)
                    .matches(in: haystack)
                let order: (Match, Match) -> Bool = { ($0.end, $0.pattern) < ($1.end, $1.pattern) }
                if kind == .overlapping { expected.sort(by: order) }
                for prefilter in [true, false] {
                    let ac = try AhoCorasick.Builder().matchKind(kind).asciiCaseInsensitive(ci).wholeWord(ww)
                        .prefilter(prefilter).build(patterns)
                    var got: [Match] = ac.matches(in: haystack)
                    if kind == .overlapping { got.sort(by: order) }
                    #expect(got == expected,
                            "seed \(seed) round \(round) \(kind) ci \(ci) ww \(ww) prefilter \(prefilter) patterns \(show(patterns)) haystack \(show(haystack))")
                    #expect(ac.isMatch(in: haystack) == !expected.isEmpty)
                }
            }
        }
    }

    @Test func teddyIsChosenForSmallSets() throws {
        let words = ["winner", "prize", "cash", "urgent", "claim", "free", "txt", "offer", "bonus", "reward"]
        let ac = try AhoCorasick.Builder().asciiCaseInsensitive(true).build(words)
        #expect(ac.statistics.hasPrefilter)
        let text = String(repeating: "see you at lunch tomorrow, ok? ", count: 100) + "CLAIM your REWARD"
        #expect(ac.matches(in: text).map(\.pattern) == [4, 9])
    }
}
