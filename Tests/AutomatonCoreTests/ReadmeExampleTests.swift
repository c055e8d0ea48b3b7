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

    /// The lines between the markers in this file, with their common indentation removed.
    static func markedRegion() throws -> [String] {
        let source = try String(contentsOfFile: #filePath, encoding: .utf8)
        let lines = source.components(separatedBy: "\n")
        let begin = try #require(lines.firstIndex { $0.trimmingCharacters(in: .whitespaces) == "// README-BEGIN" })
        let end = try #require(lines.firstIndex { $0.trimmingCharacters(in: .whitespaces) == "// README-END" })
        let region = Array(lines[(begin + 1)..<end])
        let indent = region.filter { !$0.trimmingCharacters(in: .whitespaces).isEmpty }
            .map { $0.prefix(while: { $0 == " " }).count }.min() ?? 0
        return region.map { $0.trimmingCharacters(in: .whitespaces).isEmpty ? "" : String($0.dropFirst(indent)) }
    }

    /// The lines of the first ```swift block under `## Library example` in README.md.
    static func readmeBlock() throws -> [String] {
        let url = SharedCorpora.repositoryRoot.appendingPathComponent("README.md")
        let lines = try String(contentsOf: url, encoding: .utf8).components(separatedBy: "\n")
        let heading = try #require(lines.firstIndex(of: "## Library example"), "README.md has no '## Library example'")
        let open = try #require(lines[heading...].firstIndex(of: "```swift"), "no ```swift block under the heading")
        let close = try #require(lines[(open + 1)...].firstIndex(of: "```"), "the ```swift block is not closed")
        let nextHeading = lines[(heading + 1)...].firstIndex { $0.hasPrefix("## ") } ?? lines.count
        #expect(open < nextHeading, "the code block must sit under '## Library example'")
        return Array(lines[(open + 1)..<close])
    }

    @Test func readmeShowsExactlyTheTestedCode() throws {
        let block = try Self.readmeBlock()
        #expect(Array(block.prefix(2)) == ["import AutomatonCore", ""], "the README block starts with its import")
        let code = Array(block.dropFirst(2))
        let region = try Self.markedRegion()
        #expect(code == region, "README.md's library example differs from ReadmeExampleTests.swift; copy the marked region over")
    }
}
