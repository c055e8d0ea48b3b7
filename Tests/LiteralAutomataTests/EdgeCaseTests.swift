import AutomatonCore
import LiteralAutomata
import PCRE2Oracle
import TestSupport
import Testing

@Suite struct EdgeCaseTests {
    @Test func noPatternsNeverMatch() throws {
        for kind in MatchKind.allCases {
            for representation in LiteralRepresentation.allCases {
                let ac = try AhoCorasick.Builder().matchKind(kind).representation(representation).build([String]())
                #expect(ac.matches(in: "anything").isEmpty && !ac.isMatch(in: "") && ac.patternCount == 0)
                #expect(try AhoCorasick(deserializing: ac.serialized()).matches(in: "x").isEmpty)
            }
        }
        #expect(try PCRE2Regex(pattern: PCRE2Regex.alternation(of: [], wholeWord: false)).matches(in: "anything").isEmpty)
    }

    @Test func everyByteValueAndInvalidUTF8() throws {
        let all = (0...255).map { UInt8($0) }
        let patterns = [all, [0xFF, 0x00], [0x80]]
        let haystack: [UInt8] = [0x80, 0xFF, 0x00] + all + [0xFF]
        for kind in MatchKind.allCases {
            let expected = NaiveLiteralMatcher(patterns: patterns, kind: kind.naive).matches(in: haystack)
            for config in LiteralConfiguration.ahoCorasick {
                let ac = try config.build(patterns, kind: kind, caseInsensitive: false, wholeWord: false)
                #expect(ac.statistics.byteClassCount == 256)
                #expect(ac.matches(in: haystack) == expected, "\(config) \(kind)")
            }
        }
    }

    @Test func caseInsensitiveIsASCIIOnly() throws {
        let ac = try AhoCorasick.Builder().asciiCaseInsensitive(true).build(["straße", "K"])
        #expect(ac.matches(in: "STRAßE").count == 1)
        #expect(ac.matches(in: "STRASSE").isEmpty)
        #expect(ac.matches(in: "\u{212A}").isEmpty)   // KELVIN SIGN is not ASCII K
        #expect(ac.matches(in: "k").count == 1)
    }

    @Test func readLoop() throws {
        let ac = try AhoCorasick.Builder().asciiCaseInsensitive(true).wholeWord(true).build(["stop", "word"])
        let text = Array(String(repeating: "a stop word, stopword; WORD stop. ", count: 50).utf8)
        var offset = 0
        var stream = ac.streamSearcher()
        var found: [Match] = []
        stream.run(bufferSize: 5, read: { buffer in
            let n = min(buffer.count, text.count - offset)
            for i in 0..<n { buffer[i] = text[offset + i] }
            offset += n
            return n
        }) { found.append($0) }
        #expect(found == ac.matches(in: text))
        #expect(found.count == 200)
    }

    /// Whole word: a word that begins or ends with a non-word byte needs a word byte
    /// on that side, as PCRE2's `\b` does.
    @Test func wholeWordWithNonWordEdges() throws {
        let words = ["c++", "'tis", "-", "e-mail"]
        let haystack = "c++ is fine; 'tis x'tis a-b e-mail -"
        let ac = try AhoCorasick.Builder().wholeWord(true).build(words)
        let oracle = try PCRE2Regex(pattern: PCRE2Regex.alternation(of: words, wholeWord: true))
        #expect(ac.matches(in: haystack).map(\.range) == (try oracle.matches(in: haystack)))
        #expect(ac.matches(in: haystack).map(\.pattern).contains(2))   // "-" in "a-b"
    }
}
