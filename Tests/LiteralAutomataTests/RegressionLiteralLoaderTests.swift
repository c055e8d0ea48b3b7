// Regressions found by the loader fuzz target (Fuzz/Sources/FuzzLoader).

import AutomatonCore
@testable import LiteralAutomata
import Testing
import TestSupport

@Suite("Regression: literal loader")
struct RegressionLiteralLoaderTests {
    /// Offset of the first pattern length in the envelope: the container's header 24,
    /// kind, flags, representation, shape 1 each, pattern count 4.
    static let firstLength = SavedContainer.headerSize + 8

    /// `bytes` with pattern `pattern`'s declared length changed and the checksum
    /// recomputed, so the loader's content checks (not the checksum) must refuse it.
    static func patched(_ bytes: [UInt8], pattern: Int, length: UInt32) -> [UInt8] {
        var copy = bytes
        for k in 0..<4 { copy[firstLength + 4 * pattern + k] = UInt8(truncatingIfNeeded: length >> (8 * UInt32(k))) }
        return SavedContainer.resealed(copy)
    }

    /// fuzz-loader, timeout-808c2e6e: a compact leftmost-first automaton whose header
    /// declared pattern 1 ("she", 3 bytes) as 33,554,435 bytes long. It loaded, and
    /// every search allocated a 32-million-slot leftmost selector ring (1.6 GB), so
    /// each search took seconds; a length near Int32.max would have been an
    /// out-of-memory kill, and a wrong length put match starts before the haystack.
    @Test("a declared pattern length longer than the automaton's path to it is corrupt",
          arguments: LiteralRepresentation.allCases)
    func patternLengthLongerThanTheTrie(representation: LiteralRepresentation) throws {
        for kind in MatchKind.allCases {
            let ac = try AhoCorasick.Builder().matchKind(kind).representation(representation)
                .build(["he", "she", "his", "hers", ""])
            let bytes = ac.serialized()
            #expect((try? AhoCorasick(deserializing: bytes)) != nil)
            for length: UInt32 in [4, 33_554_435, UInt32(Int32.max)] {
                do {
                    _ = try AhoCorasick(deserializing: Self.patched(bytes, pattern: 1, length: length))
                    Issue.record("\(kind) \(representation): length \(length) loaded")
                } catch {
                    guard case .corrupt(let why) = error.kind else { Issue.record("\(error)"); continue }
                    #expect(why.contains("pattern 1"), "\(why)")
                }
            }
            // A shorter declared length stays inside the haystack, so it is accepted
            // (the file is self-consistent enough to search safely).
            let shorter = try AhoCorasick(deserializing: Self.patched(bytes, pattern: 1, length: 2))
            for m in shorter.matches(in: "ushers she") { #expect(m.start >= 0 && m.end <= 10) }
        }
    }

    /// fuzz-loader (second run after the fix above): a compact automaton whose root
    /// row sent a byte with no root edge straight to a depth-3 state; the first byte
    /// then reported "his" as 2:[-2,1). The root row must now be exactly the root's
    /// edges and the root elsewhere.
    @Test("a root row entry that jumps past the root's edges is corrupt")
    func rootRowJump() throws {
        let ac = try AhoCorasick.Builder().matchKind(.overlapping).representation(.compact)
            .build(["he", "she", "his", "hers", ""])
        var bytes = ac.serialized()
        // Past 5 lengths, the depth count (0: compact), the payload length, the class
        // map, the class and state counts.
        let rootRow = Self.firstLength + 4 * 5 + 4 + 4 + 256 + 8
        #expect(bytes[rootRow] == 1, "class 0 (bytes in no pattern) starts at the root")
        bytes[rootRow] = 3
        #expect(throws: AutomatonError.self) { try AhoCorasick(deserializing: SavedContainer.resealed(bytes)) }
    }

    @Test("the fuzz input itself is rejected")
    func fuzzInput() {
        // The envelope of the artifact (its first byte chose the loader), pattern
        // lengths [2, 33554435, 3, 4, 0], compact, leftmost-first with an empty pattern.
        let ac = try! AhoCorasick.Builder().matchKind(.leftmostFirst).representation(.compact)
            .build(["he", "she", "his", "hers", ""])
        let bytes = Self.patched(ac.serialized(), pattern: 1, length: 33_554_435)
        #expect(throws: AutomatonError.self) { try AhoCorasick(deserializing: bytes) }
    }

    @Test("KMP: a length that does not match the table is corrupt")
    func kmpLength() throws {
        let kmp = try KMP("abab")
        let bytes = kmp.serialized()
        // KMP's own container: header 24, pattern length 4, the pattern; then the envelope.
        let envelope = SavedContainer.headerSize + 4 + 4
        let inner = Self.patched(Array(bytes[envelope...]), pattern: 0, length: 1_000_000)
        var patched = SavedContainer.seal(Array(bytes[SavedContainer.headerSize..<envelope]) + inner,
                                          magic: Array("TRNSTKMP".utf8), version: 2)
        #expect(throws: AutomatonError.self) { try KMP(deserializing: patched) }
        patched = kmp.serialized()
        #expect((try? KMP(deserializing: patched)) != nil)
    }
}

@Suite("Regression: literal loader, unreported pattern lengths")
struct RegressionLiteralLoaderOpenTests {
    /// A dense version-1 file (the fuzz artifact below) in the current format: the
    /// envelope and the DFA inside it sealed in containers, and the state depths the
    /// writer now stores inserted after the pattern lengths.
    static func current(_ v1: [UInt8]) throws -> [UInt8] {
        let patternCount = Int(v1[16]) | Int(v1[17]) << 8 | Int(v1[18]) << 16 | Int(v1[19]) << 24
        let lengthsEnd = 20 + 4 * patternCount
        let dfaV1 = Array(v1[(lengthsEnd + 4)...])
        let dfa = SavedContainer.seal(Array(dfaV1[12...]), magic: DenseDFA.serializationMagic, version: DenseDFA.serializationVersion)
        let depths = LiteralSerialization.depths(of: try DenseDFA(deserializing: dfa))
        var out = Array(v1[12..<lengthsEnd])
        for value in [UInt32(depths.count)] + depths + [UInt32(dfa.count)] {
            for k in 0..<4 { out.append(UInt8(truncatingIfNeeded: value >> (8 * UInt32(k)))) }
        }
        return SavedContainer.seal(out + dfa, magic: LiteralSerialization.magic, version: LiteralSerialization.version)
    }

    /// fuzz-loader timeout-11ff0706 (fixed): a dense leftmost-first automaton whose
    /// header gives pattern 2 a length of 14,811,139, while no reachable state reports
    /// pattern 2. The length check above covers only reported patterns, so the file
    /// loads; the engine's maxLength (used for the leftmost selector ring and the
    /// stream carry) is then 14.8 million, and every leftmost search or stream feed
    /// allocates a ring that large. Valid files can have the same shape — under
    /// leftmost-first a word that extends an earlier word is pruned from the trie but
    /// keeps its length — so the fix belongs in the engine (size the ring by the
    /// longest *reportable* pattern), not in the loader.
    @Test("an unreported pattern's declared length does not size the search buffers")
    func unreportedPatternLength() throws {
        let bytes: [UInt8] = [84, 82, 78, 83, 84, 76, 73, 84, 1, 0, 0, 0, 1, 4, 0, 0, 5, 0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0, 3, 0, 226, 0, 4, 0, 0, 0, 0, 0, 0, 0, 12, 3, 0, 0, 84, 82, 78, 83, 84, 68, 70, 65, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 2, 3, 0, 0, 0, 0, 0, 0, 0, 0, 4, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 6, 0, 0, 0, 11, 0, 0, 0, 3, 0, 0, 0, 10, 0, 0, 0, 5, 0, 0, 0, 8, 0, 0, 0, 8, 0, 0, 0, 8, 0, 0, 0, 8, 0, 0, 0, 8, 0, 0, 0, 8, 0, 0, 0, 8, 0, 0, 0, 8, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 2, 0, 0, 0, 4, 0, 0, 0, 5, 0, 0, 0, 6, 0, 0, 0, 9, 0, 0, 0, 10, 0, 0, 0, 12, 0, 0, 0, 13, 0, 0, 0, 15, 0, 0, 0, 4, 0, 0, 0, 4, 0, 0, 0, 0, 0, 0, 0, 4, 0, 0, 0, 4, 0, 0, 0, 4, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 4, 0, 0, 0, 4, 0, 0, 0, 2, 0, 0, 0, 4, 0, 0, 0, 4, 0, 0, 0, 3, 0, 0, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 8, 0, 0, 0, 8, 0, 0, 0, 16, 0, 0, 0, 8, 0, 0, 0, 8, 0, 0, 0, 32, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 8, 0, 0, 0, 24, 0, 0, 0, 16, 0, 0, 0, 56, 0, 0, 0, 8, 0, 0, 0, 32, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 8, 0, 0, 0, 8, 0, 0, 0, 16, 0, 0, 0, 8, 0, 0, 0, 72, 0, 0, 0, 32, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 8, 0, 0, 0, 8, 0, 0, 0, 40, 0, 0, 0, 8, 0, 0, 0, 8, 0, 0, 0, 32, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 8, 0, 0, 0, 48, 0, 0, 0, 16, 0, 0, 0, 56, 0, 0, 0, 8, 0, 0, 0, 32, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 8, 0, 0, 0, 8, 0, 0, 0, 16, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 80, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 8, 0, 0, 0, 8, 0, 0, 0, 40, 0, 0, 0, 8, 0, 0, 0, 8, 0, 0, 0, 32, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]
        let ac = try AhoCorasick(deserializing: Self.current(bytes))
        #expect(ac.maxPatternLength <= ac.statistics.stateCount)
        // Searched: before the fix one search allocated about 740 MB.
        let haystack = Array("xxxx".utf8)
        _ = ac.matches(in: haystack)
    }
}

@Suite("Regression: literal builder")
struct RegressionLiteralBuilderTests {
    /// Issue 16: under leftmost-first, `["a", <a 1 MB word starting with "a">]` prunes the
    /// long word (it can never be reported), yet its length sized the leftmost selector's
    /// ring: about a million slots per search. The engine now sizes it by the longest
    /// reported pattern; the matches are still those of the naive reference.
    @Test("a pruned long word does not size the search buffers, matches unchanged")
    func prunedLongWord() throws {
        let long = [UInt8](repeating: UInt8(ascii: "a"), count: 1 << 20)
        let patterns: [[UInt8]] = [Array("a".utf8), long, Array("ab".utf8)]
        for kind in [MatchKind.leftmostFirst] {
            let ac = try AhoCorasick.Builder().matchKind(kind).build(patterns)
            #expect(ac.maxPatternLength == 1)
            let haystack = Array("xaab a".utf8)
            #expect(ac.matches(in: haystack).map { [$0.start, $0.end, $0.pattern] }
                    == [[1, 2, 0], [2, 3, 0], [5, 6, 0]])
        }
        // Leftmost-longest reports the long word, so it must size the ring there.
        let longest = try AhoCorasick.Builder().matchKind(.leftmostLongest).build(patterns)
        #expect(longest.maxPatternLength == 1 << 20)
    }

    /// LiteralLimitsAndSharingTests.hostileWordList (20,000 words, every tenth empty, a fifth
    /// duplicates) never finished: with an empty pattern the leftmost kinds use the
    /// overlapping trie, and every state's match list carried all ~2,000 duplicates of
    /// the empty word (LiteralTrie.finish copies the failure state's list into each
    /// state). Duplicates can never be reported under the leftmost kinds, so the
    /// builder now leaves them out of the trie.
    @Test("thousands of duplicate empty words build a small automaton with unchanged leftmost matches")
    func duplicateEmptyWords() throws {
        let words: [[UInt8]] = Array(repeating: [], count: 5_000) + [Array("ab".utf8), Array("AB".utf8), Array("ab".utf8)]
        let haystack = Array("xabABab".utf8)
        for kind in [MatchKind.leftmostFirst, .leftmostLongest] {
            for caseInsensitive in [false, true] {
                let ac = try AhoCorasick.Builder().matchKind(kind).asciiCaseInsensitive(caseInsensitive).build(words)
                #expect(ac.statistics.memoryBytes < 1 << 20, "\(ac.statistics)")
                let expected = NaiveLiteralMatcher(patterns: words, kind: kind == .leftmostFirst ? .leftmostFirst : .leftmostLongest,
                                                   caseInsensitive: caseInsensitive).matches(in: haystack)
                #expect(ac.matches(in: haystack) == expected)
            }
        }
        // Overlapping still reports every duplicate.
        let overlapping = try AhoCorasick.Builder().matchKind(.overlapping).build(Array(words.suffix(3)))
        #expect(overlapping.matches(in: haystack).count == 5)  // ab twice (ids 0 and 2), AB, ab twice
        // And holds each once too (issue 28: `filter` matches overlapping, and every
        // state carried every empty duplicate: 329 MB for 100,000 words).
        for caseInsensitive in [false, true] {
            let all = try AhoCorasick.Builder().matchKind(.overlapping).asciiCaseInsensitive(caseInsensitive).build(words)
            #expect(all.statistics.memoryBytes < 1 << 20, "\(all.statistics)")
            let expected = NaiveLiteralMatcher(patterns: words, kind: .overlapping, caseInsensitive: caseInsensitive)
                .matches(in: haystack)
            #expect(all.matches(in: haystack) == expected)
        }
    }
}
