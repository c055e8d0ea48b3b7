import Foundation
import Testing
import TestSupport

@Suite("turnstile filter")
struct FilterCommandTests {
    static let sample = "Corpora/messages/sample.txt"

    static func sampleLines() throws -> [String] {
        let data = try Data(contentsOf: SharedCorpora.ownCorpora.appendingPathComponent("messages/sample.txt"))
        return String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    @Test("the README's first command: the sample file through the default list")
    func defaultListOnSample() throws {
        let r = try CLI.run(["filter", Self.sample])
        #expect(r.status == 0, "spam was found, so the status is 0")
        #expect(r.err.isEmpty)
        let kept = r.out.split(separator: "\n").map(String.init)
        let all = try Self.sampleLines()
        #expect(kept.count >= 10 && kept.count < all.count)
        #expect(kept.allSatisfy { all.contains($0) }, "clean lines pass through unchanged")
        #expect(kept.contains("Hi Sam, are we still on for lunch tomorrow at 12:30?"))
        #expect(!r.out.contains("claim your reward"))
        #expect(kept == all.filter { kept.contains($0) }, "order is kept")
    }

    @Test("stdin, '-' and a file give the same output")
    func stdinAndFiles() throws {
        let input = try Data(contentsOf: SharedCorpora.ownCorpora.appendingPathComponent("messages/sample.txt"))
        let fromFile = try CLI.run(["filter", Self.sample])
        let fromStdin = try CLI.run(["filter"], stdin: [UInt8](input))
        let fromDash = try CLI.run(["filter", "-"], stdin: [UInt8](input))
        #expect(fromFile.stdout == fromStdin.stdout)
        #expect(fromFile.stdout == fromDash.stdout)
    }

    @Test("exit status: 0 with spam, 1 without, 1 for empty input")
    func exitStatus() throws {
        #expect(try CLI.run(["filter"], stdin: "WINNER! Claim your prize\n".bytes).status == 0)
        let clean = try CLI.run(["filter"], stdin: "hello there\n".bytes)
        #expect(clean.status == 1)
        #expect(clean.out == "hello there\n")
        let empty = try CLI.run(["filter"], stdin: [])
        #expect(empty.status == 1)
        #expect(empty.stdout.isEmpty)
    }

    @Test("--spam prints only spam; --color=always highlights the matches")
    func spamOnly() throws {
        let input = "hello\nfree entry for you\nbye\n".bytes
        let r = try CLI.run(["filter", "--spam"], stdin: input)
        #expect(r.out == "free entry for you\n")
        let colored = try CLI.run(["filter", "--spam", "--color=always"], stdin: input)
        #expect(colored.out == "\u{1B}[01;31m\u{1B}[Kfree entry\u{1B}[m\u{1B}[K \u{1B}[01;31m\u{1B}[Kfor\u{1B}[m\u{1B}[K you\n")
        let never = try CLI.run(["filter", "--spam", "--color", "never"], stdin: input)
        #expect(never.out == "free entry for you\n")
    }

    @Test("--mask: one '*' per matched scalar, every record printed")
    func mask() throws {
        let r = try CLI.run(["filter", "--mask", "-F", "-e", "café", "-e", "won"], stdin: "un café\nwe won!\nok\n".bytes)
        #expect(r.out == "un ****\nwe ***!\nok\n")
        #expect(r.status == 0)
    }

    @Test("--count prints clean and spam totals over every input")
    func count() throws {
        let dir = try CLI.temporaryDirectory()
        let a = try CLI.write("claim your prize\nhi\n".bytes, to: "a.txt", in: dir)
        let b = try CLI.write("cash prize\nhello\nthere\n".bytes, to: "b.txt", in: dir)
        let r = try CLI.run(["filter", "--count", a, b])
        #expect(r.out == "clean 3 spam 2\n")
    }

    @Test("--json: one object per record with record, spam, score, threshold, rules and matches")
    func json() throws {
        let r = try CLI.run(["filter", "--json"], stdin: "hi\nURGENT: claim your prize\n".bytes)
        let lines = r.out.split(separator: "\n").map(String.init)
        #expect(lines.count == 2)
        #expect(lines[0] == #"{"record":1,"spam":false,"score":0,"threshold":6.9523,"rules":[],"matches":[]}"#)
        #expect(lines[1].hasPrefix(#"{"record":2,"spam":true,"score":14.6585,"threshold":6.9523,"rules":[{"#))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(lines[1].utf8)) as? [String: Any])
        #expect(object["record"] as? Int == 2)
        #expect(object["spam"] as? Bool == true)
        #expect((object["score"] as? Double).map { abs($0 - 14.6585) < 1e-9 } == true)
        let matches = try #require(object["matches"] as? [[String: Any]])
        // The default list's overlapping matches, by end: words and the phrase.
        #expect(matches.map { $0["text"] as? String } == ["URGENT", "claim", "your", "prize", "claim your prize"])
        #expect(matches[4]["start"] as? Int == 11 && matches[4]["end"] as? Int == 27)
    }

    @Test("--stats prints records, bytes, spam and MB/s to stderr")
    func stats() throws {
        let r = try CLI.run(["filter", "--stats", "--count"], stdin: "a\nclaim your prize\n".bytes)
        #expect(r.out == "clean 1 spam 1\n")
        #expect(r.err.hasPrefix("turnstile: records 2, bytes 19, spam 1, clean 1, "))
        #expect(r.err.hasSuffix(" MB/s\n"))
    }

    @Test("--rules weights and --threshold; rules combine with -F, -i, -w")
    func rulesAndThreshold() throws {
        let dir = try CLI.temporaryDirectory()
        let rules = try CLI.write("# my rules\nwinner\t2\nfree\t0.5\n\ncash\n".bytes, to: "rules.tsv", in: dir)
        let input = "FREE lunch\nfree cash\nwinner\nfreedom\n".bytes
        let r = try CLI.run(["filter", "-F", "-i", "-w", "--rules", rules, "--json"], stdin: input)
        let scores = r.out.split(separator: "\n").map { line -> String in
            String(line.split(separator: ",")[2])
        }
        #expect(scores == [#""score":0.5"#, #""score":1.5"#, #""score":2"#, #""score":0"#])
        let high = try CLI.run(["filter", "-F", "-i", "-w", "--rules", rules, "--threshold", "2", "--spam"], stdin: input)
        #expect(high.out == "winner\n")
    }

    @Test("-f takes lines verbatim: an empty line is an empty pattern that matches every record")
    func patternFileWithEmptyLine() throws {
        let dir = try CLI.temporaryDirectory()
        let withEmpty = try CLI.write("zzz\n\n".bytes, to: "p.txt", in: dir)
        let all = try CLI.run(["filter", "-F", "-f", withEmpty, "--count"], stdin: "a\nb\n".bytes)
        #expect(all.out == "clean 0 spam 2\n")
        let plain = try CLI.write("zzz\n".bytes, to: "q.txt", in: dir)
        let none = try CLI.run(["filter", "-F", "-f", plain, "--count"], stdin: "a\nb\n".bytes)
        #expect(none.out == "clean 2 spam 0\n")
    }

    @Test("regex rules (-e without -F) and --bytes")
    func regexRules() throws {
        let r = try CLI.run(["filter", "-e", "[0-9]{5}", "-i", "-e", "w[i1]nner"], stdin: "call 80086\nW1NNER\nhi 123\n".bytes)
        #expect(r.out == "hi 123\n")
        let bytes = try CLI.run(["filter", "--bytes", "-e", "a.b", "--count"], stdin: [0x61, 0xFF, 0x62, 0x0A, 0x61, 0x62, 0x0A])
        #expect(bytes.out == "clean 1 spam 1\n")
    }

    @Test("regex rules: every rule that occurs counts, even under another rule's match")
    func regexRulesDistinct() throws {
        let r = try CLI.run(["filter", "-e", "abc", "-e", "b", "--json"], stdin: "xabcx\nab\n".bytes)
        let lines = r.out.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines[0].hasPrefix(#"{"record":1,"spam":true,"score":2,"threshold":1,"rules":[{"rule":0,"pattern":"abc","weight":1,"start":1,"end":4},{"rule":1,"pattern":"b","weight":1,"start":2,"end":3}],"matches":[{"start":1,"end":4,"pattern":0,"text":"abc"},{"start":2,"end":3,"pattern":1,"text":"b"}]"#))
    }

    @Test("a last record without a delimiter is printed with one, as grep does")
    func finalRecordWithoutNewline() throws {
        #expect(try CLI.run(["filter"], stdin: "a\nb".bytes).out == "a\nb\n")
        #expect(try CLI.run(["filter", "--delimiter", "none"], stdin: "a\nb".bytes).out == "a\nb")
    }

    @Test("--max-record-bytes: judged on the first N bytes, passed through whole")
    func maxRecordBytes() throws {
        let long = String(repeating: "x", count: 90) + " claim your prize " + String(repeating: "y", count: 100)
        let input = ("short: claim your prize\n" + long + "\nok\n").bytes
        let r = try CLI.run(["filter", "--max-record-bytes", "50"], stdin: input)
        #expect(r.out == long + "\nok\n")
        let spam = try CLI.run(["filter", "--max-record-bytes", "50", "--spam"], stdin: input)
        #expect(spam.out == "short: claim your prize\n")
        // A record far longer than the limit and the read buffer, never buffered whole.
        var zeros = [UInt8](repeating: 0x30, count: 3 << 20)
        zeros.append(0x0A)
        let big = try CLI.run(["filter", "--max-record-bytes", "1000"], stdin: zeros)
        #expect(big.stdout == zeros)
    }

    @Test("--max-record-bytes with blank-line paragraphs: a paragraph cut right before its blank line")
    func maxRecordBytesBlank() throws {
        // The first read ends inside the terminator, so the head is cut at the limit and
        // the rest of the record starts with its blank line.
        let head = String(repeating: "x", count: 20)
        var out = Data()
        let result = try CLI.stream(["filter", "--delimiter", "blank", "--max-record-bytes", "20"], feed: { handle in
            try? handle.write(contentsOf: Data((head + "\n").utf8))
            Thread.sleep(forTimeInterval: 0.3)
            try? handle.write(contentsOf: Data("\nclaim your prize\n\nok\n".utf8))
        }, consume: { handle in
            out = handle.readDataToEndOfFile()
        })
        #expect(String(decoding: out, as: UTF8.self) == head + "\n\nok\n")
        #expect(result.status == 0)
    }

    @Test("--count, --spam and clean output stop searching a spam record early, and agree with --json (which sees every match)",
          arguments: [["-F", "-i", "-w"], ["-F"], ["-F", "-i"]])
    func verdictEarlyStopAgreesWithJSON(flags: [String]) throws {
        var rng = SeededGenerator(defaultSeed: 0x5EED_F117)
        let words = ["win", "winner", "free", "cash", "prize", "a", "an", "it's", "WIN"]
        var lines: [String] = []
        for _ in 0..<3000 {
            let n = Int.random(in: 0...8, using: &rng)
            lines.append((0..<n).map { _ in
                Int.random(in: 0..<3, using: &rng) == 0 ? words.randomElement(using: &rng)! : "xyz\(Int.random(in: 0..<9, using: &rng))"
            }.joined(separator: Bool.random(using: &rng) ? " " : ""))
        }
        lines.append("the last record, never empty")
        // Without a final newline for one variant: the last record is unterminated.
        let input = Array((lines.joined(separator: "\n") + (flags.count == 1 ? "" : "\n")).utf8)
        let rules = FileManager.default.temporaryDirectory.appendingPathComponent("turnstile-early-\(getpid())-\(flags.joined()).tsv")
        defer { try? FileManager.default.removeItem(at: rules) }
        for (threshold, weights) in [("1", ["1", "1", "1"]), ("2.5", ["1", "0.5", "2"]), ("1", ["2", "-1", "1"]),
                                     ("0", ["1", "1", "1"])] {
            let text = zip(["win", "free", "prize"], weights).map { "\($0)\t\($1)\n" }.joined() + "a\t\(weights[0])\ncash\t0\n"
            try Data(text.utf8).write(to: rules)
            let common = flags + ["--rules", rules.path, "--threshold", threshold]
            let json = try CLI.run(["filter", "--json"] + common, stdin: input)
            let spamFlags = json.out.split(separator: "\n").map { $0.contains("\"spam\":true") }
            let spamCount = spamFlags.filter { $0 }.count
            let count = try CLI.run(["filter", "--count"] + common, stdin: input)
            #expect(count.out == "clean \(lines.count - spamCount) spam \(spamCount)\n", "\(flags) \(weights)")
            let spam = try CLI.run(["filter", "--spam"] + common, stdin: input)
            let clean = try CLI.run(["filter"] + common, stdin: input)
            let expectedSpam = zip(lines, spamFlags).filter { $0.1 }.map { $0.0 + "\n" }.joined()
            let expectedClean = zip(lines, spamFlags).filter { !$0.1 }.map { $0.0 + "\n" }.joined()
            #expect(spam.out == expectedSpam, "\(flags) \(weights)")
            #expect(clean.out == expectedClean, "\(flags) \(weights)")
        }
    }

    @Test("--help shows a worked example")
    func help() throws {
        let r = try CLI.run(["filter", "--help"])
        #expect(r.status == 0)
        #expect(r.out.contains("Examples:"))
        #expect(r.out.contains("turnstile filter"))
    }

    @Test("grep's -n, -c, -H, -q, -s and -r, with grep's meanings for the records filter prints")
    func grepHabits() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let a = try CLI.write("lunch?\nwin a prize\nsee you\n".bytes, to: "a.txt", in: dir)
        let b = try CLI.write("a cash prize\nok\n".bytes, to: "b.txt", in: dir)
        let rule = ["-F", "-e", "prize"]
        #expect(try CLI.run(["filter", "-n"] + rule + [a]).out == "1:lunch?\n3:see you\n")
        #expect(try CLI.run(["filter", "-n", "--spam"] + rule + [a]).out == "2:win a prize\n")
        #expect(try CLI.run(["filter", "-H", "-n"] + rule + [a]).out == "\(a):1:lunch?\n\(a):3:see you\n")
        #expect(try CLI.run(["filter", "-c"] + rule + [a]).out == "2\n")
        #expect(try CLI.run(["filter", "-c", "--spam"] + rule + [a, b]).out == "\(a):1\n\(b):1\n")
        #expect(try CLI.run(["filter", "-c", "--threads", "1"] + rule + [a, b]).out == "\(a):2\n\(b):1\n")
        let quiet = try CLI.run(["filter", "-q"] + rule + [a])
        #expect(quiet.status == 0 && quiet.stdout.isEmpty)
        let clean = try CLI.run(["filter", "-q", "-F", "-e", "zebra", a])
        #expect(clean.status == 1 && clean.stdout.isEmpty)
        let missing = dir.appendingPathComponent("nosuch.txt").path
        let silent = try CLI.run(["filter", "-s"] + rule + [missing, a])
        #expect(silent.status == 2 && silent.err.isEmpty && silent.out == "lunch?\nsee you\n")
        // -q: a spam record is success even after an error, as grep -q.
        #expect(try CLI.run(["filter", "-q"] + rule + [missing, a]).status == 0)
        let recursive = try CLI.run(["filter", "-r", "-c"] + rule + [dir.path])
        #expect(recursive.out == "\(a):2\n\(b):1\n", "\(recursive.out)\(recursive.err)")
    }
}
