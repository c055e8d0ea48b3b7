import Foundation
import Testing
import TestSupport

/// The README's procmail and maildrop recipes, run as written with the real programs
/// (`turnstile` in `$HOME/bin`, `$HOME` a scratch folder) on every message of
/// `Corpora/mail/sample.mbox` and a slice of the shared SpamAssassin corpus: every
/// message is delivered, spam to `Junk`, the rest to the inbox, and each is stored
/// exactly as the same program stores it with no filter, but for the added fields.
@Suite("README delivery recipes with the real procmail and maildrop")
struct DeliveryRecipeTests {
    /// The text of the README's first block fenced as ```language.
    static func readmeBlock(_ language: String) throws -> String {
        let text = try String(contentsOf: SharedCorpora.repositoryRoot.appendingPathComponent("README.md"), encoding: .utf8)
        let lines = text.components(separatedBy: "\n")
        guard let start = lines.firstIndex(of: "```" + language),
              let end = lines[(start + 1)...].firstIndex(of: "```") else {
            throw CLIError("README.md has no ```\(language) block")
        }
        return lines[(start + 1)..<end].joined(separator: "\n") + "\n"
    }

    struct CLIError: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    /// The messages of an mbox as its reader cuts them: from a `From ` line to the
    /// `\n` before the next one (a final `\n` is the last one's terminator).
    static func mboxMessages(_ bytes: [UInt8]) -> [[UInt8]] {
        var starts: [Int] = []
        let from = Array("From ".utf8)
        for i in bytes.indices where (i == 0 || bytes[i - 1] == 0x0A) && bytes[i...].starts(with: from) { starts.append(i) }
        return starts.enumerated().map { k, s in
            var e = k + 1 < starts.count ? starts[k + 1] - 1 : bytes.count
            if k + 1 == starts.count, e > s, bytes[e - 1] == 0x0A { e -= 1 }
            return Array(bytes[s..<e])
        }
    }

    static func dropFirstLine(_ m: [UInt8]) -> [UInt8] {
        guard let nl = m.firstIndex(of: 0x0A) else { return [] }
        return Array(m[(nl + 1)...])
    }

    /// The messages delivered: sample.mbox, and 4 spam and 4 ham of the shared corpus
    /// when it is there. Each with its `From ` line and its terminator.
    static func messages() -> [[UInt8]] {
        var result: [[UInt8]] = []
        if let data = FileManager.default.contents(atPath: SharedCorpora.ownCorpora.appendingPathComponent("mail/sample.mbox").path) {
            result += mboxMessages([UInt8](data))
        }
        for name in ["spamassassin/spam.mbox", "spamassassin/ham.mbox"] {
            if let bytes = SharedCorpora.bytes(name) { result += mboxMessages(bytes).prefix(4) }
        }
        return result.map { $0 + [0x0A] }
    }

    /// Runs `program args…` with `input` on standard input; its exit status.
    static func deliver(_ program: String, _ args: [String], input: [UInt8]) throws -> Int32 {
        try ChildProcess.start(program, args, stdin: .bytes(input), stdout: .discard, stderr: .discard,
                               environment: ["PATH": "/usr/bin:/bin", "LANG": "C"]).wait().status
    }

    /// A scratch `$HOME` with `bin/turnstile` and `Mail/`.
    static func home() throws -> URL {
        let home = try CLI.temporaryDirectory()
        try FileManager.default.createDirectory(at: home.appendingPathComponent("bin"), withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: home.appendingPathComponent("Mail"), withIntermediateDirectories: true)
        try FileManager.default.createSymbolicLink(at: home.appendingPathComponent("bin/turnstile"), withDestinationURL: CLI.binary)
        return home
    }

    /// Which messages turnstile itself calls spam (`filter --format mbox --json`).
    static func verdicts(_ messages: [[UInt8]], in home: URL) throws -> [Bool] {
        let path = try CLI.write(messages.flatMap { $0 }, to: "all.mbox", in: home)
        let r = try CLI.run(["filter", "--format", "mbox", "--json", path])
        return r.out.split(separator: "\n").map { $0.contains("\"spam\":true") }
    }

    /// Checks one delivery: `Inbox` and `Junk` (tagged) against `Control` (the same
    /// program with no filter), message by message.
    static func check(home: URL, messages: [[UInt8]]) throws {
        let mail = home.appendingPathComponent("Mail")
        func delivered(_ name: String) -> [[UInt8]] {
            let data = FileManager.default.contents(atPath: mail.appendingPathComponent(name).path) ?? Data()
            return mboxMessages([UInt8](data)).map { TagTests.untag(dropFirstLine($0)) }
        }
        let control = delivered("Control"), inbox = delivered("Inbox"), junk = delivered("Junk")
        let spam = try verdicts(messages, in: home)
        #expect(control.count == messages.count, "the control run delivered every message")
        #expect(spam.contains(true) && spam.contains(false), "the sample has spam and ham: \(spam)")
        #expect(inbox.count + junk.count == messages.count, "every message delivered")
        #expect(junk == zip(control, spam).filter { $0.1 }.map { $0.0 }, "spam in Junk, byte for byte")
        #expect(inbox == zip(control, spam).filter { !$0.1 }.map { $0.0 }, "ham in the inbox, byte for byte")
        let tagged = (FileManager.default.contents(atPath: mail.appendingPathComponent("Junk").path)).map { String(decoding: $0, as: UTF8.self) } ?? ""
        #expect(tagged.components(separatedBy: "\nX-Spam-Flag: YES\n").count - 1 == junk.count)
    }

    @Test("procmail: the README's ~/.procmailrc", .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/procmail")))
    func procmail() throws {
        let home = try Self.home()
        defer { try? FileManager.default.removeItem(at: home) }
        let recipe = try Self.readmeBlock("procmail").replacingOccurrences(of: "$HOME", with: home.path)
        let rc = try CLI.write(recipe.bytes, to: "procmailrc", in: home)
        let control = try CLI.write("MAILDIR=\(home.path)/Mail\n".bytes, to: "control-rc", in: home)
        let messages = Self.messages()
        for message in messages {
            #expect(try Self.deliver("/usr/bin/procmail", ["-m", "DEFAULT=\(home.path)/Mail/Inbox", rc], input: message) == 0)
            #expect(try Self.deliver("/usr/bin/procmail", ["-m", "DEFAULT=\(home.path)/Mail/Control", control], input: message) == 0)
        }
        try Self.check(home: home, messages: messages)
    }

    /// Issue 37: a typo in `--db` must not let mail through unfiltered. turnstile
    /// exits 75 (EX_TEMPFAIL) with one sentence; the README's procmail recipe then exits
    /// 75 itself (EXITCODE, HOST: issue 46), delivering nothing, so the MTA keeps the
    /// message and retries; maildrop defers it (75).
    @Test("a missing --db database: procmail and maildrop hand the message back (75), deliver nothing",
          .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/procmail")
                   && FileManager.default.isExecutableFile(atPath: "/usr/bin/maildrop")))
    func missingDatabase() throws {
        let home = try Self.home()
        defer { try? FileManager.default.removeItem(at: home) }
        let typo = home.appendingPathComponent("lerned.db").path
        let recipe = try Self.readmeBlock("procmail").replacingOccurrences(of: "$HOME", with: home.path)
            .replacingOccurrences(of: "--tag -", with: "--db \(typo) --tag -")
        #expect(recipe.contains("--db \(typo)"))
        let rc = try CLI.write(recipe.bytes, to: "procmailrc", in: home)
        let message = Self.messages()[0]
        #expect(try Self.deliver("/usr/bin/procmail", ["-m", "DEFAULT=\(home.path)/Mail/Inbox", rc], input: message) == 75,
                "procmail hands the message back (EX_TEMPFAIL)")
        #expect(!FileManager.default.fileExists(atPath: home.appendingPathComponent("Mail/Inbox").path), "nothing delivered")
        #expect(!FileManager.default.fileExists(atPath: typo), "judging created no database")
        let drop = try Self.readmeBlock("maildrop").replacingOccurrences(of: "$HOME", with: home.path)
            .replacingOccurrences(of: "--tag -", with: "--db \(typo) --tag -")
        let filter = try CLI.write(("DEFAULT=\"\(home.path)/Mail/Inbox2\"\n" + drop).bytes, to: "mailfilter", in: home)
        chmod(filter, 0o600)
        #expect(try Self.deliver("/usr/bin/maildrop", [filter], input: Self.dropFirstLine(message)) == 75, "maildrop defers (EX_TEMPFAIL)")
        #expect(!FileManager.default.fileExists(atPath: home.appendingPathComponent("Mail/Inbox2").path))
    }

    /// Issue 46: every configuration error, not only a missing database, exits 75 in
    /// mail mode, and the README's procmail recipe hands the message back.
    static let configurationErrors: [(name: String, args: [String], says: String)] = [
        ("missing --rules", ["--rules", "rulez.tsv"], "rulez.tsv"),
        ("malformed --rules", ["--rules", "malformed.tsv"], "malformed.tsv"),
        ("a directory as --rules", ["--rules", "Mail"], "Mail"),
        ("a mistyped flag", ["--tga"], "--tga"),
        ("a bad --threshold", ["--threshold", "lots"], "lots"),
    ]

    @Test("configuration errors in mail mode: one sentence, exit 75, nothing written; procmail hands the message back",
          .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/procmail")),
          arguments: configurationErrors.indices)
    func configurationError(_ k: Int) throws {
        let (name, args, says) = Self.configurationErrors[k]
        let home = try Self.home()
        defer { try? FileManager.default.removeItem(at: home) }
        try CLI.write("cheap\tnot-a-weight\n".bytes, to: "malformed.tsv", in: home)
        let resolved = args.map { $0.hasSuffix(".tsv") || $0 == "Mail" ? home.appendingPathComponent($0).path : $0 }
        let message = Self.messages()[0]
        let direct = try CLI.run(["filter", "--format", "eml", "--tag"] + resolved + ["-"], stdin: message)
        #expect(direct.status == 75, "\(name): exit \(direct.status) \(direct.err)")
        #expect(direct.stdout.isEmpty, "\(name): nothing written")
        #expect(direct.err.contains(says) && direct.err.split(separator: "\n").count <= 2, "\(name): \(direct.err)")
        let recipe = try Self.readmeBlock("procmail").replacingOccurrences(of: "$HOME", with: home.path)
            .replacingOccurrences(of: "--tag -", with: "--tag " + resolved.joined(separator: " ") + " -")
        let rc = try CLI.write(recipe.bytes, to: "procmailrc", in: home)
        #expect(try Self.deliver("/usr/bin/procmail", ["-m", "DEFAULT=\(home.path)/Mail/Inbox", rc], input: message) == 75, "\(name)")
        #expect(!FileManager.default.fileExists(atPath: home.appendingPathComponent("Mail/Inbox").path), "\(name): nothing delivered")
    }

    @Test("an unreadable --rules file exits 75 for an unprivileged user",
          .enabled(if: Unprivileged.unavailable == nil, "\(Unprivileged.unavailable ?? "")"))
    func unreadableRules() throws {
        let dir = try Unprivileged.directory()
        let rules = try CLI.write("cheap\t3\n".bytes, to: "rules.tsv", in: dir)
        chmod(rules, 0o000)
        if getuid() != 0 { #expect(access(rules, R_OK) != 0, "the file is unreadable to the test's user") }
        let result = try runTool(Unprivileged.prefix.first ?? CLI.binary.path,
                                 Array(Unprivileged.prefix.dropFirst()) + (Unprivileged.prefix.isEmpty ? [] : [CLI.binary.path])
                                     + ["filter", "--format", "eml", "--tag", "--rules", rules, "-"],
                                 stdin: Self.messages()[0])
        #expect(result.status == 75, "\(result.err)")
        #expect(result.stdout.isEmpty)
        #expect(result.err.contains(rules), "\(result.err)")
    }

    @Test("maildrop: the README's ~/.mailfilter", .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/maildrop")))
    func maildrop() throws {
        let home = try Self.home()
        defer { try? FileManager.default.removeItem(at: home) }
        let recipe = try Self.readmeBlock("maildrop").replacingOccurrences(of: "$HOME", with: home.path)
        let filter = try CLI.write(("DEFAULT=\"\(home.path)/Mail/Inbox\"\n" + recipe).bytes, to: "mailfilter", in: home)
        let control = try CLI.write("DEFAULT=\"\(home.path)/Mail/Control\"\n".bytes, to: "control-filter", in: home)
        for path in [filter, control] { chmod(path, 0o600) }
        let messages = Self.messages()
        // As Postfix hands mail to maildrop: without the mbox From line (maildrop writes its own).
        for message in messages.map(Self.dropFirstLine) {
            #expect(try Self.deliver("/usr/bin/maildrop", [filter], input: message) == 0)
            #expect(try Self.deliver("/usr/bin/maildrop", [control], input: message) == 0)
        }
        try Self.check(home: home, messages: messages)
    }
}
