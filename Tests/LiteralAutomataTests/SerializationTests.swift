import AutomatonCore
import LiteralAutomata
import TestSupport
import Testing

/// Save/load round trips for both representations, and corrupt files as typed errors.
@Suite struct SerializationTests {
    static let words = ["he", "she", "his", "hers", "", "the", "a"]
    /// Repeated words and empty words (saved with their duplicate links under overlapping).
    static let duplicateWords = ["he", "", "she", "HE", "", "he", "his", "she", ""]

    /// Duplicate links that break the table's rules are refused: a link backwards, past
    /// the pattern count, between patterns of different lengths, or two links to one id.
    @Test func corruptDuplicateLinksAreRefused() throws {
        let ac = try AhoCorasick.Builder().matchKind(.overlapping).build(["ab", "c", "ab", "ab", "cd"])
        let bytes = ac.serialized()
        // Payload: kind, flags, representation, shape, count, 5 lengths; then 5 links.
        let header = SavedContainer.headerSize
        #expect(bytes[header + 1] & 8 != 0, "the duplicate-links flag is set")
        let links = header + 4 + 4 + 5 * 4
        func withLink(_ index: Int, _ value: UInt32) -> [UInt8] {
            var b = bytes
            for k in 0..<4 { b[links + 4 * index + k] = UInt8(truncatingIfNeeded: value >> (8 * UInt32(k))) }
            return SavedContainer.resealed(b)
        }
        // ab ×3 ending at 2 and 5, c at 3: every id of a group at each end, by end then id.
        #expect(try AhoCorasick(deserializing: bytes).matches(in: "abcab").map(\.pattern) == [0, 2, 3, 1, 0, 2, 3])
        #expect(try AhoCorasick(deserializing: withLink(0, 2)).serialized() == bytes)
        for (index, value) in [(2, 0), (0, 9), (0, 1), (0, 3)] as [(Int, UInt32)] {
            #expect(throws: AutomatonError.self, "link \(index) → \(value)") { _ = try AhoCorasick(deserializing: withLink(index, value)) }
        }
    }

    @Test(arguments: LiteralRepresentation.allCases)
    func roundTripEveryKindAndOption(_ representation: LiteralRepresentation) throws {
        let haystack = Array("ushers said: the hers of his, A She-wolf".utf8)
        for kind in MatchKind.allCases {
            for (ci, ww) in [(false, false), (true, false), (false, true), (true, true)] {
                for words in [Self.words, Self.words.filter { !$0.isEmpty }, Self.duplicateWords] {
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
        #expect(throws: AutomatonError(.unsupportedVersion(found: 9, supported: 3))) { _ = try AhoCorasick(deserializing: wrongVersion) }
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
            if corrupt != bytes {
                #expect(throws: AutomatonError.self, "round \(round), seed \(seed)") { _ = try AhoCorasick(deserializing: corrupt) }
            }
            // Resealed (a hand-made file), the field checks must answer.
            if let loaded = try? AhoCorasick(deserializing: SavedContainer.resealed(corrupt)) {
                // Loaded despite the change: searching must still be safe.
                _ = loaded.matches(in: haystack)
                _ = loaded.masked(haystack)
                _ = loaded.matches(inChunks: [Array(haystack.prefix(7)), Array(haystack.dropFirst(7))])
            }
            _ = round
            _ = seed
        }
    }

    /// Every proper prefix and every single changed byte (each position, each of the
    /// 255 other values) of a small saved file is a typed error: Aho-Corasick in both
    /// representations, and KMP.
    @Test func everyTruncationAndEveryChangedByteIsRefused() throws {
        var files: [(String, [UInt8], ([UInt8]) throws -> Void)] = []
        for representation in LiteralRepresentation.allCases {
            let ac = try AhoCorasick.Builder().matchKind(.leftmostFirst).representation(representation).build(["ab", "b"])
            files.append(("\(representation)", ac.serialized(), { _ = try AhoCorasick(deserializing: $0) }))
        }
        files.append(("KMP", try KMP("ab").serialized(), { _ = try KMP(deserializing: $0) }))
        for (name, bytes, load) in files {
            try load(bytes)
            for n in 0..<bytes.count {
                #expect(throws: AutomatonError.self, "\(name): prefix of \(n) bytes") { try load(Array(bytes.prefix(n))) }
            }
            var copy = bytes, loaded = 0
            for i in bytes.indices {
                for delta in 1...255 {
                    copy[i] = bytes[i] &+ UInt8(delta)
                    do { try load(copy); loaded += 1 } catch is AutomatonError {} catch { Issue.record("\(name): \(error)") }
                }
                copy[i] = bytes[i]
            }
            #expect(loaded == 0, "\(name): \(loaded) changed files loaded")
        }
    }

    /// The compact loader rejects failure links that would loop.
    @Test func compactRejectsFailureCycle() throws {
        let ac = try AhoCorasick.Builder().matchKind(.overlapping).representation(.compact).build(["ab", "b"])
        var bytes = ac.serialized()
        let nfa = try #require(ac.compactNFA)
        // Locate the failure-link table: it follows the class map, the counts, the
        // root row, the edge starts, edge classes and edge targets.
        // (After the container, the flags, the pattern count and lengths, the depth
        // count and the payload length.)
        let headerSize = SavedContainer.headerSize + 4 + 4 + 4 * ac.patternCount + 4 + 4
        let classes = nfa.byteClasses.count, n = nfa.stateCount
        let edges = n - 2   // a trie: one edge into every state but the dead state and the root
        let failOffset = headerSize + 256 + 8 + 4 * classes + 4 * (n + 1) + edges + 4 * edges
        // Make state 2 fail to itself.
        #expect(bytes[failOffset + 8] != 2)
        bytes[failOffset + 8] = 2
        #expect {
            _ = try AhoCorasick(deserializing: SavedContainer.resealed(bytes))
        } throws: { error in
            String(describing: error).contains("failure link of state 2")
        }
    }
}
