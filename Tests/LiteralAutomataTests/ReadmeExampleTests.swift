import AutomatonCore
import LiteralAutomata
import Testing

/// The "Stop words" example of the README and the LiteralAutomata DocC overview,
/// kept identical to the code below so it keeps compiling and stays true.
@Suite struct ReadmeExampleTests {
    @Test func stopWordsExample() throws {
        // --- README: Stop words (begin) ---
        let stopWords = try AhoCorasick.Builder()
            .matchKind(.leftmostFirst)
            .asciiCaseInsensitive(true)
            .wholeWord(true)
            .build(["the", "a", "an", "of", "and"])

        let text = "The Tale of a Tub and an Anthem"
        let bytes = Array(text.utf8)
        let found = stopWords.matches(in: text).map { String(decoding: bytes[$0.range], as: UTF8.self) }
        // ["The", "of", "a", "and", "an"]: "Anthem" holds "an", but not as a whole word
        let censored = stopWords.masked(text)   // "*** Tale ** * Tub *** ** Anthem"
        print(stopWords.statistics)             // dense DFA, 10 states, 9 byte classes, …

        // Streaming: chunks from a read loop, absolute offsets, matches that straddle chunks.
        var stream = stopWords.streamSearcher()
        var streamed: [Match] = []
        for chunk in ["The Tale o", "f a Tub"] {
            stream.feed(Array(chunk.utf8)) { streamed.append($0) }
        }
        stream.finish { streamed.append($0) }
        // streamed == [0:[0,3), 3:[9,11), 1:[12,13)]
        // --- README: Stop words (end) ---

        #expect(found == ["The", "of", "a", "and", "an"])
        #expect(censored == "*** Tale ** * Tub *** ** Anthem")
        #expect(stopWords.statistics.representation == .dense)
        #expect(stopWords.statistics.stateCount == 10)
        #expect(stopWords.statistics.byteClassCount == 9)
        #expect(streamed == [Match(pattern: 0, start: 0, end: 3), Match(pattern: 3, start: 9, end: 11),
                             Match(pattern: 1, start: 12, end: 13)])
    }

    /// The examples in the doc comments.
    @Test func docCommentExamples() throws {
        let stopWords = try AhoCorasick.Builder().matchKind(.leftmostFirst).asciiCaseInsensitive(true).wholeWord(true)
            .build(["the", "a", "of"])
        #expect(stopWords.matches(in: "The cat of a theme").map(\.range) == [0..<3, 8..<10, 11..<12])
        #expect(!stopWords.isMatch(in: "cathedral"))
        #expect(try AhoCorasick.Builder().matchKind(.leftmostLongest).build(["Sam", "Samwise"])
            .matches(in: "Samwise").map(\.range) == [0..<7])
        #expect(try AhoCorasick.Builder().build(["spam"]).isMatch(in: "no spam here"))
        #expect(try AhoCorasick.Builder().build(["b", "abc"]).firstMatch(in: "abc") == Match(pattern: 1, start: 0, end: 3))
        #expect(try AhoCorasick.Builder().build(["a", "ab"]).matches(in: "abab").count == 2)
        #expect(try AhoCorasick.Builder().matchKind(.overlapping).build(["he", "she", "hers"])
            .overlappingMatches(in: "ushers").map(\.description) == ["0:[2,4)", "1:[1,4)", "2:[2,6)"])
        #expect(try KMP("abab").matches(in: "abababab").map(\.range) == [0..<4, 4..<8])
        #expect(try KMP("abab", matchKind: .overlapping).matches(in: "ababab").count == 2)
        let ac = try AhoCorasick.Builder().wholeWord(true).build(["spam"])
        #expect(String(decoding: ac.masked(Array("spam, spammer".utf8)), as: UTF8.self) == "****, spammer")
        let empty = try AhoCorasick.Builder().build(["", "a"])
        #expect(empty.matches(in: "a").map(\.description) == ["0:[0,0)", "1:[0,1)", "0:[1,1)"])
    }
}
