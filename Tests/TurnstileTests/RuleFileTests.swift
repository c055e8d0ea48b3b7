import Testing
import Turnstile

@Suite("RuleFile: header fields, rules, read and written")
struct RuleFileTests {
    @Test("the header fields: threshold and the flags the list was made for")
    func headerFields() throws {
        let text = "# threshold: 2.5 (best F1)\n# flags: -F -iw\n# a comment\n\nwin\t2\nfree entry\n# threshold: 9\n"
        let file = try RuleFile(parsing: Array(text.utf8), source: "r.tsv")
        #expect(file.threshold == 2.5)
        #expect(file.flags == RuleFile.Flags(literal: true, caseInsensitive: true, wholeWord: true))
        #expect(file.rules == [Rule("win", weight: 2), Rule("free entry", weight: 1)])
        let plain = try RuleFile(parsing: Array("win\n# threshold: 3\n".utf8), source: "r.tsv")
        #expect(plain.threshold == nil && plain.flags == nil, "header fields only count above the first rule")
    }

    @Test("unknown flags are an error naming the file and line")
    func badFlags() {
        #expect(throws: TurnstileError(.invalidRule(source: "r.tsv", line: 2, message: "the flags \"-x\" are not among -F, -i and -w"))) {
            _ = try RuleFile(parsing: Array("# list\n# flags: -x\nwin\n".utf8), source: "r.tsv")
        }
    }

    @Test("written and read back, a file is the same", arguments: [
        RuleFile(rules: [Rule("win", weight: 2), Rule("a\tb", weight: -0.125), Rule("x y", weight: 1e-7)],
                 threshold: 6.9523, flags: .init(literal: true, wholeWord: true), comments: ["made by hand", ""]),
        RuleFile(rules: [Rule("a(b|c)", weight: 1)]),
    ])
    func roundTrip(_ file: RuleFile) throws {
        let again = try RuleFile(parsing: Array(file.text.utf8), source: "r.tsv")
        #expect(again.rules == file.rules)
        #expect(again.threshold == file.threshold)
        #expect(again.flags == file.flags)
    }

    @Test("patterns that are not UTF-8 are written byte for byte")
    func bytesRoundTrip() throws {
        let file = RuleFile(rules: [Rule(pattern: [0x66, 0xE9, 0xFF], weight: 2)], threshold: 1)
        #expect(file.bytes() == [UInt8]("# threshold: 1\n".utf8) + [0x66, 0xE9, 0xFF] + [UInt8]("\t2\n".utf8))
        #expect(try RuleFile(parsing: file.bytes(), source: "r.tsv").rules == file.rules)
    }

    @Test("fixed decimals as train writes them")
    func decimals() {
        let file = RuleFile(rules: [Rule("win", weight: 2)], threshold: 1.5, flags: nil)
        #expect(file.text(thresholdDecimals: 5, weightDecimals: 4) == "# threshold: 1.50000\nwin\t2.0000\n")
        #expect(file.text == "# threshold: 1.5\nwin\t2\n")
    }
}
