import Foundation
import Testing
import TestSupport

/// `filter --tag`: every message written back with `X-Spam-Status` (and `X-Spam-Flag`
/// for spam) added at the end of its header, in its own line ending; nothing else
/// changes, nothing is held back, and a message that cannot be tagged goes on unchanged.
@Suite("filter --tag writes every message back, tagged")
struct TagTests {
    /// `tagged` with every line that starts with `prefix-` (and its continuation
    /// lines) removed: the input again, when the tagging added only its fields.
    static func untag(_ tagged: [UInt8], prefix: String = "X-Spam-") -> [UInt8] {
        var out: [UInt8] = []
        var i = 0
        var dropping = false
        while i < tagged.count {
            var j = i
            while j < tagged.count, tagged[j] != 0x0A, !(tagged[j] == 0x0D && (j + 1 >= tagged.count || tagged[j + 1] != 0x0A)) { j += 1 }
            let next = min(j + 1, tagged.count)
            let line = Array(tagged[i..<next])
            let isContinuation = line.first == 0x09 || line.first == 0x20
            if line.starts(with: Array(prefix.utf8)) { dropping = true } else if !(dropping && isContinuation) { dropping = false }
            if !dropping { out += line }
            i = next
        }
        return out
    }

    @Test("mbox: every message written, input = output minus the added fields, one X-Spam-Flag per spam message, exit 0")
    func mbox() throws {
        let input = [UInt8](try Data(contentsOf: SharedCorpora.ownCorpora.appendingPathComponent("mail/sample.mbox")))
        let r = try CLI.run(["filter", "--format", "mbox", "--tag", "Corpora/mail/sample.mbox"])
        #expect(r.status == 0, "\(r.err)")
        #expect(Self.untag(r.stdout) == input)
        #expect(r.out.components(separatedBy: "\nX-Spam-Status: ").count - 1 == 5)
        #expect(r.out.components(separatedBy: "\nX-Spam-Flag: YES\n").count - 1 == 2)
        let verdict = try CLI.run(["filter", "--format", "mbox", "--tag", "--exit-verdict", "Corpora/mail/sample.mbox"])
        #expect(verdict.status == 0, "bogofilter: 0 = spam found")
        #expect(verdict.stdout == r.stdout)
    }

    @Test("one message on standard input: CRLF kept, earlier X-Spam fields replaced, --tag-prefix, --exit-verdict 0/1")
    func standardInput() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let rules = try MailCommandTests.rules(in: dir)
        let spam = "Subject: hi\r\nX-Spam-Flag: YES\r\nX-Spam-Status: Yes, score=99\r\n\ttests=OLD\r\nTo: a@b\r\n\r\nbuy viagra\r\n"
        let r = try CLI.run(["filter", "--format", "eml", "--tag"] + MailCommandTests.ruleArgs(rules) + ["-"], stdin: spam.bytes)
        #expect(r.status == 0, "\(r.err)")
        #expect(r.out == "Subject: hi\r\nTo: a@b\r\nX-Spam-Status: Yes, score=2 required=2 tests=viagra\r\nX-Spam-Flag: YES\r\n\r\nbuy viagra\r\n")
        let ham = "Subject: lunch\n\nsee you\n"
        let clean = try CLI.run(["filter", "--format", "eml", "--tag", "--exit-verdict", "--tag-prefix", "X-Turnstile"]
                                + MailCommandTests.ruleArgs(rules) + ["-"], stdin: ham.bytes)
        #expect(clean.status == 1, "bogofilter: 1 = clean")
        #expect(clean.out == "Subject: lunch\nX-Turnstile-Status: No, score=0 required=2 tests=none\n\nsee you\n")
        let spamVerdict = try CLI.run(["filter", "--format", "eml", "--tag", "--exit-verdict"] + MailCommandTests.ruleArgs(rules) + ["-"],
                                      stdin: spam.bytes)
        #expect(spamVerdict.status == 0)
    }

    @Test("a header longer than --max-record-bytes: the message unchanged, a warning, exit 0; rules that cannot be read: exit 75")
    func failures() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let rules = try MailCommandTests.rules(in: dir)
        let long = ("Subject: " + String(repeating: "x", count: 100_000) + "\n\nbuy viagra\n").bytes
        let r = try CLI.run(["filter", "--format", "eml", "--tag", "--max-record-bytes", "4096"] + MailCommandTests.ruleArgs(rules) + ["-"],
                            stdin: long)
        #expect(r.status == 0)
        #expect(r.stdout == long)
        #expect(r.err.contains("written untagged"), "\(r.err)")
        let verdict = try CLI.run(["filter", "--format", "eml", "--tag", "--exit-verdict", "--max-record-bytes", "4096"]
                                  + MailCommandTests.ruleArgs(rules) + ["-"], stdin: long)
        #expect(verdict.status == 2 && verdict.stdout == long)
        let message = "Subject: hi\n\nbody\n".bytes
        let noRules = try CLI.run(["filter", "--format", "eml", "--tag", "--rules", dir.appendingPathComponent("missing.tsv").path, "-"],
                                  stdin: message)
        // A configuration error is exit 75 with nothing written, so the recipe hands the
        // message back to the MTA (issue 46; DeliveryRecipeTests runs it with procmail).
        #expect(noRules.status == 75)
        #expect(noRules.stdout.isEmpty)
        #expect(noRules.err.contains("missing.tsv"))
    }

    @Test("--tag is refused with the modes that hold messages back or print verdicts")
    func usage() throws {
        for extra in [["--spam"], ["--count"], ["--json"], ["--spam-to", "/tmp/x"]] {
            let r = try CLI.run(["filter", "--format", "mbox", "--tag"] + extra + ["Corpora/mail/sample.mbox"])
            #expect(r.status != 0 && r.err.contains("--tag"), "\(extra): \(r.err)")
        }
        let lines = try CLI.run(["filter", "--tag", "Corpora/mail/sample.mbox"])
        #expect(lines.status != 0 && lines.err.contains("--tag needs --format"))
        let prefix = try CLI.run(["filter", "--format", "eml", "--tag", "--tag-prefix", "X Bad", "-"])
        #expect(prefix.status != 0 && prefix.err.contains("--tag-prefix must be"))
    }
}
