import Testing
import AutomatonCore

@Suite struct DenseDFADOTTests {
    /// start --[0-9a-z]--> word (reports 0) --[a-z]--> word, word --EOI--> end (reports 2),
    /// start --[\0 "]--> quote (reports 1, 0). Built indices: word 1, quote 2, end 3, start 4.
    static func sample() throws -> DenseDFA {
        var set = ByteClassSet()
        set.add(UInt8(ascii: "a")...UInt8(ascii: "z"))
        set.add(UInt8(ascii: "0")...UInt8(ascii: "9"))
        set.add(0x00)
        set.add(UInt8(ascii: "\""))
        var b = DenseDFABuilder(byteClasses: set.byteClasses(), patternCount: 3)
        let start = b.addState()
        let word = b.addState(patterns: [0])
        let quote = b.addState(patterns: [1, 0])
        let end = b.addState(patterns: [2])
        b.setTransition(from: start, bytes: UInt8(ascii: "a")...UInt8(ascii: "z"), to: word)
        b.setTransition(from: start, bytes: UInt8(ascii: "0")...UInt8(ascii: "9"), to: word)
        b.setTransition(from: start, byte: 0x00, to: quote)
        b.setTransition(from: start, byte: UInt8(ascii: "\""), to: quote)
        b.setTransition(from: word, bytes: UInt8(ascii: "a")...UInt8(ascii: "z"), to: word)
        b.setEOITransition(from: word, to: end)
        b.setStart(start)
        b.setStart(word, context: .lineStart, anchored: true)
        b.setStart(0, context: .wordByte, anchored: false)
        return try b.build()
    }

    @Test func rendersStatesEdgesAndStarts() throws {
        let dot = try Self.sample().dot(name: "sample")
        let lines = Set(dot.split(separator: "\n").map { $0.trimmingPrefix(while: { $0 == " " }) }.map(String.init))
        let expected = [
            "digraph \"sample\" {",
            "start [shape=point, style=invis];",
            "start -> s4;",
            "start1 [shape=point, style=invis];",
            "start1 -> s1 [style=dashed, label=\"lineStart anchored\"];",
            "// start states that are the dead state: wordByte unanchored",
            "s1 [shape=doublecircle, label=\"1\\n[0]\"];",
            "s2 [shape=doublecircle, label=\"2\\n[1,0]\"];",
            "s3 [shape=doublecircle, label=\"3\\n[2]\"];",
            "s4 [label=\"4\"];",
            "s4 -> s1 [label=\"0-9, a-z\"];",
            "s4 -> s2 [label=\"\\\\x00, \\\"\"];",
            "s1 -> s1 [label=\"a-z\"];",
            "s1 -> s3 [label=\"EOI\"];",
            "}",
        ]
        for line in expected {
            #expect(lines.contains(line), "missing line \(line) in\n\(dot)")
        }
        #expect(dot.split(separator: "\n").filter { $0.contains("->") }.count == 6, "\(dot)")
        #expect(!dot.contains("s0"), "the dead state and edges into it are omitted")
    }

    @Test func nonPrintableAndSpaceBytesAreEscaped() throws {
        var b = DenseDFABuilder(byteClasses: .singletons, patternCount: 1)
        let start = b.addState()
        let end = b.addState(patterns: [0])
        b.setTransition(from: start, bytes: 0x00...0x20, to: end)
        b.setTransition(from: start, byte: 0x7F, to: end)
        b.setTransition(from: start, byte: 0xFF, to: end)
        b.setTransition(from: start, byte: UInt8(ascii: "\\"), to: end)
        b.setStart(start)
        let dot = try b.build().dot()
        #expect(dot.hasPrefix("digraph \"dfa\" {"))
        #expect(dot.contains("s2 -> s1 [label=\"\\\\x00-\\\\x20, \\\\, \\\\x7F, \\\\xFF\"];"), "\(dot)")
    }

    @Test func aDeadOnlyAutomatonHasNoNodes() throws {
        let b = DenseDFABuilder(byteClasses: .single, patternCount: 0)
        let dot = try b.build().dot()
        #expect(!dot.contains("->"))
        #expect(dot.contains("// start states that are the dead state: textStart unanchored"))
    }
}
