import Foundation
import Testing
import TestSupport
import Turnstile

/// README.md's "## The library in Swift" block is `import Turnstile`, a blank line and
/// exactly the region marked below, which this test runs and checks (so the README's
/// comments state what the code really prints).
@Suite("README: the library in Swift")
struct LibraryReadmeTests {
    @Test func libraryInSwiftExample() throws {
        // --- README: library in Swift (begin) ---
        // Words: built in one step; matches as Substrings of the text.
        let words = try AhoCorasick(["free", "prize"], asciiCaseInsensitive: true, wholeWord: true)
        let text = "Claim your FREE prize: free entry, no prizes"
        let found = words.matches(in: text).map { $0.substring(in: text) }   // ["FREE", "prize", "free"]

        // A regex, searched lazily: nothing is collected, the scan stops where the loop does.
        let url = try RegexAutomaton("https?://[a-z0-9.]+")
        var links: [Range<Int>] = []
        for m in url.matches(in: "see http://a.example and https://b.example") {
            links.append(m.range)              // 4..<20, then 25..<42
        }

        // The same vocabulary over bytes of any kind: [UInt8], ArraySlice, Data, buffers.
        let bytes = Array(text.utf8)
        let inTail = words.count(in: bytes[11...])   // 3
        let any = words.isMatch(in: Data("FREE".utf8))   // true

        // The built-in spam list with its own threshold (6.9523) and flags (-F -i -w).
        let verdict = SpamFilter.standard.verdict(for: "URGENT winner! Claim your cash prize now, act fast")
        print(verdict.isSpam, verdict.score)   // true, a score of about 21.6

        // A rules file carries its threshold and flags; the filter takes both.
        let file = try RuleFile(parsing: Array("# threshold: 2\n# flags: -F -i -w\nwinner\t2\nfree entry\n".utf8),
                                source: "rules.txt")
        let mine = try SpamFilter(rules: file)
        let shouted = mine.verdict(for: "You are a WINNER").isSpam     // true: -i, and 2 >= 2
        let plural = mine.verdict(for: "winners get a free entry").isSpam   // false: -w; "free entry" scores 1
        // --- README: library in Swift (end) ---

        #expect(found == ["FREE", "prize", "free"])
        #expect(links == [4..<20, 25..<42])
        #expect(inTail == 3)
        #expect(any)
        #expect(shouted)
        #expect(!plural)
        // The standard filter is the built-in list judged as the CLI judges it.
        let reference = try RuleSet.standard.spamFilter()
        #expect(SpamFilter.standard.threshold == DefaultSpamList.threshold)
        #expect(SpamFilter.standard.threshold == 6.9523)
        let o = SpamFilter.standard.matcher.options, standard = SpamFilter.standardOptions
        #expect(o.syntax == standard.syntax && o.caseInsensitive == standard.caseInsensitive && o.wholeWord == standard.wholeWord)
        #expect(RuleFile(RuleSet.standard).flags?.arguments == "-F -i -w")
        #expect(verdict == reference.verdict(for: "URGENT winner! Claim your cash prize now, act fast"))
        #expect(verdict.isSpam)
        #expect(verdict.score >= 21.6 && verdict.score < 21.61, "score \(verdict.score)")
        // A file without a header: case-sensitive regexes and threshold 1, as `--rules`.
        let bare = try SpamFilter(rules: RuleFile(parsing: Array("win+er\n".utf8), source: "bare"))
        #expect(bare.threshold == 1)
        #expect(bare.matcher.options.syntax == .regex && !bare.matcher.options.caseInsensitive)
        #expect(bare.verdict(for: "winnner").isSpam && !bare.verdict(for: "WINNER").isSpam)
        #expect(try SpamFilter(rules: file, threshold: 3).verdict(for: "You are a WINNER").isSpam == false)
    }

    @Test func readmeShowsExactlyTheTestedCode() throws {
        let readme = try #require(ReadmeSnippet.swiftBlockBody(under: "## The library in Swift"),
                                  "README.md has no ```swift block under '## The library in Swift'")
        #expect(readme.imports == ["import Turnstile"], "the README block starts with its import")
        let region = ReadmeSnippet.markedRegion(
            inFile: #filePath, begin: "// --- README: library in Swift (begin) ---",
            end: "// --- README: library in Swift (end) ---")
        #expect(readme.body == region, "README.md's library example differs from LibraryReadmeTests.swift; copy the marked region over")
        let article = try #require(ReadmeSnippet.swiftBlockBody(under: "## Example", in: "Sources/Turnstile/Turnstile.docc/GettingStarted.md"),
                                   "the DocC article Sources/Turnstile/Turnstile.docc/GettingStarted.md has no ```swift block under '## Example'")
        #expect(article.imports == readme.imports && article.body == region,
                "the DocC Getting started article of Turnstile differs from the tested code; copy the marked region over")
    }
}
