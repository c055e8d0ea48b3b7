import Foundation
import Testing
import TestSupport

/// `turnstile eval` on hand-made labelled files (Corpora/eval/).
///
/// With Corpora/eval/rules.tsv (prize 1, winner 1, free 0.5, txt 0.5, lunch -1;
/// ids 0-4) and threshold 1, Corpora/eval/labelled.tsv scores:
///
///     spam  You are a WINNER! Claim your prize today   winner+prize        = 2    tp
///     spam  Free ringtones, txt TONE to 80808           free+txt            = 1    tp
///     spam  Win a free prize: reply now                 free+prize          = 1.5  tp
///     spam  Txt WIN for a prize, lunch on us            txt+prize+lunch     = 0.5  fn
///     spam  Prize draw closes soon                      prize               = 1    tp
///     spam  Winners get free txt credits                free+txt            = 1    tp  ("winners" is not "winner")
///     (blank line: skipped)
///     ham   Are we still on for lunch tomorrow?         lunch               = -1   tn
///     ham   The prize for the quiz was a book, lunch…   prize+lunch         = 0    tn
///     ham   I got a free coffee with my txt voucher     free+txt            = 1    fp
///     ham   See you at the station                                          = 0    tn
///     ham   The winning team buys dinner                                    = 0    tn
///     ham   Can you send me the free tickets?           free                = 0.5  tn
///
/// so tp 5, fp 1, tn 5, fn 1: precision = recall = F1 = accuracy = 5/6.
@Suite("turnstile eval")
struct EvalCommandTests {
    static let labelled = "Corpora/eval/labelled.tsv"
    static let rules = ["-F", "-w", "-i", "--rules", "Corpora/eval/rules.tsv"]

    /// Issue 16: labelled records were read whole whatever their length (the reader's
    /// limit was Int.max). Now a record past --max-record-bytes is used by its head,
    /// as filter judges it, with one warning: here "prize winner" sits in the head of a
    /// 3 MB spam line and still counts, and the line after it is read normally.
    @Test("a labelled record longer than --max-record-bytes is used by its head, with a warning")
    func longRecordHead() throws {
        let dir = try CLI.temporaryDirectory()
        let long = "spam\tprize winner " + String(repeating: "z", count: 3_000_000) + "\n"
        let file = try CLI.write(Array((long + "ham\tsee you at lunch\n").utf8), to: "long.tsv", in: dir)
        let r = try CLI.run(["eval"] + Self.rules + ["--max-record-bytes", "1048576", file])
        #expect(r.status == 0, "\(r.err)")
        #expect(r.out.hasPrefix("records 2: 1 spam, 1 ham;"), "\(r.out)")
        #expect(r.out.contains("tp 1  fp 0  tn 1  fn 0\n"), "\(r.out)")
        #expect(r.err.contains("a record longer than 1048576 bytes was used only in its first 1048576 bytes"), "\(r.err)")
        let bad = try CLI.run(["eval"] + Self.rules + ["--max-record-bytes", "0", file])
        #expect(bad.status != 0 && bad.err.contains("--max-record-bytes must be at least 1"), "\(bad.err)")
    }

    @Test("the exact confusion matrix and figures of a hand-made file")
    func exactMatrix() throws {
        let r = try CLI.run(["eval"] + Self.rules + [Self.labelled])
        #expect(r.status == 0, "\(r.err)")
        #expect(r.err.isEmpty)
        #expect(r.out.hasPrefix("records 12: 6 spam, 6 ham; threshold 1, 5 rules\n"))
        #expect(r.out.contains("actual spam             5           1\n"))
        #expect(r.out.contains("actual ham              1           5\n"))
        #expect(r.out.contains("tp 5  fp 1  tn 5  fn 1\n"))
        #expect(r.out.contains("precision 0.8333\nrecall    0.8333\nF1        0.8333\naccuracy  0.8333\n"))
    }

    @Test("the rules of positive weight that fired most on ham and on spam, most first, ties by rule id")
    func topRules() throws {
        let r = try CLI.run(["eval"] + Self.rules + [Self.labelled])
        let ham = """
            Rules of positive weight that fired in the most ham records (false-positive culprits):
                   ham  judged spam  weight  rule
                     2            1     0.5  free
                     1            0       1  prize
                     1            1     0.5  txt

            """
        let spam = """
            Rules of positive weight that fired in the most spam records:
                  spam  caught    weight  rule
                     4       3         1  prize
                     3       3       0.5  free
                     3       2       0.5  txt
                     1       1         1  winner

            """
        #expect(r.out.contains(ham))
        #expect(r.out.hasSuffix(spam))
        let one = try CLI.run(["eval", "--top", "1"] + Self.rules + [Self.labelled])
        #expect(one.out.contains("(false-positive culprits):\n       ham  judged spam  weight  rule\n         2            1     0.5  free\n\n"))
    }

    @Test("--json: the first keys are exactly tp, fp, tn, fn, precision, recall, f1, accuracy")
    func jsonKeyOrder() throws {
        let r = try CLI.run(["eval", "--json"] + Self.rules + [Self.labelled])
        #expect(r.status == 0)
        #expect(r.out.hasPrefix(
            "{\"tp\":5,\"fp\":1,\"tn\":5,\"fn\":1,\"precision\":0.8333333333333334,\"recall\":0.8333333333333334,\"f1\":0.8333333333333334,\"accuracy\":0.8333333333333334,"))
        #expect(r.out.hasSuffix("}\n"))
        let object = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout)) as? [String: Any])
        #expect(object["records"] as? Int == 12)
        let hamRules = try #require(object["top_ham_rules"] as? [[String: Any]])
        // "lunch" (weight -1) fired in two ham records too, but pulls scores down: no culprit.
        #expect(hamRules.map { $0["pattern"] as? String } == ["free", "prize", "txt"])
        #expect(hamRules.first?["false_positives"] as? Int == 1)
        let spamRules = try #require(object["top_spam_rules"] as? [[String: Any]])
        #expect(spamRules.first?["rule"] as? Int == 0)
        #expect(spamRules.first?["caught"] as? Int == 3)
        // The key order is checked on the bytes: the first eight keys, in order.
        let keys = r.out.split(separator: ",").prefix(8).map { $0.split(separator: ":")[0] }
        #expect(keys == ["{\"tp\"", "\"fp\"", "\"tn\"", "\"fn\"", "\"precision\"", "\"recall\"", "\"f1\"", "\"accuracy\""])
    }

    @Test("--spam FILE --ham FILE with any --delimiter give the same matrix as the labelled file")
    func spamAndHamFiles() throws {
        let dir = try CLI.temporaryDirectory()
        let lines = String(decoding: try Data(contentsOf: SharedCorpora.repositoryRoot.appendingPathComponent(Self.labelled)), as: UTF8.self)
            .split(separator: "\n")
        func texts(_ label: String) -> [String] {
            lines.filter { $0.hasPrefix(label + "\t") }.map { String($0.dropFirst(label.count + 1)) }
        }
        let spamLines = try CLI.write((texts("spam").joined(separator: "\n") + "\n").bytes, to: "spam.txt", in: dir)
        let hamLines = try CLI.write((texts("ham").joined(separator: "\n") + "\n").bytes, to: "ham.txt", in: dir)
        let r = try CLI.run(["eval", "--json"] + Self.rules + ["--spam", spamLines, "--ham", hamLines])
        #expect(r.out.hasPrefix("{\"tp\":5,\"fp\":1,\"tn\":5,\"fn\":1,"), "\(r.err)")

        // NUL-terminated records, and a folder of one-message files.
        let spamNul = try CLI.write(texts("spam").map { $0 + "\u{0}" }.joined().bytes, to: "spam.nul", in: dir)
        let hamNul = try CLI.write(texts("ham").map { $0 + "\u{0}" }.joined().bytes, to: "ham.nul", in: dir)
        let nul = try CLI.run(["eval", "--json", "--delimiter", "nul"] + Self.rules + ["--spam", spamNul, "--ham", hamNul])
        #expect(nul.out.hasPrefix("{\"tp\":5,\"fp\":1,\"tn\":5,\"fn\":1,"), "\(nul.err)")
        let folder = dir.appendingPathComponent("hamdir")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for (i, text) in texts("ham").enumerated() { try CLI.write(text.bytes, to: "m\(i)", in: folder) }
        let whole = try CLI.run(["eval", "--json", "--delimiter", "none"] + Self.rules
            + ["--spam", spamNul, "--ham", folder.path])
        // With --delimiter none the NUL file is one spam record containing every spam message.
        #expect(whole.out.hasPrefix("{\"tp\":1,\"fp\":1,\"tn\":5,\"fn\":0,"), "\(whole.err)")
    }

    @Test("with no rule option the built-in list and its own threshold are used")
    func defaultList() throws {
        let r = try CLI.run(["eval", "--json", Self.labelled])
        #expect(r.status == 0)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(r.stdout)) as? [String: Any])
        #expect(object["records"] as? Int == 12)
        #expect((object["threshold"] as? Double).map { $0 > 1 } == true, "the default list carries its own threshold")
    }

    @Test("stdin is read when no input is given; CRLF line ends are accepted")
    func stdinAndCRLF() throws {
        let input = "spam\tYou are a winner\r\nham\thello there\r\n".bytes
        let r = try CLI.run(["eval", "--json"] + Self.rules, stdin: input)
        #expect(r.out.hasPrefix("{\"tp\":1,\"fp\":0,\"tn\":1,\"fn\":0,\"precision\":1,\"recall\":1,\"f1\":1,\"accuracy\":1,"))
        let empty = try CLI.run(["eval", "--json"] + Self.rules, stdin: [])
        #expect(empty.status == 0)
        #expect(empty.out.hasPrefix("{\"tp\":0,\"fp\":0,\"tn\":0,\"fn\":0,\"precision\":0,\"recall\":0,\"f1\":0,\"accuracy\":0,"))
    }

    @Test("an unknown label is an error naming the line; exit status 2")
    func unknownLabel() throws {
        let r = try CLI.run(["eval"] + Self.rules, stdin: "spam\twin\nham\tok\n\nspma\toops\n".bytes)
        #expect(r.status == 2)
        #expect(r.stdout.isEmpty)
        #expect(r.err == "turnstile: (standard input), line 4: unknown label \"spma\" (expected spam or ham before the TAB)\n")
        let noTab = try CLI.run(["eval"] + Self.rules, stdin: "spam win\n".bytes)
        #expect(noTab.status == 2)
        #expect(noTab.err.contains("line 1: no label"))
        let dir = try CLI.temporaryDirectory()
        let nul = try CLI.write("spam\ta\u{0}junk\tb\u{0}".bytes, to: "x.nul", in: dir)
        let record = try CLI.run(["eval", "--delimiter", "nul"] + Self.rules + [nul])
        #expect(record.status == 2)
        #expect(record.err.contains("x.nul, record 2: unknown label \"junk\""))
    }

    @Test("a missing file, a missing rules file and bad options exit 2")
    func errors() throws {
        let missing = try CLI.run(["eval", "no-such-file.tsv"])
        #expect(missing.status == 2)
        #expect(missing.err.contains("no-such-file.tsv"))
        #expect(missing.stdout.isEmpty)
        let missingSpam = try CLI.run(["eval", "--spam", "no-such-spam.txt", "--ham", Self.labelled])
        #expect(missingSpam.status == 2)
        let rules = try CLI.run(["eval", "-F", "--rules", "no-such-rules.tsv", Self.labelled])
        #expect(rules.status == 2)
        #expect(try CLI.run(["eval", "--threshold", "nan", Self.labelled]).status == 2)
        #expect(try CLI.run(["eval", "--help"]).out.contains("turnstile eval"))
    }
}
