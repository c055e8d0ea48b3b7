import AutomatonCore
import LiteralAutomata
import TestSupport
import Testing

/// Save/load round trips for both representations, and corrupt files as typed errors.
@Suite struct SerializationTests {
    static let words = ["he", "she", "his", "hers", "", "the", "a"]

    @Test(arguments: LiteralRepresentation.allCases)
    func roundTripEveryKindAndOption(_ representation: LiteralRepresentation) throws {
        let haystack = Array("ushers said: the hers of his, A She-wolf".utf8)
        for kind in MatchKind.allCases {
            for (ci, ww) in [(false, false), (true, false), (false, true), (true, true)] {
                for words in [Self.words, Self.words.filter { !$0.isEmpty }] {
                    let ac = try AhoCorasick.Builder().matchKind(kind).asciiCaseInsensitive(ci).wholeWord(ww)
                        .representation(representation).build(words)
                    let loaded = try AhoCorasick(deserializing: ac.serialized())
                    #expect(loaded.representation == representation)
                    #expect(loaded.statistics == ac.statistics)
                    #expect(loaded.matchKind == kind && loaded.isASCIICaseInsensitive == ci && loaded.isWholeWord == ww)
                    #expect(loaded.matches(in: haystack) == ac.matches(in: haystack), "\(kind) ci=\(ci) ww=\(ww) \(words)")
                    #expect(loaded.serialized() == ac.serialized())
                }
            }
        }
    }

    @Test func kmpRoundTrip() throws {
        let kmp = try KMP("abab", matchKind: .overlapping, asciiCaseInsensitive: true)
        let loaded = try KMP(deserializing: kmp.serialized())
        #expect(loaded.pattern == kmp.pattern)
        #expect(loaded.matches(in: "xABABab") == kmp.matches(in: "xABABab"))
        #expect(loaded.matches(in: "xABABab").count == 2)
    }

    /// Every truncation is a typed error; random corruption never crashes (it is an
    /// error, or an automaton that still searches safely).
    @Test(arguments: LiteralRepresentation.allCases)
    func corruptFilesAreTypedErrors(_ representation: LiteralRepresentation) throws {
        let ac = try AhoCorasick.Builder().matchKind(.leftmostFirst).wholeWord(true)
            .representation(representation).build(["stop", "word", "stopword", "or"])
        let bytes = ac.serialized()
        for n in 0..<bytes.count {
            #expect(throws: AutomatonError.self, "prefix of \(n) bytes") { _ = try AhoCorasick(deserializing: Array(bytes.prefix(n))) }
        }
        #expect(throws: AutomatonError(.notAnAutomaton)) { _ = try AhoCorasick(deserializing: Array("not an automaton".utf8)) }
        var wrongVersion = bytes
        wrongVersion[8] = 9
        #expect(throws: AutomatonError(.unsupportedVersion(found: 9, supported: 2))) { _ = try AhoCorasick(deserializing: wrongVersion) }
        #expect(throws: AutomatonError.self) { _ = try AhoCorasick(deserializing: bytes + [0]) }

        var rng = SeededGenerator(defaultSeed: 0xC0DE_0001)
        let seed = rng.seed
        let haystack = Array("a stopword or two, words and stops".utf8)
        for round in 0..<400 {
            var corrupt = bytes
            for _ in 0..<Int.random(in: 1...3, using: &rng) {
                let i = Int.random(in: 8..<corrupt.count, using: &rng)
                corrupt[i] = UInt8.random(in: 0...255, using: &rng)
            }
            if let loaded = try? AhoCorasick(deserializing: corrupt) {
                // Loaded despite the change: searching must still be safe.
                _ = loaded.matches(in: haystack)
                _ = loaded.masked(haystack)
                _ = loaded.matches(inChunks: [Array(haystack.prefix(7)), Array(haystack.dropFirst(7))])
            }
            _ = round
            _ = seed
        }
    }

    /// The compact loader rejects failure links that would loop.
    @Test func compactRejectsFailureCycle() throws {
        let ac = try AhoCorasick.Builder().matchKind(.overlapping).representation(.compact).build(["ab", "b"])
        var bytes = ac.serialized()
        let nfa = try #require(ac.compactNFA)
        // Locate the failure-link table: it follows the class map, the counts, the
        // root row, the edge starts, edge classes and edge targets.
        let headerSize = 8 + 4 + 4 + 4 + 4 * ac.patternCount + 4
        let classes = nfa.byteClasses.count, n = nfa.stateCount
        let edges = n - 2   // a trie: one edge into every state but the dead state and the root
        let failOffset = headerSize + 256 + 8 + 4 * classes + 4 * (n + 1) + edges + 4 * edges
        // Make state 2 fail to itself.
        bytes[failOffset + 8] = 2
        #expect(throws: AutomatonError.self) { _ = try AhoCorasick(deserializing: bytes) }
    }
}
