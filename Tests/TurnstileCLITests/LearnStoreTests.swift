import Foundation
import Testing
import TestSupport

/// Issue 52: a learning database starts from the built-in list (a few lessons never
/// make it worse), keeps counts and digests and never a message (checked with the
/// real `sqlite3` and `sha256sum`), migrates the format that kept messages, and
/// `serve --db-dir` keeps one database per `spamc -u` user.
@Suite("learning store", .serialized)
struct LearnStoreTests {
    /// The first `n` messages of an mbox of the repository and the rest, as two mbox files.
    static func split(_ mbox: String, first n: Int, in dir: URL, name: String) throws -> (head: String, rest: String) {
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: mbox)))
        let all = ServeTests.messages(ofMbox: bytes, limit: 100_000)
        return (try CLI.write(all.prefix(n).flatMap { $0 }, to: "\(name)-head.mbox", in: dir),
                try CLI.write(all.dropFirst(n).flatMap { $0 }, to: "\(name)-rest.mbox", in: dir))
    }

    /// The first `n` messages of an mbox of the repository as .eml files (the `From `
    /// line taken off) in a folder of their own.
    static func emlFolder(_ mbox: String, first n: Int, in dir: URL, name: String) throws -> (folder: String, messages: [[UInt8]]) {
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: mbox)))
        let messages = ServeTests.messages(ofMbox: bytes, limit: n).map { m in Array(m[(m.firstIndex(of: 0x0A)! + 1)...]) }
        let folder = dir.appendingPathComponent(name)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        for (k, m) in messages.enumerated() { _ = try CLI.write(m, to: "\(k).eml", in: folder) }
        return (folder.path, messages)
    }

    /// `filter --count`'s spam count (its output is `clean C spam S`).
    static func spamCount(_ args: [String]) throws -> Int {
        let r = try CLI.run(["filter", "--format", "mbox", "--count"] + args)
        #expect(r.status != 2, "\(r.err)")
        return Int(r.out.split(separator: " ").last.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) } ?? "") ?? -1
    }

    @Test("taught 3 and 10 present-day messages of each kind, learn catches at least what the built-in list catches on the rest and flags no more ham",
          arguments: [3, 10])
    func fewLessonsNeverWorse(lessons: Int) throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let spam = try Self.split("Corpora/present-day/spam.mbox", first: lessons, in: dir, name: "spam")
        let ham = try Self.split("Corpora/present-day/ham.mbox", first: lessons, in: dir, name: "ham")
        let db = dir.appendingPathComponent("learned.db").path
        #expect(try CLI.run(["learn", "--db", db, "--format", "mbox", "--spam", spam.head]).status == 0)
        #expect(try CLI.run(["learn", "--db", db, "--format", "mbox", "--ham", ham.head]).status == 0)
        let builtinSpam = try Self.spamCount([spam.rest]), builtinHam = try Self.spamCount([ham.rest])
        let learnedSpam = try Self.spamCount(["--db", db, spam.rest]), learnedHam = try Self.spamCount(["--db", db, ham.rest])
        print("\(lessons) + \(lessons) lessons: built-in list \(builtinSpam) spam caught, \(builtinHam) ham flagged; learned \(learnedSpam), \(learnedHam)")
        #expect(builtinSpam > 0, "the rest must hold spam the built-in list catches, or the check says nothing")
        #expect(learnedSpam >= builtinSpam)
        #expect(learnedHam <= builtinHam)
    }

    @Test("taught 3, 10 and 30 generated present-day messages of each kind, learn catches at least what the built-in list catches on the rest and flags no more ham",
          arguments: [3, 10, 30])
    func fewGeneratedLessonsNeverWorse(lessons: Int) throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let spam = try Self.split("Corpora/present-day/spam-generated.mbox", first: lessons, in: dir, name: "spam")
        let ham = try Self.split("Corpora/present-day/ham-generated.mbox", first: lessons, in: dir, name: "ham")
        let db = dir.appendingPathComponent("learned.db").path
        #expect(try CLI.run(["learn", "--db", db, "--format", "mbox", "--spam", spam.head]).status == 0)
        #expect(try CLI.run(["learn", "--db", db, "--format", "mbox", "--ham", ham.head]).status == 0)
        // Judged on the rest and on the hand-written present-day ham, none of it taught.
        let handHam = "Corpora/present-day/ham.mbox"
        let builtinSpam = try Self.spamCount([spam.rest]), builtinHam = try Self.spamCount([ham.rest, handHam])
        let learnedSpam = try Self.spamCount(["--db", db, spam.rest]), learnedHam = try Self.spamCount(["--db", db, ham.rest, handHam])
        print("\(lessons) + \(lessons) generated lessons: built-in list \(builtinSpam) spam caught, \(builtinHam) ham flagged; learned \(learnedSpam), \(learnedHam)")
        #expect(builtinSpam > 0, "the rest must hold spam the built-in list catches, or the check says nothing")
        #expect(learnedSpam >= builtinSpam)
        #expect(learnedHam <= builtinHam)
    }

    @Test("taught 3, 10 and 30 generated present-day messages of each kind through spamc -L (TELL), serve catches at least what the built-in list catches on the rest and flags no more ham",
          arguments: [3, 10, 30])
    func fewTellLessonsNeverWorse(lessons: Int) throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let spam = try Self.emlFolder("Corpora/present-day/spam-generated.mbox", first: 1000, in: dir, name: "spam").messages
        let ham = try Self.emlFolder("Corpora/present-day/ham-generated.mbox", first: 1000, in: dir, name: "ham").messages
        let db = dir.appendingPathComponent("told.db").path
        let server = try ServerProcess(["--db", db, "--allow-tell", "--tell-from", "127.0.0.1/32"])
        defer { server.stop() }
        let spamc = { (args: [String], message: [UInt8]) throws -> CLIResult in
            try runTool(ServeTests.spamc, ["-d", "127.0.0.1", "-p", "\(server.port)"] + args, stdin: message)
        }
        for m in spam.prefix(lessons) { #expect(try spamc(["-L", "spam"], m).out.contains("successfully")) }
        for m in ham.prefix(lessons) { #expect(try spamc(["-L", "ham"], m).out.contains("successfully")) }
        // spamc -c exits 1 for spam, 0 for ham: the server's verdict with what it was told.
        let caught = { (messages: ArraySlice<[UInt8]>) throws -> Int in
            try messages.reduce(0) { n, m in n + (try spamc(["-c"], m).status == 1 ? 1 : 0) }
        }
        let told = try caught(spam.dropFirst(lessons)), toldHam = try caught(ham.dropFirst(lessons))
        let spamRest = try Self.split("Corpora/present-day/spam-generated.mbox", first: lessons, in: dir, name: "spam").rest
        let hamRest = try Self.split("Corpora/present-day/ham-generated.mbox", first: lessons, in: dir, name: "ham").rest
        let builtinSpam = try Self.spamCount([spamRest]), builtinHam = try Self.spamCount([hamRest])
        print("\(lessons) + \(lessons) lessons through TELL: built-in list \(builtinSpam) spam caught, \(builtinHam) ham flagged; serve \(told), \(toldHam)")
        #expect(try LearnTests().sql(db, "SELECT count(*) FROM messages") == "\(2 * lessons)")
        #expect(builtinSpam > 0, "the rest must hold spam the built-in list catches, or the check says nothing")
        #expect(told >= builtinSpam)
        #expect(toldHam <= builtinHam)
    }

    @Test("sqlite3 .dump after learn and spamc -L holds no message text; each message is its SHA-256, as sha256sum computes it")
    func countsNotMessages() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let line = "zanzibar quokka offer expires tonight"
        let spam = Array("From: Prize Desk <desk@prize.example>\r\nSubject: quokka prize\r\nMessage-ID: <unique-4711@prize.example>\r\n\r\n\(line)\r\n".utf8)
        let ham = Array("From: Ann <ann@example.org>\r\nSubject: lunch\r\n\r\nshall we meet at noon by the fountain\r\n".utf8)
        let spamFile = try CLI.write(spam, to: "spam.eml", in: dir), hamFile = try CLI.write(ham, to: "ham.eml", in: dir)
        let db = dir.appendingPathComponent("learned.db").path
        #expect(try CLI.run(["learn", "--db", db, "--spam", spamFile]).status == 0)
        #expect(try CLI.run(["learn", "--db", db, "--ham", hamFile]).status == 0)
        let told = Array("Subject: told\r\n\r\nspoonbill marmalade through tell\r\n".utf8)
        let server = try ServerProcess(["--db", db, "--allow-tell", "--tell-from", "127.0.0.1/32"])
        let tell = try runTool(ServeTests.spamc, ["-d", "127.0.0.1", "-p", "\(server.port)", "-L", "spam"], stdin: told)
        _ = server.stop()
        #expect(tell.out.contains("Message successfully un/learned"), "\(tell.out)\(tell.err)")
        let dump = try runTool(LearnTests.sqlite3, [db, ".dump"])
        #expect(dump.status == 0)
        // Tokens are single words stored as blobs; no sequence of the messages is there,
        // as text or as the hex of a blob.
        for text in [line, "unique-4711@prize.example", "meet at noon", "spoonbill marmalade through tell", "Subject:"] {
            let hex = Array(text.utf8).map { String(format: "%02X", $0) }.joined()
            #expect(!dump.out.contains(text), "\(text) in the dump")
            #expect(!dump.out.uppercased().contains(hex), "\(text) in the dump as hex")
        }
        #expect(try LearnTests().sql(db, "PRAGMA user_version") == "2")
        #expect(try LearnTests().sql(db, "SELECT group_concat(name) FROM pragma_table_info('messages')") == "digest,spam")
        let digests = Set(try LearnTests().sql(db, "SELECT lower(hex(digest)) FROM messages").split(separator: "\n").map(String.init))
        let toldFile = try CLI.write(told, to: "told.eml", in: dir)
        for file in [spamFile, hamFile, toldFile] {
            let sum = try runTool("/usr/bin/sha256sum", [file])
            #expect(digests.contains(String(sum.out.prefix(64))), "sha256sum \(file)")
        }
        #expect(digests.count == 3)
    }

    @Test("a database of the format that kept messages is migrated once, in place: same judgements, nothing relearned, no text left")
    func migratesVersionOne() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let spam = try Self.split("Corpora/present-day/spam.mbox", first: 8, in: dir, name: "spam")
        let ham = try Self.split("Corpora/present-day/ham.mbox", first: 8, in: dir, name: "ham")
        let spamEml = try Self.emlFolder("Corpora/present-day/spam.mbox", first: 8, in: dir, name: "spam-eml")
        let hamEml = try Self.emlFolder("Corpora/present-day/ham.mbox", first: 8, in: dir, name: "ham-eml")
        let db = dir.appendingPathComponent("learned.db").path
        _ = try CLI.run(["learn", "--db", db, "--spam", spamEml.folder])
        _ = try CLI.run(["learn", "--db", db, "--ham", hamEml.folder])
        let before = try CLI.run(["filter", "--format", "mbox", "--db", db, "--json", spam.rest, ham.rest])
        #expect(before.status == 0 && !before.out.isEmpty)
        // Make it the old format (PRAGMA user_version 1, issue 43): the same counts, and
        // each message kept whole, as the old version wrote it.
        var inserts = ""
        for (isSpam, folder) in [(1, spamEml.folder), (0, hamEml.folder)] {
            for k in 0..<8 { inserts += "INSERT INTO messages VALUES(\(k), \(isSpam), 0, readfile('\(folder)/\(k).eml'));\n" }
        }
        let old = try runTool(LearnTests.sqlite3, [db, """
            DROP TABLE messages;
            CREATE TABLE messages(digest INTEGER NOT NULL, spam INTEGER NOT NULL, unquote INTEGER NOT NULL, message BLOB NOT NULL);
            CREATE INDEX messages_digest ON messages(digest);
            \(inserts)PRAGMA user_version = 1;
            """])
        #expect(old.status == 0, "\(old.err)")
        #expect(try LearnTests().sql(db, "SELECT count(*) FROM messages WHERE length(message) > 100") == "16")
        // Opening migrates it; it judges as before, and knows every message it held.
        let after = try CLI.run(["filter", "--format", "mbox", "--db", db, "--json", spam.rest, ham.rest])
        #expect(after.out == before.out)
        #expect(try LearnTests().sql(db, "PRAGMA user_version") == "2")
        let again = try CLI.run(["learn", "--db", db, "--spam", spamEml.folder])
        #expect(again.err == "turnstile learn: already learned 8; the database holds 8 spam and 8 ham\n", "\(again.err)")
        let file = try String(decoding: Data(contentsOf: URL(fileURLWithPath: db)), as: UTF8.self)
        let subject = try #require(spamEml.messages.first.flatMap { m in
            String(decoding: m, as: UTF8.self).split(separator: "\n").first { $0.hasPrefix("Subject:") }
        })
        #expect(!file.contains(subject), "the old messages' pages are gone from the file")
    }

    @Test("serve --db-dir: spamc -u alice learns into and is judged by alice's database only; learn --db-dir --user writes the same file")
    func perUserDatabases() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let users = dir.appendingPathComponent("users")
        try FileManager.default.createDirectory(at: users, withIntermediateDirectories: true)
        let spam = try Self.emlFolder("Corpora/present-day/spam.mbox", first: 10, in: dir, name: "spam").messages
        let ham = try Self.emlFolder("Corpora/present-day/ham.mbox", first: 10, in: dir, name: "ham").messages
        let server = try ServerProcess(["--db-dir", users.path, "--allow-tell", "--tell-from", "127.0.0.1/32"])
        defer { server.stop() }
        let spamc = { (args: [String], message: [UInt8]) throws -> CLIResult in
            try runTool(ServeTests.spamc, ["-d", "127.0.0.1", "-p", "\(server.port)"] + args, stdin: message)
        }
        for m in spam { #expect(try spamc(["-u", "alice", "-L", "spam"], m).out.contains("successfully")) }
        for m in ham { #expect(try spamc(["-u", "alice", "-L", "ham"], m).out.contains("successfully")) }
        let alice = users.appendingPathComponent("alice.db").path
        #expect(FileManager.default.fileExists(atPath: alice))
        #expect(!FileManager.default.fileExists(atPath: users.appendingPathComponent("bob.db").path))
        let mode = try FileManager.default.attributesOfItem(atPath: alice)[.posixPermissions] as? Int
        #expect(mode == 0o600, "mode \(String(mode ?? -1, radix: 8))")
        #expect(try LearnTests().sql(alice, "SELECT count(*) FROM messages WHERE spam = 1") == "10")
        // alice is judged with her list, bob and carol with the built-in one: each
        // PROCESS answer's score (X-Spam-Turnstile: the list's own, four decimals; X-Spam-Status
        // has it on SpamAssassin's scale) is filter's with that list.
        // Probes: the hand-written spam, 10 of them alice's lessons (the prior outweighs
        // 10 + 10 lessons, so generated mail scoring 0.001 or 0.999 keeps its four
        // decimals; the mail alice taught moves).
        let probes = try Self.emlFolder("Corpora/present-day/spam.mbox", first: 12, in: dir, name: "probes")
        let scores = { (args: [String]) throws -> [String: String] in
            var out: [String: String] = [:]
            for line in try CLI.run(["filter", "--format", "eml", "--json"] + args + [probes.folder]).out.split(separator: "\n") {
                let fields = line.split(separator: ",")
                let file = fields.first { $0.hasPrefix("\"file\":") }.map { String($0.split(separator: "/").last ?? "").replacingOccurrences(of: "\"", with: "") }
                let score = fields.first { $0.hasPrefix("\"score\":") }.map { String($0.dropFirst(8)) }
                if let file, let score { out[file] = score }
            }
            return out
        }
        let aliceScores = try scores(["--db", alice]), builtinScores = try scores([])
        #expect(aliceScores.count == 12 && builtinScores.count == 12)
        #expect(aliceScores != builtinScores, "alice's lessons must change some score, or the check says nothing")
        let processScore = { (user: String, message: [UInt8]) throws -> String in
            let out = try spamc(["-u", user], message).out
            let status = out.split(separator: "\n").first { $0.hasPrefix("X-Spam-Turnstile:") } ?? ""
            return String(status.split(separator: " ").first { $0.hasPrefix("score=") }?.dropFirst(6) ?? "")
        }
        for (k, m) in probes.messages.enumerated() {
            let a = try processScore("alice", m), b = try processScore("bob", m), c = try processScore("carol", m)
            #expect(Double(a) == Double(aliceScores["\(k).eml"] ?? ""), "alice, probe \(k): \(a)")
            #expect(Double(b) == Double(builtinScores["\(k).eml"] ?? ""), "bob, probe \(k): \(b)")
            #expect(c == b)
        }
        // A TELL for bob creates bob's file; alice's is untouched.
        #expect(try spamc(["-u", "bob", "-L", "ham"], ham[0]).out.contains("successfully"))
        #expect(try LearnTests().sql(users.appendingPathComponent("bob.db").path, "SELECT count(*) FROM messages") == "1")
        #expect(try LearnTests().sql(alice, "SELECT count(*) FROM messages") == "20")
        // A name that is not a file name never reaches the folder.
        _ = try spamc(["-u", "../escape", "-L", "spam"], spam[0])
        #expect(!FileManager.default.fileExists(atPath: dir.appendingPathComponent("escape.db").path))
        // learn --db-dir --user learns into the same file.
        let extra = try CLI.write(spam[1], to: "extra.eml", in: dir)
        let learned = try CLI.run(["learn", "--db-dir", users.path, "--user", "alice", "--spam", extra])
        #expect(learned.err == "turnstile learn: already learned 1; the database holds 10 spam and 10 ham\n", "\(learned.err)")
        let bad = try CLI.run(["learn", "--db-dir", users.path, "--user", "../x", "--list"])
        #expect(bad.status == 2 && bad.err.contains("--user ../x"), "\(bad.err)")
    }
}
