import Foundation
import Testing
import TestSupport
import Turnstile

/// `filter --explain` and the verdict fields of `filter --json`: every record's score,
/// threshold and rules, read back from the built binary's output and checked against
/// each other, against the record's bytes and against the other output modes.
@Suite("filter --explain and --json: a verdict you can read")
struct ExplainCommandTests {
    /// One record's block of `--explain` output, parsed.
    struct Explained: Equatable {
        struct Line: Equatable {
            var weight: String
            var start: Int
            var end: Int
            var pattern: String
        }
        var file: String?
        var record: Int
        var spam: Bool
        var score: String
        var threshold: String
        var rules: [Line] = []
    }

    /// Parses `--explain` output by its documented format; a line that does not follow
    /// it is a test failure.
    static func parse(_ text: String) throws -> [Explained] {
        var result: [Explained] = []
        for line in text.split(separator: "\n", omittingEmptySubsequences: false).dropLast() {
            if line.hasPrefix("  ") {
                // "  [pad]+W  S:E  PATTERN"
                let rest = line.drop { $0 == " " }
                let weight = try #require(rest.split(separator: " ", maxSplits: 1).first)
                let afterWeight = rest.dropFirst(weight.count)
                #expect(afterWeight.hasPrefix("  "), "rule line: \(line)")
                let offsets = try #require(afterWeight.dropFirst(2).split(separator: " ", maxSplits: 1).first)
                let pattern = afterWeight.dropFirst(2 + offsets.count)
                #expect(pattern.hasPrefix("  "), "rule line: \(line)")
                let bounds = offsets.split(separator: ":").compactMap { Int($0) }
                try #require(bounds.count == 2, "offsets in \(line)")
                #expect(weight.hasPrefix("+") || weight.hasPrefix("-"), "a weight has a sign: \(line)")
                try #require(!result.isEmpty, "a rule line before any record: \(line)")
                result[result.count - 1].rules.append(
                    Explained.Line(weight: String(weight), start: bounds[0], end: bounds[1], pattern: String(pattern.dropFirst(2))))
                continue
            }
            var header = Substring(line)
            var file: String?
            if let r = header.range(of: ": record ") {
                file = String(header[..<r.lowerBound])
                header = header[header.index(r.lowerBound, offsetBy: 2)...]
            }
            // "record N: spam|clean, score S, threshold T" or
            // "record N: unsure, score S, threshold T, unsure from C"
            let parts = header.split(separator: " ")
            let unsure = parts.count == 10 && parts[2] == "unsure," && parts[6].hasSuffix(",")
                && parts[7] == "unsure" && parts[8] == "from"
            try #require((parts.count == 7 || unsure) && parts[0] == "record" && parts[3] == "score"
                         && parts[5] == "threshold", "header line: \(line)")
            let number = try #require(Int(parts[1].dropLast()))
            #expect(parts[2] == "spam," || parts[2] == "clean," || unsure, "header line: \(line)")
            result.append(Explained(file: file, record: number, spam: parts[2] == "spam,",
                                    score: String(parts[4].dropLast()),
                                    threshold: String(unsure ? parts[6].dropLast() : parts[6])))
        }
        return result
    }

    /// The records of `bytes` cut at line feeds (the last one may lack its own).
    static func lines(_ bytes: [UInt8]) -> [[UInt8]] {
        var lines = bytes.split(separator: 0x0A, omittingEmptySubsequences: false).map(Array.init)
        if lines.last?.isEmpty == true { lines.removeLast() }
        return lines
    }

    /// `true` when `a` and `b` are equal ignoring ASCII case.
    static func equalIgnoringCase(_ a: some Collection<UInt8>, _ b: some Collection<UInt8>) -> Bool {
        func lower(_ c: UInt8) -> UInt8 { c >= 65 && c <= 90 ? c + 32 : c }
        return a.count == b.count && zip(a, b).allSatisfy { lower($0) == lower($1) }
    }

    @Test("the sample messages: each block's weights add up to its score, the verdict follows the threshold, and the matches are where it says")
    func sampleMessages() throws {
        let path = "Corpora/messages/sample.txt"
        let r = try CLI.run(["filter", "--explain", path])
        #expect(r.status == 0, "\(r.err)")
        let blocks = try Self.parse(r.out)
        let input = Self.lines(try [UInt8](Data(contentsOf: SharedCorpora.repositoryRoot.appendingPathComponent(path))))
        #expect(blocks.map(\.record) == Array(1...input.count))
        var spam = 0
        for block in blocks {
            let score = try #require(Double(block.score))
            let threshold = try #require(Double(block.threshold))
            #expect(block.threshold == "6.9523", "the built-in list's own threshold")
            let sum = block.rules.reduce(0) { $0 + Double($1.weight)! }
            #expect(abs(sum - score) < 1e-9, "record \(block.record): weights add to \(sum), score \(score)")
            #expect(block.spam == (score >= threshold), "record \(block.record)")
            if block.spam { spam += 1 }
            // The built-in list is -F -i -w: each first match is its pattern, any case.
            let record = input[block.record - 1]
            for line in block.rules {
                #expect(Self.equalIgnoringCase(record[line.start..<line.end], Array(line.pattern.utf8)),
                        "record \(block.record): \(line.pattern) at \(line.start):\(line.end)")
            }
            #expect(Set(block.rules.map(\.pattern)).count == block.rules.count, "each rule once")
        }
        #expect(spam > 0 && spam < blocks.count)
        // The verdicts are filter's own.
        #expect(try CLI.run(["filter", "--count", path]).out == "clean \(blocks.count - spam) spam \(spam)\n")
    }

    @Test("--json carries the same verdict, threshold and rules as --explain, with absolute offsets")
    func jsonMatchesExplain() throws {
        let path = "Corpora/messages/sample.txt"
        let explained = try Self.parse(try CLI.run(["filter", "--explain", path]).out)
        let json = try CLI.run(["filter", "--json", path])
        let bytes = try [UInt8](Data(contentsOf: SharedCorpora.repositoryRoot.appendingPathComponent(path)))
        let objects = try json.out.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
        #expect(objects.count == explained.count)
        var recordStart = 0
        for (object, block) in zip(objects, explained) {
            #expect(object["record"] as? Int == block.record)
            #expect(object["spam"] as? Bool == block.spam)
            #expect((object["score"] as? NSNumber)?.doubleValue == Double(block.score))
            #expect((object["threshold"] as? NSNumber)?.doubleValue == 6.9523)
            let rules = try #require(object["rules"] as? [[String: Any]])
            #expect(rules.map { $0["pattern"] as? String } == block.rules.map(\.pattern))
            #expect(rules.map { ($0["weight"] as? NSNumber)?.doubleValue } == block.rules.map { Double($0.weight) })
            // JSON offsets are absolute in the input; --explain's are within the record.
            #expect(rules.map { $0["start"] as? Int } == block.rules.map { recordStart + $0.start })
            #expect(rules.map { $0["end"] as? Int } == block.rules.map { recordStart + $0.end })
            for rule in rules {
                let id = try #require(rule["rule"] as? Int)
                #expect(id >= 0)
            }
            let end = bytes[recordStart...].firstIndex(of: 0x0A) ?? bytes.count
            recordStart = end + 1
        }
    }

    @Test("mail: each message explained by the mail list's scoped rules; threads change nothing")
    func mail() throws {
        let path = "Corpora/mail/sample.mbox"
        let r = try CLI.run(["filter", "--format", "mbox", "--explain", "--threads", "1", path])
        #expect(r.status == 0, "\(r.err)")
        let blocks = try Self.parse(r.out)
        #expect(blocks.count == 5)
        #expect(blocks.filter(\.spam).count == 2, "as filter --count says: clean 3 spam 2")
        for block in blocks {
            // The mail list combines its weights by chi-square: a score in 0...1, which
            // the listed weights give again.
            let weights = block.rules.map { Double($0.weight)! }
            #expect(abs(ScoreModel.chiSquare.score(weights: weights) - Double(block.score)!) < 1e-4, "message \(block.record)")
            #expect(block.threshold == "0.9")
        }
        #expect(blocks.flatMap(\.rules).contains { $0.pattern.hasPrefix("subject:") }, "scoped rules are named with their scope")
        let threaded = try CLI.run(["filter", "--format", "mbox", "--explain", "--threads", "3", path],
                                   environment: ["TURNSTILE_CHUNK_BYTES": "700"])
        #expect(threaded.stdout == r.stdout)
        let json = try CLI.run(["filter", "--format", "mbox", "--json", path])
        for line in json.out.split(separator: "\n") {
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            #expect((object["threshold"] as? NSNumber)?.doubleValue == 0.9)
            let rules = try #require(object["rules"] as? [[String: Any]])
            #expect(rules.allSatisfy { $0["start"] is Int && $0["end"] is Int && $0["weight"] is NSNumber })
        }
    }

    @Test("several inputs and standard input: each block starts with its file's name")
    func severalInputs() throws {
        let r = try CLI.run(["filter", "--explain", "Corpora/messages/sample.txt", "-"], stdin: "claim your prize now\n".bytes)
        let blocks = try Self.parse(r.out)
        #expect(blocks.first?.file == "Corpora/messages/sample.txt")
        #expect(blocks.last?.file == "(standard input)")
        #expect(blocks.last?.record == 1 && blocks.last?.spam == true)
        #expect(blocks.last?.rules.map(\.pattern).contains("claim your prize") == true)
    }

    @Test("a score is compared and printed at the decimals the weights carry: 0.7 + 0.1 reaches 0.8")
    func noFloatNoise() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let rules = try CLI.write("x\t0.7\ny\t0.1\na\t0.1\nb\t0.2\nc\t0.3\n".bytes, to: "r.tsv", in: dir)
        let args = ["filter", "-F", "-w", "--rules", rules, "--threshold", "0.8"]
        // In binary, 0.7 + 0.1 = 0.7999999999999999 and 0.1 + 0.2 + 0.3 = 0.6000000000000001.
        let explain = try CLI.run(args + ["--explain"], stdin: "x y\na b c\n".bytes)
        #expect(explain.out == """
            record 1: spam, score 0.8, threshold 0.8
              +0.7  0:1  x
              +0.1  2:3  y
            record 2: clean, score 0.6, threshold 0.8
              +0.1  0:1  a
              +0.2  2:3  b
              +0.3  4:5  c

            """)
        let json = try CLI.run(args + ["--json"], stdin: "x y\na b c\n".bytes)
        #expect(json.out.contains(#""spam":true,"score":0.8,"threshold":0.8,"#), "\(json.out)")
        #expect(json.out.contains(#""spam":false,"score":0.6,"threshold":0.8,"#), "\(json.out)")
        #expect(try CLI.run(args + ["--count"], stdin: "x y\na b c\n".bytes).out == "clean 1 spam 1\n")
        #expect(try CLI.run(args + ["--spam"], stdin: "x y\na b c\n".bytes).out == "x y\n")
    }

    @Test("a chi-square list's unsure band: a record neither spam nor below the ham cutoff is shown unsure, with the band's start")
    func unsureBand() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        // One strong token alone is never sure (ScoreModel: 4.6 alone scores about 0.886);
        // three reach the threshold; a ham token takes a record below the cutoff.
        let rules = try CLI.write("# model: chi-square\n# threshold: 0.9\nprize\t4.6\ncash\t4.6\nclaim\t4.6\nlunch\t-4.6\n".bytes,
                                  to: "chi.tsv", in: dir)
        let args = ["filter", "-F", "-w", "--rules", rules]
        let input = "claim your cash prize\nprize\nlunch lunch\n".bytes
        let explain = try CLI.run(args + ["--explain"], stdin: input)
        #expect(explain.status == 0, "\(explain.err)")
        let blocks = try Self.parse(explain.out)
        try #require(blocks.count == 3, "\(explain.out)")
        let headers = explain.out.split(separator: "\n").filter { $0.hasPrefix("record ") }
        #expect(headers[0].hasPrefix("record 1: spam, score "), "\(explain.out)")
        #expect(headers[1].hasPrefix("record 2: unsure, score 0.88"), "\(explain.out)")
        #expect(headers[1].hasSuffix(", threshold 0.9, unsure from 0.2"), "\(explain.out)")
        #expect(headers[2].hasPrefix("record 3: clean, score "), "\(explain.out)")
        #expect(!headers[2].contains("unsure"), "\(explain.out)")
        // The same verdicts as --count: unsure is not spam.
        #expect(try CLI.run(args + ["--count"], stdin: input).out == "clean 2 spam 1\n")
    }

    @Test("--json carries the unsure flag of a chi-square list, as --explain names it, for lines and for mail; a sum list has no band and no field")
    func jsonUnsureFlag() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let rules = try CLI.write("# model: chi-square\n# threshold: 0.9\nprize\t4.6\ncash\t4.6\nclaim\t4.6\nlunch\t-4.6\n".bytes,
                                  to: "chi.tsv", in: dir)
        let input = "claim your cash prize\nprize\nlunch lunch\n".bytes
        func objects(_ out: String) throws -> [[String: Any]] {
            try out.split(separator: "\n").map { line in
                try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "\(line)")
            }
        }
        let lines = try CLI.run(["filter", "-F", "-w", "--rules", rules, "--json"], stdin: input)
        #expect(lines.status == 0, "\(lines.err)")
        let plain = try objects(lines.out)
        try #require(plain.count == 3, "\(lines.out)")
        #expect(plain.map { $0["spam"] as? Bool } == [true, false, false], "\(lines.out)")
        #expect(plain.map { $0["unsure"] as? Bool } == [false, true, false], "\(lines.out)")
        // The field sits beside "spam", before the score.
        #expect(lines.out.contains(#""spam":false,"unsure":true,"score":0.88"#), "\(lines.out)")

        // Mail: the same three verdicts as messages of an mbox.
        let mbox = ["claim your cash prize", "prize", "lunch lunch"].map {
            "From a@example.org  Thu Jan  1 00:00:00 2026\nFrom: a@example.org\nSubject: hi\n\n\($0)\n\n"
        }.joined()
        let box = try CLI.write(mbox.bytes, to: "m.mbox", in: dir)
        let mail = try CLI.run(["filter", "--format", "mbox", "--rules", rules, "--json", box])
        #expect(mail.status == 0, "\(mail.err)")
        let judged = try objects(mail.out)
        try #require(judged.count == 3, "\(mail.out)")
        #expect(judged.map { $0["spam"] as? Bool } == [true, false, false], "\(mail.out)")
        #expect(judged.map { $0["unsure"] as? Bool } == [false, true, false], "\(mail.out)")
        let explained = try CLI.run(["filter", "--format", "mbox", "--rules", rules, "--explain", box]).out
            .split(separator: "\n").filter { $0.hasPrefix("record ") }
        #expect(explained.map { $0.contains(": unsure,") } == [false, true, false], "\(explained)")

        // A sum list has no unsure band, so no field.
        let sum = try CLI.write("prize\t1\n".bytes, to: "sum.tsv", in: dir)
        let summed = try CLI.run(["filter", "-F", "-w", "--rules", sum, "--threshold", "2", "--json"], stdin: input)
        #expect(!summed.out.contains("unsure"), "\(summed.out)")
    }

    @Test("JSON never holds inf or nan: a score beyond the doubles is clamped to the largest finite one")
    func jsonStaysValid() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let rules = try CLI.write("a\t1e308\nb\t1e308\nc\t-1e308\nd\t-1e308\n".bytes, to: "huge.tsv", in: dir)
        let r = try CLI.run(["filter", "-F", "-w", "--rules", rules, "--json"], stdin: "a b\nc d\n".bytes)
        #expect(r.status == 0, "\(r.err)")
        #expect(!r.out.contains("inf") && !r.out.contains("nan"), "\(r.out)")
        let objects = try r.out.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
        #expect((objects[0]["score"] as? NSNumber)?.doubleValue == Double.greatestFiniteMagnitude)
        #expect(objects[0]["spam"] as? Bool == true)
        #expect((objects[1]["score"] as? NSNumber)?.doubleValue == -Double.greatestFiniteMagnitude)
        #expect(objects[1]["spam"] as? Bool == false)
        let explain = try CLI.run(["filter", "-F", "-w", "--rules", rules, "--explain"], stdin: "a b\n".bytes)
        #expect(explain.out.hasPrefix("record 1: spam, score 1.7976931348623157e+308, threshold 1\n"), "\(explain.out)")
    }

    @Test("--mask and --color mark only rules of positive weight")
    func maskPositiveOnly() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let rules = try CLI.write("lunch\t-2\nhi\t-0.5\nprize\t3\nfree\t0\n".bytes, to: "r.tsv", in: dir)
        let args = ["filter", "-F", "-w", "-i", "--rules", rules]
        let mask = try CLI.run(args + ["--mask"], stdin: "Hi, free lunch or a prize?\n".bytes)
        #expect(mask.out == "Hi, free lunch or a *****?\n")
        let color = try CLI.run(args + ["--spam", "--color=always", "--threshold", "0"], stdin: "hi lunch prize\n".bytes)
        #expect(color.out == "hi lunch \u{1B}[01;31m\u{1B}[Kprize\u{1B}[m\u{1B}[K\n")
        // The built-in list weighs "still" and "lunch" towards ham: they stay readable.
        let builtin = try CLI.run(["filter", "--mask"], stdin: "are we still on for lunch\n".bytes)
        #expect(builtin.out.contains("still") && builtin.out.contains("lunch"), "\(builtin.out)")
    }

    @Test("--explain is one output mode among --spam, --mask, --count and --json")
    func exclusive() throws {
        for other in ["--json", "--spam", "--mask", "--count"] {
            let r = try CLI.run(["filter", "--explain", other], stdin: "a\n".bytes)
            #expect(r.status == 2 && r.out.isEmpty, "\(other)")
            #expect(r.err.contains("choose at most one of --spam, --mask, --count, --json and --explain"), "\(r.err)")
        }
        let help = try CLI.run(["filter", "--help"]).out
        #expect(help.contains("--explain"))
    }
}
