import AutomatonCore
import LiteralAutomata
import Testing

/// The examples in the doc comments, compiled and checked.
@Suite struct DocCommentExampleTests {
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
