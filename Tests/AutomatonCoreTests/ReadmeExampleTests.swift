import Testing
import Foundation
import AutomatonCore
import TestSupport

/// The `## Library example` in README.md is the code between the README markers
/// below (dedented), preceded by its `import AutomatonCore` line; the second test
/// keeps the two identical, so the README cannot rot.
@Suite struct ReadmeExampleTests {
    @Test func libraryExampleRuns() throws {
        // README-BEGIN
        // A DFA that finds every "cat" in a haystack, with one redundant state.
        var classes = ByteClassSet()
        for byte in "catx".utf8 { classes.add(byte) }
        var builder = DenseDFABuilder(byteClasses: classes.byteClasses(), patternCount: 1)
        let start = builder.addState()
        let copy = builder.addState()      // behaves exactly like `start`
        let c = builder.addState()
        let ca = builder.addState()
        let cat = builder.addState(patterns: [0])
        for state in [start, copy, c, ca, cat] {
            builder.setTransition(from: state, bytes: 0...255, to: start)
            builder.setTransition(from: state, byte: UInt8(ascii: "c"), to: c)
        }
        builder.setTransition(from: start, byte: UInt8(ascii: "x"), to: copy)
        builder.setTransition(from: c, byte: UInt8(ascii: "a"), to: ca)
        builder.setTransition(from: ca, byte: UInt8(ascii: "t"), to: cat)
        builder.setStart(start)
        let dfa = try builder.build()

        let small = dfa.minimized()        // 5 states instead of 6: `copy` merged into `start`
        let ends = small.matchEnds(in: "concatenate a cat").map(\.end)   // [6, 17]
        let dot = small.dot(name: "cat")   // Graphviz source: render with `dot -Tsvg`
        // README-END

        #expect(dfa.stateCount == 6)
        #expect(small.stateCount == 5)
        #expect(ends == [6, 17])
        #expect(dfa.matchEnds(in: "concatenate a cat").map(\.end) == [6, 17])
        #expect(small.matchEnds(in: "xcxcat").map(\.end) == [6])
        #expect(dot.hasPrefix("digraph \"cat\" {"))
        #expect(dot.contains("shape=doublecircle"))
        #expect(dot.contains("[label=\"c\"]"))
        #expect(dot.contains("[label=\"t\"]"))
    }

    @Test func readmeShowsExactlyTheTestedCode() throws {
        let readme = try #require(ReadmeSnippet.swiftBlockBody(under: "## Library example"),
                                  "README.md has no ```swift block under '## Library example'")
        #expect(readme.imports == ["import AutomatonCore"], "the README block starts with its import")
        let region = ReadmeSnippet.markedRegion(inFile: #filePath, begin: "// README-BEGIN", end: "// README-END")
        #expect(readme.body == region, "README.md's library example differs from ReadmeExampleTests.swift; copy the marked region over")
        let article = try #require(ReadmeSnippet.swiftBlockBody(under: "## Example", in: "Sources/AutomatonCore/AutomatonCore.docc/GettingStarted.md"),
                                   "the DocC article Sources/AutomatonCore/AutomatonCore.docc/GettingStarted.md has no ```swift block under '## Example'")
        #expect(article.imports == readme.imports && article.body == region,
                "the DocC Getting started article of AutomatonCore differs from the tested code; copy the marked region over")
    }
}
