// Regressions found by the loader fuzz target (Fuzz/Sources/FuzzLoader).

import AutomatonCore
@testable import LiteralAutomata
import Testing

@Suite("Regression: literal loader")
struct RegressionLiteralLoaderTests {
    /// Offset of the first pattern length in the envelope: magic 8, version 4, kind,
    /// flags, representation, shape 1 each, pattern count 4.
    static let firstLength = 20

    static func patched(_ bytes: [UInt8], pattern: Int, length: UInt32) -> [UInt8] {
        var copy = bytes
        for k in 0..<4 { copy[firstLength + 4 * pattern + k] = UInt8(truncatingIfNeeded: length >> (8 * UInt32(k))) }
        return copy
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
        var bytes = kmp.serialized()
        // KMP's own header: magic 8, pattern length 4, the pattern; then the envelope.
        let envelope = 12 + 4
        for k in 0..<4 { bytes[8 + k] = 0 }
        bytes[8] = 4
        var patched = Array(bytes[..<envelope]) + Self.patched(Array(bytes[envelope...]), pattern: 0, length: 1_000_000)
        #expect(throws: AutomatonError.self) { try KMP(deserializing: patched) }
        patched = kmp.serialized()
        #expect((try? KMP(deserializing: patched)) != nil)
    }
}
