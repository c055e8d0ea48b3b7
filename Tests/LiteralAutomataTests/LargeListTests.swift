import AutomatonCore
import LiteralAutomata
import TestSupport
import Testing

/// 100,000 words build and search; the representation follows the memory budget;
/// hard limits are typed errors.
@Suite struct LargeListTests {
    static func dictionaryWords(_ count: Int) -> [String]? {
        guard SharedCorpora.isAvailable, let words = SharedCorpora.lines("rebar/dictionary/english/sorted.txt") else { return nil }
        var rng = SeededGenerator(defaultSeed: 0x1A56_0001)
        return Array(words.shuffled(using: &rng).prefix(count))
    }

    @Test(.enabled(if: SharedCorpora.isAvailable, "needs ../shared/corpora (see its SOURCES.md)")) func hundredThousandWordsBuildAndSearch() throws {
        let words = try #require(Self.dictionaryWords(100_000))
        let text = try #require(SharedCorpora.bytes("rebar/sherlock.txt"))
        #expect(words.count == 100_000)
        let haystack = Array(text.prefix(40_000))
        let automatic = try AhoCorasick.Builder().matchKind(.leftmostFirst).build(words)
        let stats = automatic.statistics
        print("100,000 words, default budget: \(stats)")
        #expect(stats.patternCount == 100_000)
        #expect(stats.memoryBytes > 0 && stats.stateCount > 100_000)
        let compact = try AhoCorasick.Builder().matchKind(.leftmostFirst).representation(.compact).build(words)
        print("100,000 words, compact: \(compact.statistics)")
        #expect(compact.statistics.memoryBytes < stats.memoryBytes || stats.representation == .compact)
        let got: [Match] = automatic.matches(in: haystack)
        #expect(got == compact.matches(in: haystack))
        #expect(got.count > 1000)
        for m in got.prefix(500) {
            #expect(Array(haystack[m.range]) == Array(words[m.pattern].utf8))
        }
    }

    @Test func budgetChoosesTheRepresentation() throws {
        let words = (0..<2000).map { "word\($0)x" }
        let big = try AhoCorasick.Builder().build(words)
        #expect(big.representation == .dense)
        #expect(big.denseDFA != nil && big.compactNFA == nil)
        let small = try AhoCorasick.Builder().memoryBudget(big.statistics.memoryBytes - 1).build(words)
        #expect(small.representation == .compact)
        #expect(small.compactNFA != nil && small.denseDFA == nil)
        #expect(small.statistics.memoryBytes < big.statistics.memoryBytes)
        let h = Array("say word17x and word1999x, not word20".utf8)
        #expect(small.matches(in: h) == big.matches(in: h))
        #expect(small.matches(in: h).map(\.pattern) == [17, 1999])
    }

    @Test func hardLimitsAreTypedErrors() throws {
        let words = (0..<1000).map { "w\($0)x" }   // no word is a prefix of another
        #expect(throws: AutomatonError(.tooManyStates(limit: 100))) {
            _ = try AhoCorasick.Builder().limits(Limits(maxStates: 100)).build(words)
        }
        #expect(throws: AutomatonError(.tableTooLarge(limit: 1000))) {
            _ = try AhoCorasick.Builder().representation(.dense).limits(Limits(maxTableBytes: 1000)).build(words)
        }
        #expect(throws: AutomatonError(.tableTooLarge(limit: 1000))) {
            _ = try AhoCorasick.Builder().representation(.compact).limits(Limits(maxTableBytes: 1000)).build(words)
        }
        #expect(throws: AutomatonError.self) { _ = try KMP(String(repeating: "ab", count: 100), limits: Limits(maxStates: 50)) }
    }

    @Test func statisticsDescribeTheAutomaton() throws {
        let ac = try AhoCorasick.Builder().asciiCaseInsensitive(true).build(["the"])
        let s = ac.statistics
        #expect(s.representation == .dense && s.stateCount == 5 && s.byteClassCount == 4)   // t, h, e, other
        #expect(s.hasPrefilter)   // 't' and 'T'
        #expect(try AhoCorasick.Builder().build(["a", "b", "c", "d"]).statistics.hasPrefilter == false)
        #expect(try AhoCorasick.Builder().prefilter(false).build(["the"]).statistics.hasPrefilter == false)
        #expect(try KMP("needle").statistics.stateCount == 8)   // dead + 7
    }
}
