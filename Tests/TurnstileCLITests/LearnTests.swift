import Foundation
import Testing
import TestSupport

/// `turnstile learn` and `--db`: the database is checked with the real `sqlite3` CLI
/// (Debian's sqlite3, installed by `make deps`), the list against `train` itself.
@Suite("turnstile learn", .serialized)
struct LearnTests {
    static let sqlite3 = "/usr/bin/sqlite3"

    /// The first `count` messages of each shared SpamAssassin mbox, as mbox files in `dir`.
    static func mboxPair(count: Int, in dir: URL) throws -> (spam: String, ham: String)? {
        guard let spam = SharedCorpora.bytes("spamassassin/spam.mbox"), let ham = SharedCorpora.bytes("spamassassin/ham.mbox") else {
            return nil
        }
        let s = ServeTests.messages(ofMbox: spam, limit: count).flatMap { $0 }
        let h = ServeTests.messages(ofMbox: ham, limit: count).flatMap { $0 }
        return (try CLI.write(s, to: "spam.mbox", in: dir), try CLI.write(h, to: "ham.mbox", in: dir))
    }

    func sql(_ db: String, _ query: String) throws -> String {
        let r = try runTool(Self.sqlite3, [db, query])
        #expect(r.status == 0, "sqlite3: \(r.err)")
        return r.out.trimmingCharacters(in: .whitespacesAndNewlines)
    }

    @Test("a database seeded with learn gives train's rules, byte for byte; filter --db judges as filter --rules at the built-in threshold", .enabled(if: SharedCorpora.isAvailable, "needs ../shared/corpora (see its SOURCES.md)"))
    func learnEqualsTrain() throws {
        let dir = try CLI.temporaryDirectory()
        let (spam, ham) = try #require(try Self.mboxPair(count: 150, in: dir))
        let trained = try CLI.run(["train", "--format", "mbox", "--spam", spam, "--ham", ham, "-o", dir.appendingPathComponent("trained.tsv").path])
        #expect(trained.status == 0, "\(trained.err)")
        let db = dir.appendingPathComponent("learned.db").path
        let a = try CLI.run(["learn", "--db", db, "--format", "mbox", "--spam", spam])
        #expect(a.status == 0)
        #expect(a.err == "turnstile learn: learned 150; the database holds 150 spam and 0 ham\n")
        let b = try CLI.run(["learn", "--db", db, "--format", "mbox", "--ham", ham])
        #expect(b.err == "turnstile learn: learned 150; the database holds 150 spam and 150 ham\n")
        let list = try CLI.run(["learn", "--db", db, "--list"])
        let expected = try String(contentsOf: dir.appendingPathComponent("trained.tsv"), encoding: .utf8)
        // The same rules, byte for byte; the threshold is the built-in list's, not one
        // chosen on the learned messages (learning never moves it, issue 37).
        let rulesOnly = { (text: String) in text.split(separator: "\n").filter { !$0.hasPrefix("#") } }
        #expect(rulesOnly(list.out) == rulesOnly(expected))
        #expect(list.out.hasPrefix("# threshold: 0.90000\n# flags: -F -i -w\n# model: chi-square\n"), "\(list.out.prefix(80))")
        #expect(list.out.split(separator: "\n").count > 100)
        // The database, read by SQLite itself.
        #expect(try sql(db, "PRAGMA journal_mode") == "wal")
        #expect(try sql(db, "PRAGMA integrity_check") == "ok")
        #expect(try sql(db, "SELECT count(*) FROM messages WHERE spam = 1") == "150")
        #expect(try sql(db, "SELECT count(*) FROM messages WHERE spam = 0") == "150")
        // No token is in more messages of a class than the class has.
        #expect(try sql(db, "SELECT count(*) FROM tokens WHERE spam > 150 OR ham > 150 OR spam < 0 OR ham < 0 OR spam + ham = 0") == "0")
        #expect(try Int(sql(db, "SELECT count(*) FROM tokens"))! > 1000)
        // filter --db judges every message as filter with the trained file and the built-in
        // present-day rules after it (Scripts/merge-mail-rules.sh, as the built-in list is made).
        let merged = try runTool("/bin/sh", ["Scripts/merge-mail-rules.sh", dir.appendingPathComponent("trained.tsv").path,
                                             "Corpora/spam/builtin-mail-rules.txt"])
        #expect(merged.status == 0, "\(merged.err)")
        let mergedFile = try CLI.write(Array(merged.out.utf8), to: "merged.tsv", in: dir)
        let viaDB = try CLI.run(["filter", "--format", "mbox", "--db", db, "--json", spam, ham])
        let viaFile = try CLI.run(["filter", "--format", "mbox", "--rules", mergedFile, "--json", spam, ham])
        #expect(viaDB.status == 0 && !viaDB.out.isEmpty)
        #expect(viaDB.out == viaFile.out)
    }

    @Test("learning twice counts once, the other class moves, --forget takes it back", .enabled(if: SharedCorpora.isAvailable, "needs ../shared/corpora (see its SOURCES.md)"))
    func relearnAndForget() throws {
        let dir = try CLI.temporaryDirectory()
        let (spam, ham) = try #require(try Self.mboxPair(count: 40, in: dir))
        let db = dir.appendingPathComponent("learned.db").path
        _ = try CLI.run(["learn", "--db", db, "--format", "mbox", "--spam", spam])
        _ = try CLI.run(["learn", "--db", db, "--format", "mbox", "--ham", ham])
        let before = try CLI.run(["learn", "--db", db, "--list"]).out
        let tokensBefore = try sql(db, "SELECT group_concat(hex(token) || ':' || spam || ':' || ham) FROM (SELECT * FROM tokens ORDER BY token)")
        let again = try CLI.run(["learn", "--db", db, "--format", "mbox", "--spam", spam])
        #expect(again.err == "turnstile learn: already learned 40; the database holds 40 spam and 40 ham\n")
        let one = try CLI.write(ServeTests.messages(ofMbox: Array(try Data(contentsOf: URL(fileURLWithPath: spam))), limit: 1)[0],
                                to: "one.mbox", in: dir)
        let moved = try CLI.run(["learn", "--db", db, "--format", "mbox", "--ham", one])
        #expect(moved.err == "turnstile learn: moved 1; the database holds 39 spam and 41 ham\n")
        #expect(try CLI.run(["learn", "--db", db, "--list"]).out != before)
        let forgotten = try CLI.run(["learn", "--db", db, "--format", "mbox", "--forget", one])
        #expect(forgotten.err == "turnstile learn: forgotten 1; the database holds 39 spam and 40 ham\n")
        let back = try CLI.run(["learn", "--db", db, "--format", "mbox", "--spam", one])
        #expect(back.err == "turnstile learn: learned 1; the database holds 40 spam and 40 ham\n")
        #expect(try CLI.run(["learn", "--db", db, "--list"]).out == before)
        #expect(try sql(db, "SELECT group_concat(hex(token) || ':' || spam || ':' || ham) FROM (SELECT * FROM tokens ORDER BY token)") == tokensBefore)
    }

    @Test("kill -9 during learn leaves a database that opens with every earlier learn kept",
          .enabled(if: SharedCorpora.isAvailable, "needs ../shared/corpora (see its SOURCES.md)"))
    func killDuringLearn() throws {
        let dir = try CLI.temporaryDirectory()
        let (spam, _) = try #require(try Self.mboxPair(count: 50, in: dir))
        let bigHam = try #require(SharedCorpora.bytes("spamassassin/ham.mbox"))
        let ham = try CLI.write(bigHam, to: "all-ham.mbox", in: dir)
        let db = dir.appendingPathComponent("learned.db").path
        #expect(try CLI.run(["learn", "--db", db, "--format", "mbox", "--spam", spam]).status == 0)
        let process = try ChildProcess.start(CLI.binary, ["learn", "--db", db, "--format", "mbox", "--ham", ham], stderr: .discard)
        // Kill it once some ham is committed, while it is still learning.
        var waited = 0
        while waited < 600, (try? Int(sql(db, "SELECT count(*) FROM messages WHERE spam = 0"))) ?? 0 < 20, process.isRunning {
            usleep(20_000); waited += 1
        }
        #expect(process.isRunning, "learn finished before it could be killed")
        process.signal(SIGKILL)
        #expect(process.wait().reason == .uncaughtSignal)
        #expect(try sql(db, "PRAGMA integrity_check") == "ok")
        #expect(try sql(db, "SELECT count(*) FROM messages WHERE spam = 1") == "50")
        let hams = try Int(sql(db, "SELECT count(*) FROM messages WHERE spam = 0"))!
        #expect(hams >= 20 && hams < 2019)
        // Each committed message's tokens are counted: the counts agree with the messages.
        #expect(try Int(sql(db, "SELECT max(ham) FROM tokens"))! <= hams)
        // learn resumes: the rest is learned, the committed ones are not counted twice.
        let resumed = try CLI.run(["learn", "--db", db, "--format", "mbox", "--ham", ham])
        #expect(resumed.status == 0)
        #expect(resumed.err.contains("already learned \(hams)"), "\(resumed.err)")
    }

    @Test("serve --db --allow-tell: spamc -L learns through TELL and the list is swapped in", .enabled(if: SharedCorpora.isAvailable, "needs ../shared/corpora (see its SOURCES.md)"))
    func tellLearns() throws {
        let dir = try CLI.temporaryDirectory()
        let (spam, ham) = try #require(try Self.mboxPair(count: 30, in: dir))
        let db = dir.appendingPathComponent("learned.db").path
        _ = try CLI.run(["learn", "--db", db, "--format", "mbox", "--spam", spam])
        _ = try CLI.run(["learn", "--db", db, "--format", "mbox", "--ham", ham])
        let server = try ServerProcess(["--db", db, "--allow-tell", "--tell-from", "127.0.0.1/32"])
        defer { server.stop() }
        let message = Array("Subject: zanzibar quokka offer\r\nFrom: x@example.org\r\n\r\nzanzibar quokka offer today\r\n".utf8)
        let told = try runTool(ServeTests.spamc, ["-d", "127.0.0.1", "-p", "\(server.port)", "-L", "spam"], stdin: message)
        #expect(told.status == 0, "\(told.out)\(told.err)")
        #expect(told.out.contains("Message successfully un/learned"))
        #expect(try sql(db, "SELECT count(*) FROM messages WHERE spam = 1") == "31")
        let again = try runTool(ServeTests.spamc, ["-d", "127.0.0.1", "-p", "\(server.port)", "-L", "spam"], stdin: message)
        #expect(again.out.contains("Message was already un/learned"))
        // The server now judges with the list of the updated database, as filter --db does.
        let file = try CLI.write(message, to: "m.eml", in: dir)
        let expected = try CLI.run(["filter", "--format", "eml", "--db", db, "--count", file]).out == "clean 0 spam 1\n"
        let check = try runTool(ServeTests.spamc, ["-d", "127.0.0.1", "-p", "\(server.port)", "-c"], stdin: message)
        #expect(check.status == (expected ? 1 : 0))
        let forget = try runTool(ServeTests.spamc, ["-d", "127.0.0.1", "-p", "\(server.port)", "-L", "forget"], stdin: message)
        #expect(forget.out.contains("Message successfully un/learned"))
        #expect(try sql(db, "SELECT count(*) FROM messages WHERE spam = 1") == "30")
    }

    @Test("learn --list into a pipe closed early (| head -1) stops quietly with 0", .enabled(if: SharedCorpora.isAvailable, "needs ../shared/corpora (see its SOURCES.md)"))
    func listIntoClosedPipe() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let (spam, ham) = try #require(try Self.mboxPair(count: 5000, in: dir))
        let db = dir.appendingPathComponent("learned.db").path
        _ = try CLI.run(["learn", "--db", db, "--format", "mbox", "--spam", spam])
        _ = try CLI.run(["learn", "--db", db, "--format", "mbox", "--ham", ham])
        let whole = try CLI.run(["learn", "--db", db, "--list"]).stdout
        // The list must not fit in the pipe, or the write would succeed before the close.
        try #require(whole.count > 65536, "the list is \(whole.count) bytes")
        let result = try CLI.stream(["learn", "--db", db, "--list"], feed: { _ in }, consume: { handle in
            _ = try? handle.read(upToCount: 100)
        })
        #expect(result.reason == .exit, "not killed by SIGPIPE")
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty, "\(result.stderr)")
    }

    @Test("a database learn creates is readable by its owner only (0600)")
    func createdPrivate() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let db = dir.appendingPathComponent("learned.db").path
        let eml = try CLI.write(Array("Subject: hi\r\n\r\nlunch?\r\n".utf8), to: "m.eml", in: dir)
        let learned = try CLI.run(["learn", "--db", db, "--ham", eml])
        #expect(learned.status == 0, "\(learned.err)")
        let mode = try FileManager.default.attributesOfItem(atPath: db)[.posixPermissions] as? Int
        #expect(mode == 0o600, "mode \(String(mode ?? -1, radix: 8))")
    }

    @Test("bad input: one sentence, exit 2")
    func badInput() throws {
        let dir = try CLI.temporaryDirectory()
        let notDB = try CLI.write(Array("hello".utf8), to: "x.db", in: dir)
        let r = try CLI.run(["learn", "--db", notDB, "--list"])
        #expect(r.status == 2)
        #expect(r.err.hasPrefix("turnstile: \(notDB): "), "\(r.err)")
        let none = try CLI.run(["learn", "--db", dir.appendingPathComponent("y.db").path, "--spam"])
        #expect(none.status == 2)
        #expect(none.err.contains("name the message files to learn"))
        let both = try CLI.run(["learn", "--db", "z.db", "--spam", "--ham", "a.eml"])
        #expect(both.err.contains("give one of --spam, --ham, --forget and --list"))
        // A missing --db-dir is named, as serve names it, not created.
        let noFolder = dir.appendingPathComponent("users").path
        let missing = try CLI.run(["learn", "--db-dir", noFolder, "--user", "alice", "--spam", notDB])
        #expect(missing.status == 2)
        #expect(missing.err == "turnstile: \(noFolder): no such folder (--db-dir)\n", "\(missing.err)")
        #expect(!FileManager.default.fileExists(atPath: noFolder))
        let lines = try CLI.run(["filter", "--db", "z.db"], stdin: Array("x\n".utf8))
        #expect(lines.status == 2)
        #expect(lines.err.contains("--db needs --format mbox, eml or maildir"))
    }
}
