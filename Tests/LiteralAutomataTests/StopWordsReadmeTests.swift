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

    /// The lines between the README markers above, without their common indentation.
    static func markedRegion() throws -> [String] {
        let lines = try String(contentsOfFile: #filePath, encoding: .utf8).components(separatedBy: "\n")
        let begin = try #require(lines.firstIndex { $0.trimmingCharacters(in: .whitespaces) == "// --- README: Stop words (begin) ---" })
        let end = try #require(lines.firstIndex { $0.trimmingCharacters(in: .whitespaces) == "// --- README: Stop words (end) ---" })
        let region = Array(lines[(begin + 1)..<end])
        let indent = region.filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
            .map { $0.prefix(while: { $0 == " " }).count }.min() ?? 0
        return region.map { $0.trimmingCharacters(in: .whitespaces).isEmpty ? "" : String($0.dropFirst(indent)) }
    }

    /// Once README.md has a "## Stop words" section, its Swift block must be exactly
    /// `import LiteralAutomata`, a blank line, and the tested region above.
    @Test func readmeShowsExactlyTheTestedCode() throws {
        let url = SharedCorpora.repositoryRoot.appendingPathComponent("README.md")
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { return }
        let lines = text.components(separatedBy: "\n")
        guard let heading = lines.firstIndex(of: "## Stop words") else {
            print("skipped: README.md has no '## Stop words' section yet")
            return
        }
        let open = try #require(lines[heading...].firstIndex(of: "```swift"), "no ```swift block under '## Stop words'")
        let close = try #require(lines[(open + 1)...].firstIndex(of: "```"), "the ```swift block is not closed")
        let block = Array(lines[(open + 1)..<close])
        #expect(Array(block.prefix(2)) == ["import LiteralAutomata", ""], "the README block starts with its import")
        #expect(Array(block.dropFirst(2)) == (try Self.markedRegion()),
                "README.md's stop-word example differs from LiteralAutomataTests/ReadmeExampleTests.swift; copy the marked region over")
    }

}
