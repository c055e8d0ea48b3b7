import Foundation
import Testing
import TestSupport

/// `turnstile rules`: the built-in lists (and any list the rule options name) printed
/// as a rules file that `--rules` reads back into the same verdicts.
@Suite("turnstile rules")
struct RulesCommandTests {
    /// Runs `turnstile rules args…` into `name` in `dir` and returns its path.
    static func printRules(_ args: [String], to name: String, in dir: URL) throws -> String {
        let r = try CLI.run(["rules"] + args)
        #expect(r.status == 0 && r.err.isEmpty, "rules \(args): \(r.err)")
        return try CLI.write(r.stdout, to: name, in: dir)
    }

    @Test("the built-in list: its threshold and flags as train writes them, then one rule per line")
    func header() throws {
        let r = try CLI.run(["rules"])
        #expect(r.status == 0)
        let lines = r.out.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        #expect(lines.prefix(2) == ["# threshold: 6.9523", "# flags: -F -i -w"])
        let rules = lines.filter { !$0.hasPrefix("#") }
        #expect(rules.allSatisfy { $0.split(separator: "\t").count == 2 && Double($0.split(separator: "\t")[1]) != nil })
        // As many rules as the built-in automaton has patterns.
        let stats = try CLI.run(["compile", "--stats"]).out
        #expect(stats.contains("patterns: \(rules.count)\n"), "\(rules.count) rules; \(stats)")
        #expect(rules.first == "www\t4.3716")
    }

    @Test("rules > r.txt; filter --rules r.txt judges every sample message as the built-in list does")
    func roundTripSample() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = try Self.printRules([], to: "r.txt", in: dir)
        for mode in ["--json", "--explain", "--count"] {
            let builtin = try CLI.run(["filter", mode, "Corpora/messages/sample.txt"])
            let printed = try CLI.run(["filter", "--rules", file, mode, "Corpora/messages/sample.txt"])
            #expect(builtin.status == 0 && printed.status == 0)
            #expect(printed.stdout == builtin.stdout, "filter \(mode)")
        }
        // The eval of the printed list is that of the built-in one, culprits included.
        let evalBuiltin = try CLI.run(["eval", "--json", "Corpora/eval/labelled.tsv"])
        let evalPrinted = try CLI.run(["eval", "--json", "--rules", file, "Corpora/eval/labelled.tsv"])
        #expect(evalPrinted.out == evalBuiltin.out && !evalBuiltin.out.isEmpty)
    }

    @Test("on the SMS training file: the printed list gives the same verdicts, record for record",
          .enabled(if: SharedCorpora.isAvailable, "needs ../shared/corpora (see its SOURCES.md)"))
    func roundTripSMS() throws {
        let path = SharedCorpora.sharedRoot.appendingPathComponent("sms-spam/train.tsv").path
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = try Self.printRules([], to: "r.txt", in: dir)
        let builtin = try CLI.run(["filter", "--json", path])
        let printed = try CLI.run(["filter", "--json", "--rules", file, path])
        #expect(builtin.status == 0 && builtin.stdout.count > 100_000)
        #expect(printed.stdout == builtin.stdout)
        let count = try CLI.run(["filter", "--count", "--rules", file, path])
        #expect(count.out == "clean 2321 spam 388\n", "the built-in list's figures on the training half")
        let eval = try CLI.run(["eval", "--json", "--rules", file, path])
        #expect(eval.out.hasPrefix("{\"tp\":385,\"fp\":3,\"tn\":2304,\"fn\":17,"), "\(eval.out.prefix(80))")
    }

    @Test("--mail: the mail list, read back into the same verdicts on the sample mbox")
    func mailList() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = try Self.printRules(["--mail"], to: "m.txt", in: dir)
        let text = try String(contentsOfFile: file, encoding: .utf8)
        #expect(text.hasPrefix("# threshold: 0.9\n# flags: -F -i -w\n# model: chi-square\n"))
        #expect(text.contains("\nsubject:"))
        let builtin = try CLI.run(["filter", "--format", "mbox", "--json", "Corpora/mail/sample.mbox"])
        let printed = try CLI.run(["filter", "--format", "mbox", "--json", "--rules", file, "Corpora/mail/sample.mbox"])
        #expect(!builtin.stdout.isEmpty && printed.stdout == builtin.stdout)
    }

    @Test("other lists: a saved automaton, -e patterns; a pattern no rules file can hold is an error")
    func otherLists() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let saved = dir.appendingPathComponent("spam.tsa").path
        #expect(try CLI.run(["compile", "-o", saved]).status == 0)
        let fromSaved = try CLI.run(["rules", "--automaton", saved])
        let builtin = try CLI.run(["rules"])
        // The same header fields and rules; only the description comments differ.
        func noComments(_ s: String) -> [Substring] {
            s.split(separator: "\n").filter { !$0.hasPrefix("#") || $0.hasPrefix("# threshold:") || $0.hasPrefix("# flags:") }
        }
        #expect(fromSaved.status == 0 && noComments(fromSaved.out) == noComments(builtin.out))
        let e = try CLI.run(["rules", "-F", "-i", "-e", "prize", "--rules", try CLI.write("cash\t2.5\n".bytes, to: "c.tsv", in: dir)])
        #expect(e.out == "# flags: -F -i\nprize\t1\ncash\t2.5\n")
        let regex = try CLI.run(["rules", "-e", "a.b", "--bytes"])
        #expect(regex.out == "# made for regex bytes mode: give --bytes with --rules, the header cannot carry it\na.b\t1\n")
        let hash = try CLI.run(["rules", "-F", "-e", "ok", "-e", "#tag"])
        #expect(hash.status == 2 && hash.out.isEmpty)
        #expect(hash.err == "turnstile: rule 1 cannot be written as a rules-file line: it starts with '#', which a rules file reads as a comment\n")
        let both = try CLI.run(["rules", "--mail", "-e", "x"])
        #expect(both.status == 2 && both.err.contains("--mail prints the built-in mail list"), "\(both.err)")
    }
}
