import AutomatonCore
import LiteralAutomata
import TestSupport
import Testing

/// Every chunking of a text gives the same matches, with the same absolute offsets,
/// as one whole-buffer search.
@Suite struct StreamTests {
    static let chunkSizes = [1, 2, 3, 7, 64, 4096]

    static func chunks(_ h: [UInt8], size: Int) -> [[UInt8]] {
        stride(from: 0, to: h.count, by: size).map { Array(h[$0..<min($0 + size, h.count)]) }
    }

    @Test(arguments: chunkSizes)
    func randomPatternSetsEveryKind(_ size: Int) throws {
        var rng = SeededGenerator(defaultSeed: 0x57EA_0001)
        let seed = rng.seed
        for round in 0..<60 {
            let alphabet = Array("abA -".utf8)
            let patterns = (0..<Int.random(in: 1...4, using: &rng)).map { _ in rng.bytes(from: alphabet, maxLength: 5) }
            let haystack = rng.bytes(from: alphabet, maxLength: 40)
            for kind in MatchKind.allCases {
                for (ci, ww) in [(false, false), (true, false), (false, true), (true, true)] {
                    for config in [LiteralConfiguration.ahoCorasick[0], LiteralConfiguration.ahoCorasick[3]] {
                        let ac = try config.build(patterns, kind: kind, caseInsensitive: ci, wholeWord: ww)
                        let whole: [Match] = ac.matches(in: haystack)
                        let streamed = ac.matches(inChunks: Self.chunks(haystack, size: size))
                        #expect(streamed == whole, """
                            seed \(seed) round \(round) chunk \(size) \(config) \(kind) ci=\(ci) ww=\(ww) \
                            patterns \(show(patterns)) haystack \(show(haystack))
                            """)
                        if streamed != whole { return }
                    }
                }
            }
        }
    }

    @Test(.enabled(if: SharedCorpora.isAvailable, "needs ../shared/corpora (see its SOURCES.md)"), arguments: chunkSizes)
    func stopWordsOverCorpusText(_ size: Int) throws {
        let stopWords = try #require(SharedCorpora.lines("stopwords/stopwords-en.txt"))
        let sherlock = try #require(SharedCorpora.bytes("rebar/sherlock.txt"))
        let haystack = Array(sherlock[100_000..<(size <= 3 ? 106_000 : 130_000)])
        for kind in MatchKind.allCases {
            for representation in LiteralRepresentation.allCases {
                let ac = try AhoCorasick.Builder().matchKind(kind).asciiCaseInsensitive(true).wholeWord(kind != .overlapping)
                    .representation(representation).build(stopWords)
                let whole: [Match] = ac.matches(in: haystack)
                let streamed = ac.matches(inChunks: Self.chunks(haystack, size: size))
                #expect(streamed == whole, "chunk \(size) \(kind) \(representation): \(streamed.count) vs \(whole.count) matches")
                #expect(!whole.isEmpty)
            }
        }
    }

    /// A match that straddles a boundary is reported once; memory stays bounded.
    @Test func straddlingMatchReportedOnce() throws {
        let ac = try AhoCorasick.Builder().build(["needle"])
        var stream = ac.streamSearcher()
        var found: [Match] = []
        for chunk in ["hay nee", "dle hay", " need", "le"] { stream.feed(Array(chunk.utf8)) { found.append($0) } }
        stream.finish { found.append($0) }
        #expect(found == [Match(pattern: 0, start: 4, end: 10), Match(pattern: 0, start: 15, end: 21)])
    }

    @Test func kmpStream() throws {
        let kmp = try KMP("aba", matchKind: .overlapping)
        var stream = kmp.streamSearcher()
        var found: [Match] = []
        for chunk in ["ab", "a", "ba", "b"] { stream.feed(Array(chunk.utf8)) { found.append($0) } }
        stream.finish { found.append($0) }
        #expect(found == kmp.matches(in: "ababab"))   // the chunks spell "ababab"
        #expect(found.map(\.start) == [0, 2])
    }
}
