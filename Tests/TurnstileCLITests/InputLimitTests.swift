// Inputs the CLI reads whole or walks: pattern and rule files have a size limit that
// names its flag, automata have state and table limits that name theirs, and a folder
// walk reads each file once, whatever links it holds.

import Foundation
import Testing
import TestSupport

@Suite("Input limits and folder walks")
struct InputLimitTests {
    @Test("a pattern or rule file over --max-pattern-file-bytes is a one-sentence error naming the flag")
    func patternFileLimit() throws {
        let dir = try CLI.temporaryDirectory()
        let words = try CLI.write(Array("free\nprize\nwinner\n".utf8), to: "words.txt", in: dir)
        let rules = try CLI.write(Array("free\t2\nprize\t3\n".utf8), to: "rules.tsv", in: dir)
        for args in [["match", "-F", "-f", words], ["filter", "--rules", rules]] {
            let refused = try CLI.run(args + ["--max-pattern-file-bytes", "10", "-"], stdin: Array("free prize\n".utf8))
            #expect(refused.status == 2)
            #expect(refused.stdout.isEmpty)
            #expect(refused.err.contains("10-byte limit") && refused.err.contains("--max-pattern-file-bytes"), "\(refused.err)")
            #expect(refused.err.split(separator: "\n").count == 1, "one sentence: \(refused.err)")
            let allowed = try CLI.run(args + ["--max-pattern-file-bytes", "4096", "-"], stdin: Array("free prize\n".utf8))
            #expect(allowed.status == 0, "\(allowed.err)")
        }
        let zero = try CLI.run(["match", "-F", "-f", words, "--max-pattern-file-bytes", "0", "-"])
        #expect(zero.status == 2 && zero.err.contains("at least 1"), "\(zero.err)")
    }

    @Test("--max-states and --max-table-bytes: exceeding one is a one-sentence error naming the flag; raising it builds")
    func automatonLimits() throws {
        let input = Array("short line\n".utf8)
        // A regex whose NFA passes the regex default of 10,000 states, and two words
        // whose automaton passes 3 states or a 100-byte table.
        let cases: [(args: [String], flag: String, raised: String)] = [
            (["-e", ".{1000}x"], "--max-states", "100000"),
            (["-F", "-e", "abc", "-e", "abd", "--max-states", "3"], "--max-states", "100"),
            (["-F", "-e", "abcdef", "-e", "abd", "--max-table-bytes", "100"], "--max-table-bytes", "1000000"),
        ]
        for c in cases {
            for command in [["filter", "--count"], ["compile", "--stats"], ["eval", "--spam", "-"]] {
                let refused = try CLI.run(command + c.args + (command[0] == "compile" ? [] : ["-"]), stdin: input)
                #expect(refused.status == 2, "\(command) \(c.args): \(refused.err)")
                #expect(refused.err.contains("raise the limit with \(c.flag)"), "\(command) \(c.args): \(refused.err)")
                #expect(refused.err.split(separator: "\n").count == 1, "one sentence: \(refused.err)")
            }
            let raised = try CLI.run(["filter", "--count"] + c.args + [c.flag, c.raised, "-"], stdin: input)
            #expect(raised.status == 1 && raised.out == "clean 1 spam 0\n", "\(c.args) \(c.flag) \(c.raised): \(raised.err)")
        }
        for flag in ["--max-states", "--max-table-bytes"] {
            let zero = try CLI.run(["filter", "--count", "-e", "x", flag, "0", "-"])
            #expect(zero.status == 2 && zero.err.contains("\(flag) must be at least 1"), "\(zero.err)")
        }
    }

    @Test("a pattern file that never ends (/dev/zero) stops at the limit instead of filling memory",
          .enabled(if: FileManager.default.isReadableFile(atPath: "/dev/zero"), "skipped: this system has no readable /dev/zero"))
    func endlessPatternFile() throws {
        let result = try CLI.run(["match", "-F", "-f", "/dev/zero", "--max-pattern-file-bytes", "1000000", "/dev/null"])
        #expect(result.status == 2)
        #expect(result.err.contains("/dev/zero is larger than the 1000000-byte limit"), "\(result.err)")
    }

    @Test("eval over folders with a symlink loop and a second link to a file reads each file once")
    func symlinkLoop() throws {
        let dir = try CLI.temporaryDirectory().path
        let fm = FileManager.default
        try fm.createDirectory(atPath: dir + "/ham/sub", withIntermediateDirectories: true)
        try fm.createDirectory(atPath: dir + "/spam", withIntermediateDirectories: true)
        try Data("lunch on friday\n".utf8).write(to: URL(fileURLWithPath: dir + "/ham/a.txt"))
        try Data("free cash prize\n".utf8).write(to: URL(fileURLWithPath: dir + "/spam/s.txt"))
        try fm.createSymbolicLink(atPath: dir + "/ham/sub/loop", withDestinationPath: "..")
        try fm.createSymbolicLink(atPath: dir + "/ham/sub/again.txt", withDestinationPath: "../a.txt")
        let result = try CLI.run(["eval", "-F", "-i", "-w", "-e", "free", "-e", "cash", "--threshold", "1",
                                  "--ham", dir + "/ham", "--spam", dir + "/spam", "--json"])
        #expect(result.status == 0, "\(result.err)")
        #expect(result.out.contains("\"tp\":1,\"fp\":0,\"tn\":1,\"fn\":0"), "each file counted once: \(result.out)")
        #expect(result.err.contains("recursive directory loop"), "\(result.err)")
    }
}
