import Foundation
import LiteralAutomata
import TestSupport
import Testing

/// The "Stop words" example of the README, compiled with `LiteralAutomata` as its
/// only library import (as a user would write it) and checked; once README.md has
/// the section, its code block must equal the marked region.
@Suite struct StopWordsReadmeTests {
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
        var streamed: [Range<Int>] = []
        for chunk in ["The Tale o", "f a Tub"] {
            stream.feed(Array(chunk.utf8)) { streamed.append($0.range) }
        }
        stream.finish { streamed.append($0.range) }
        // streamed == [0..<3, 9..<11, 12..<13]
        // --- README: Stop words (end) ---

        #expect(found == ["The", "of", "a", "and", "an"])
        #expect(censored == "*** Tale ** * Tub *** ** Anthem")
        #expect(stopWords.statistics.representation == .dense)
        #expect(stopWords.statistics.stateCount == 10)
        #expect(stopWords.statistics.byteClassCount == 9)
        #expect(streamed == [0..<3, 9..<11, 12..<13])
    }

    /// README.md's "## Stop words" Swift block is `import LiteralAutomata`, a blank
    /// line, and exactly the tested region above.
    @Test func readmeShowsExactlyTheTestedCode() throws {
        let readme = try #require(ReadmeSnippet.swiftBlockBody(under: "## Stop words"),
                                  "README.md has no ```swift block under '## Stop words'")
        #expect(readme.imports == ["import LiteralAutomata"], "the README block starts with its import")
        let region = ReadmeSnippet.markedRegion(
            inFile: #filePath, begin: "// --- README: Stop words (begin) ---", end: "// --- README: Stop words (end) ---")
        #expect(readme.body == region, "README.md's stop-word example differs from StopWordsReadmeTests.swift; copy the marked region over")
        let article = try #require(ReadmeSnippet.swiftBlockBody(under: "## Example", in: "Sources/LiteralAutomata/LiteralAutomata.docc/GettingStarted.md"),
                                   "the DocC article Sources/LiteralAutomata/LiteralAutomata.docc/GettingStarted.md has no ```swift block under '## Example'")
        #expect(article.imports == readme.imports && article.body == region,
                "the DocC Getting started article of LiteralAutomata differs from the tested code; copy the marked region over")
    }
}
