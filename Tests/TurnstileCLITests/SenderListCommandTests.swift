import Foundation
import Testing
import TestSupport

/// `--allow-from`, `--deny-from` and `--sender-fields`: exact addresses and domains
/// decide a message's verdict, and `--explain`, `--json` and `--tag` say which line
/// did; `--add-rules` adds rules to a list keeping its flags and threshold.
@Suite("allow and deny lists of senders; --add-rules")
struct SenderListCommandTests {
    static func message(from: String, extra: String = "", body: String = "buy viagra") -> [UInt8] {
        "From: \(from)\n\(extra)Subject: hi\n\n\(body)\n".bytes
    }

    @Test("an allowed sender is clean, a denied one spam; exact domains only; the display name is not the sender")
    func allowDeny() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let rules = try MailCommandTests.rules(in: dir)
        let allow = try CLI.write("# friends\n@pharmacy.example\nBoss@Example.org\n".bytes, to: "allow.txt", in: dir)
        let deny = try CLI.write("@example.org\nspam@EXAMPLE.NET\n".bytes, to: "deny.txt", in: dir)
        let args = ["filter", "--format", "eml", "--json"] + MailCommandTests.ruleArgs(rules)
            + ["--allow-from", allow, "--deny-from", deny, "-"]
        func verdict(_ input: [UInt8]) throws -> String { try CLI.run(args, stdin: input).out }

        let allowed = try verdict(Self.message(from: "Deals <DEALS@Pharmacy.Example>"))
        #expect(allowed.contains("\"spam\":false") && allowed.contains(
            "\"sender\":{\"decision\":\"allow\",\"file\":\"\(allow)\",\"line\":2,\"entry\":\"@pharmacy.example\",\"field\":\"from\",\"address\":\"DEALS@Pharmacy.Example\"}"),
                "\(allowed)")
        let lookalike = try verdict(Self.message(from: "deals@evil-pharmacy.example"))
        #expect(lookalike.contains("\"spam\":true") && !lookalike.contains("\"sender\""), "not the same domain: \(lookalike)")
        let displayName = try verdict(Self.message(from: "\"boss@example.org\" <x@elsewhere.example>"))
        #expect(displayName.contains("\"spam\":true") && !displayName.contains("\"sender\""), "\(displayName)")
        let denied = try verdict(Self.message(from: "someone@example.org", body: "hello"))
        #expect(denied.contains("\"spam\":true") && denied.contains("\"decision\":\"deny\""), "\(denied)")
        let bossWins = try verdict(Self.message(from: "boss@example.org"))
        #expect(bossWins.contains("\"spam\":false") && bossWins.contains("\"line\":3"), "an address beats a domain: \(bossWins)")

        let explain = try CLI.run(["filter", "--format", "eml", "--explain"] + MailCommandTests.ruleArgs(rules)
                                  + ["--deny-from", deny, "-"], stdin: Self.message(from: "spam@example.net", body: "hi"))
        #expect(explain.out == "record 1: spam, score 0, threshold 2\n  denied by \(deny):2  spam@example.net  from: spam@example.net\n")
        let tag = try CLI.run(["filter", "--format", "eml", "--tag"] + MailCommandTests.ruleArgs(rules)
                              + ["--allow-from", allow, "-"], stdin: Self.message(from: "a@pharmacy.example"))
        #expect(tag.out.contains("X-Spam-Status: No, score=2 required=2 tests=ALLOW_FROM,viagra\n"), "\(tag.out)")
    }

    @Test("--sender-fields: Return-Path and Sender are looked up only when asked")
    func senderFields() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let rules = try MailCommandTests.rules(in: dir)
        let allow = try CLI.write("bounce@lists.example\n".bytes, to: "allow.txt", in: dir)
        let input = Self.message(from: "x@y.example", extra: "Return-Path: <Bounce@lists.example>\n")
        let base = ["filter", "--format", "eml", "--count"] + MailCommandTests.ruleArgs(rules) + ["--allow-from", allow]
        #expect(try CLI.run(base + ["-"], stdin: input).out == "clean 0 spam 1\n")
        #expect(try CLI.run(base + ["--sender-fields", "from,return-path", "-"], stdin: input).out == "clean 1 spam 0\n")
        let bad = try CLI.run(base + ["--sender-fields", "to", "-"], stdin: input)
        #expect(bad.status != 0 && bad.err.contains("--sender-fields takes"))
        let badList = try CLI.write("not an address\n".bytes, to: "bad.txt", in: dir)
        let r = try CLI.run(base + ["--deny-from", badList, "-"], stdin: input)
        #expect(r.status == 75 && r.err.contains("bad.txt:1: 'not an address' is neither an address"), "\(r.err)")
    }

    @Test("--add-rules keeps the list's flags and threshold; a second --rules does not")
    func addRules() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        // A trained-style list: threshold 2, whole words, case-insensitive.
        let list = try CLI.write("# threshold: 2\n# flags: -F -i -w\nviagra\t2\n".bytes, to: "list.tsv", in: dir)
        let extra = try CLI.write("from:pharmacy.example\t-10\nwinner\t2\n".bytes, to: "extra.tsv", in: dir)
        let first = "From a  Thu Jan  1 00:00:00 2002\nFrom: a@pharmacy.example\nSubject: x\n\nVIAGRA\n\n"
        let second = "From b  Thu Jan  1 00:00:00 2002\nFrom: b@c.example\nSubject: x\n\nWINNERS winner\n\n"
        let mbox = try CLI.write((first + second).bytes, to: "in.mbox", in: dir)
        let added = try CLI.run(["filter", "--format", "mbox", "--json", "--rules", list, "--add-rules", extra, mbox])
        let lines = added.out.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines.first?.contains("\"spam\":false,\"score\":-8,\"threshold\":2") == true, "the allow rule, case-insensitive: \(added.out)")
        #expect(lines.last?.contains("\"spam\":true,\"score\":2,\"threshold\":2") == true, "\(added.out)")
        let twice = try CLI.run(["filter", "--format", "mbox", "--json", "--rules", list, "--rules", extra, mbox])
        #expect(twice.out.split(separator: "\n").first?.contains("\"threshold\":1") == true, "two --rules: no threshold, no flags: \(twice.out)")
        let printed = try CLI.run(["rules", "--mail", "--add-rules", extra])
        #expect(printed.out.hasPrefix("# threshold: 0.9\n# flags: -F -i -w\n# model: chi-square\n"))
        #expect(printed.out.hasSuffix("\nfrom:pharmacy.example\t-10\nwinner\t2\n"), "rules prints the list with the added rules")
        let builtIn = try CLI.run(["filter", "--format", "mbox", "--json", "--add-rules", extra, mbox])
        #expect(builtIn.out.contains("\"threshold\":0.9") && builtIn.out.contains("\"pattern\":\"winner\""), "\(builtIn.out)")
    }
}
