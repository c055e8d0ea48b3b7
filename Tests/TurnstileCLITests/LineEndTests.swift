import Foundation
import Testing
import TestSupport

/// Line ends and edge messages: CR-only and mixed line ends are read (and counted),
/// every message — an empty one too — gets its verdict, and mbox output is the input
/// byte for byte, a last message without a final line end included.
@Suite("mail line ends, empty messages, byte-for-byte mbox output")
struct LineEndTests {
    @Test("CR-only: fields and body read, cr_line_ends counted; mixed: mixed_line_ends counted")
    func crOnly() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let rules = try MailCommandTests.rules(in: dir)
        let cr = "Subject: WINNER\rFrom: a@b\r\rhello\r"
        let r = try CLI.run(["filter", "--format", "eml", "--json"] + MailCommandTests.ruleArgs(rules) + ["-"], stdin: cr.bytes)
        #expect(r.out.contains("\"spam\":true") && r.out.contains("\"pattern\":\"subject:winner\""), "\(r.out)")
        #expect(r.out.contains("\"problems\":{\"cr_line_ends\":1}"), "\(r.out)")
        let mixed = "Subject: hi\r\nTo: b\n\nbuy viagra\r\n"
        let m = try CLI.run(["filter", "--format", "eml", "--json"] + MailCommandTests.ruleArgs(rules) + ["-"], stdin: mixed.bytes)
        #expect(m.out.contains("\"spam\":true") && m.out.contains("\"problems\":{\"mixed_line_ends\":1}"), "\(m.out)")
        let tagged = try CLI.run(["filter", "--format", "eml", "--tag"] + MailCommandTests.ruleArgs(rules) + ["-"], stdin: cr.bytes)
        #expect(tagged.out == "Subject: WINNER\rFrom: a@b\rX-Spam-Status: Yes, score=2 required=2 tests=subject:winner\rX-Spam-Flag: YES\r\rhello\r")
    }

    @Test("an empty message gets its verdict line: standard input, an empty .eml file, an empty Maildir file")
    func emptyMessage() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let stdin = try CLI.run(["filter", "--format", "eml", "--json", "-"])
        #expect(stdin.out.hasPrefix("{\"record\":1,\"spam\":false,"), "\(stdin.out)")
        let explain = try CLI.run(["filter", "--format", "eml", "--explain", "-"])
        // No evidence at all: the chi-square mail list's "don't know", 0.5, in its unsure band.
        #expect(explain.out == "record 1: unsure, score 0.5, threshold 0.9, unsure from 0.2\n", "\(explain.out)")
        let box = dir.appendingPathComponent("Maildir")
        try MaildirMoveTests.makeMaildir(box)
        try CLI.write([], to: "1.host", in: box.appendingPathComponent("new"))
        try CLI.write("Subject: hi\n\nthere\n".bytes, to: "2.host", in: box.appendingPathComponent("new"))
        let maildir = try CLI.run(["filter", "--format", "maildir", "--json", "-j", "2", box.path])
        #expect(maildir.out.split(separator: "\n").count == 2, "\(maildir.out)")
        let tag = try CLI.run(["filter", "--format", "eml", "--tag", "-"])
        #expect(tag.status == 0 && tag.out.hasPrefix("X-Spam-Status: No, score=0"))
    }

    @Test("mbox: a last message without a final line end passes through as it is (clean, --spam, --tag)")
    func noFinalNewline() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let rules = try MailCommandTests.rules(in: dir)
        let ham = "From a  Thu Jan  1 00:00:00 2002\nSubject: hi\n\nno final newline"
        let spam = "From a  Thu Jan  1 00:00:00 2002\nSubject: hi\n\nbuy viagra"
        let hamPath = try CLI.write(ham.bytes, to: "ham.mbox", in: dir)
        let spamPath = try CLI.write(spam.bytes, to: "spam.mbox", in: dir)
        let args = ["filter", "--format", "mbox"] + MailCommandTests.ruleArgs(rules)
        #expect(try CLI.run(args + [hamPath]).out == ham)
        #expect(try CLI.run(args + ["--spam", spamPath]).out == spam)
        #expect(try CLI.run(args + ["--tag", hamPath]).out == "From a  Thu Jan  1 00:00:00 2002\nSubject: hi\nX-Spam-Status: No, score=0 required=2 tests=none\n\nno final newline")
    }
}
