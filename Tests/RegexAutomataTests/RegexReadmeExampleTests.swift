import RegexAutomata
import TestSupport
import Testing

/// The "Regular expressions" example of the README, compiled and checked; the README's
/// code block must equal the marked region.
@Suite struct RegexReadmeExampleTests {
    @Test func regexExampleRuns() throws {
        // README-BEGIN regex
        let phone = try RegexCompiler().compile("0[0-9]{4} ?[0-9]{6}")
        let text = "call 07123 456789 or 01234567890 now"
        let found = phone.matches(in: text).map(\.range)    // [5..<17, 21..<32]
        // README-END regex
        #expect(found == [5..<17, 21..<32])
    }

    @Test func readmeShowsExactlyTheTestedCode() throws {
        let readme = try #require(ReadmeSnippet.swiftBlockBody(under: "## Regular expressions"),
                                  "README.md has no ```swift block under '## Regular expressions'")
        #expect(readme.imports == ["import RegexAutomata"])
        let region = ReadmeSnippet.markedRegion(inFile: #filePath, begin: "// README-BEGIN regex", end: "// README-END regex")
        #expect(readme.body == region, "README.md's regex example differs from RegexReadmeExampleTests.swift")
        let article = try #require(ReadmeSnippet.swiftBlockBody(under: "## Example", in: "Sources/RegexAutomata/RegexAutomata.docc/GettingStarted.md"),
                                   "the DocC article Sources/RegexAutomata/RegexAutomata.docc/GettingStarted.md has no ```swift block under '## Example'")
        #expect(article.imports == readme.imports && article.body == region,
                "the DocC Getting started article of RegexAutomata differs from the tested code; copy the marked region over")
    }
}
