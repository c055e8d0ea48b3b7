import Foundation
import Testing
import TestSupport

/// `filter --format maildir --move-spam-to DIR` moves spam out of the source Maildir
/// by rename(2): each message is in exactly one of the two folders, byte for byte,
/// with its sub-folder and `:2,FLAGS` info; a rerun moves nothing twice.
@Suite("--move-spam-to moves Maildir spam by rename")
struct MaildirMoveTests {
    static func makeMaildir(_ url: URL) throws {
        for sub in ["cur", "new", "tmp"] {
            try FileManager.default.createDirectory(at: url.appendingPathComponent(sub), withIntermediateDirectories: true)
        }
    }

    static func files(_ box: URL) throws -> [String: [UInt8]] {
        var out: [String: [UInt8]] = [:]
        for sub in ["cur", "new", "tmp"] {
            let folder = box.appendingPathComponent(sub)
            for name in (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? [] {
                out[sub + "/" + name] = [UInt8](try Data(contentsOf: folder.appendingPathComponent(name)))
            }
        }
        return out
    }

    @Test("spam moves with its name and flags; ham stays; a rerun moves nothing; a taken name gets a fresh one")
    func moves() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let rules = try MailCommandTests.rules(in: dir)
        let box = dir.appendingPathComponent("Maildir"), junk = dir.appendingPathComponent("Junk")
        try Self.makeMaildir(box)
        let ham = "Subject: hello\r\n\r\nsee you\r\n", spamSeen = "Subject: hi\n\nbuy viagra\n", spamNew = "Subject: WINNER\n\nyes"
        try CLI.write(ham.bytes, to: "1.host:2,RS", in: box.appendingPathComponent("cur"))
        try CLI.write(spamSeen.bytes, to: "2.host:2,S", in: box.appendingPathComponent("cur"))
        try CLI.write(spamNew.bytes, to: "3.host", in: box.appendingPathComponent("new"))
        let args = ["filter", "--format", "maildir", "--count"] + MailCommandTests.ruleArgs(rules) + ["--move-spam-to", junk.path, box.path]

        let r = try CLI.run(args)
        #expect(r.status == 0, "\(r.err)")
        #expect(r.out == "clean 1 spam 2\n")
        #expect(try Self.files(box) == ["cur/1.host:2,RS": ham.bytes])
        #expect(try Self.files(junk) == ["cur/2.host:2,S": spamSeen.bytes, "new/3.host": spamNew.bytes])

        let again = try CLI.run(args)
        #expect(again.status == 1, "nothing left to move: \(again.err)")
        #expect(try Self.files(junk).count == 2)

        // The same name arrives again: it is not overwritten.
        try CLI.write(spamSeen.bytes, to: "2.host:2,S", in: box.appendingPathComponent("cur"))
        let third = try CLI.run(args)
        #expect(third.status == 0, "\(third.err)")
        let moved = try Self.files(junk)
        #expect(moved.count == 3)
        #expect(moved["cur/2.host:2,S"] == spamSeen.bytes)
        let fresh = moved.keys.filter { $0 != "cur/2.host:2,S" && $0.hasPrefix("cur/") }
        #expect(fresh.count == 1 && fresh[0].hasSuffix(":2,S"), "\(moved.keys.sorted())")
        #expect(fresh.first.flatMap { moved[$0] } == spamSeen.bytes)

        // The destination given as input too: its messages stay where they are.
        let inJunk = try CLI.run(["filter", "--format", "maildir", "--count"] + MailCommandTests.ruleArgs(rules)
                                 + ["--move-spam-to", junk.path, junk.path])
        #expect(inJunk.status == 0)
        #expect(try Self.files(junk) == moved)
    }

    @Test("--move-spam-to needs --format maildir and excludes --spam-to")
    func usage() throws {
        let a = try CLI.run(["filter", "--format", "mbox", "--move-spam-to", "/tmp/x", "Corpora/mail/sample.mbox"])
        #expect(a.status != 0 && a.err.contains("--move-spam-to needs --format maildir"))
        let b = try CLI.run(["filter", "--format", "maildir", "--move-spam-to", "/tmp/x", "--spam-to", "/tmp/y", "."])
        #expect(b.status != 0 && b.err.contains("choose one of --spam-to"))
    }
}
