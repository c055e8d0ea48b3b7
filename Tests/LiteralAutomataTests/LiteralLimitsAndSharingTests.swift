// The literal automata under stress: limits as typed errors, one automaton shared by
// many tasks, and hostile pattern lists (100,000 words with empty ones and duplicates).

import AutomatonCore
@testable import LiteralAutomata
import Testing
import TestSupport

@Suite("Literal automata: limits, hostile word lists, shared by tasks")
struct LiteralLimitsAndSharingTests {
    static let sanitized = ConcurrentChecks.sanitized

    @Test("AhoCorasick: over maxStates or maxTableBytes is a typed error naming the limit")
    func ahoCorasickLimits() throws {
        // "w1x" is no prefix of "w10x", so leftmost-first keeps every word in the trie.
        let words = (0..<1_000).map { "w\($0)x" }
        for representation in LiteralRepresentation.allCases {
            #expect(throws: AutomatonError(.tooManyStates(limit: 100))) {
                try AhoCorasick.Builder().representation(representation).limits(Limits(maxStates: 100)).build(words)
            }
        }
        #expect(throws: AutomatonError(.tableTooLarge(limit: 10_000))) {
            try AhoCorasick.Builder().representation(.dense).limits(Limits(maxTableBytes: 10_000)).build(words)
        }
        // Without a forced representation a small memory budget picks the compact NFA.
        let compact = try AhoCorasick.Builder().memoryBudget(10_000).build(words)
        #expect(compact.representation == .compact)
        #expect(compact.matches(in: "a w999x b").map(\.range) == [2..<7])
    }

    @Test("KMP: a pattern longer than maxStates allows is a typed error")
    func kmpLimits() throws {
        let pattern = [UInt8](repeating: 0x61, count: 5_000)
        #expect(throws: AutomatonError(.tooManyStates(limit: 1_000))) {
            try KMP(pattern, limits: Limits(maxStates: 1_000))
        }
        #expect(throws: AutomatonError.self) {
            try KMP(pattern, limits: Limits(maxTableBytes: 4_096))
        }
    }

    @Test("20,000 words with empty lines and duplicates build and search like the naive reference (100,000: HostileInputTests and Fuzz/hostile-cli.sh)")
    func hostileWordList() throws {
        var rng = SeededGenerator(defaultSeed: 0x100_000)
        let count = Self.sanitized ? 5_000 : 20_000
        var words: [[UInt8]] = []
        for i in 0..<count {
            switch i % 10 {
            case 0: words.append([])
            case 1, 2: words.append(words[Int.random(in: 0..<max(1, words.count), using: &rng)])
            default: words.append((0..<Int.random(in: 1...12, using: &rng)).map { _ in UInt8.random(in: 0x61...0x7A, using: &rng) })
            }
        }
        let haystack = (0..<400).map { _ in UInt8.random(in: 0x60...0x7A, using: &rng) }
        let ac = try AhoCorasick.Builder().build(words)
        #expect(ac.patternCount == count)
        #expect(ac.matches(in: haystack).count >= haystack.count + 1, "the empty word 0 matches at every position")
        for kind in [MatchKind.leftmostFirst, .leftmostLongest] {
            // Against the (quadratic) reference on a prefix of the list small enough for it.
            let naive = NaiveLiteralMatcher(patterns: Array(words.prefix(300)), kind: kind == .leftmostFirst ? .leftmostFirst : .leftmostLongest)
            let small = try AhoCorasick.Builder().matchKind(kind).build(Array(words.prefix(300)))
            #expect(small.matches(in: haystack) == naive.matches(in: haystack))
        }
    }

    @Test("8 tasks × 1,000 searches of one AhoCorasick give identical results, each representation and kind",
          arguments: LiteralRepresentation.allCases)
    func sharedAhoCorasick(representation: LiteralRepresentation) async throws {
        var rng = SeededGenerator(defaultSeed: 0xACAC)
        let words = (0..<200).map { _ in String((0..<Int.random(in: 1...6, using: &rng)).map { _ in "abcde".randomElement(using: &rng)! }) }
        let haystacks = (0..<16).map { _ in (0..<300).map { _ in Array("abcdef ".utf8).randomElement(using: &rng)! } }
        let rounds = Self.sanitized ? 100 : 1_000
        for kind in [MatchKind.leftmostFirst, .overlapping] {
            let ac = try AhoCorasick.Builder().matchKind(kind).representation(representation).build(words)
            let expected = haystacks.map { Array(ac.matches(in: $0)) }
            let mismatches = await ConcurrentChecks.failures(rounds: rounds) { task, i in
                let k = (i + task) % haystacks.count
                guard Array(ac.matches(in: haystacks[k])) == expected[k] else { return false }
                guard i % 10 == 0 else { return true }
                var stream = ac.streamSearcher()
                var got: [Match] = []
                for chunk in haystacks[k].chunked(by: 1 + task) { stream.feed(chunk) { got.append($0) } }
                stream.finish { got.append($0) }
                return got == expected[k]
            }
            #expect(mismatches == 0, "\(kind) \(representation)")
        }
    }
}

private extension Array {
    func chunked(by size: Int) -> [[Element]] {
        stride(from: 0, to: count, by: size).map { Array(self[$0..<Swift.min(count, $0 + size)]) }
    }
}
