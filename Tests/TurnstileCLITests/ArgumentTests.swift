import Foundation
import Testing
import TestSupport
@testable import TurnstileCLI

/// Argument hygiene (issue 15, point 2): how the command line is read, and what an
/// unusual one gets.
@Suite("Arguments: help only as a whole word, negative values, pattern ids, usage, pipes, pattern files")
struct ArgumentTests {
    @Test("a single-dash word that is not a group of known letters is an error, never the help")
    func noHelpTrap() throws {
        for args in [["filter", "-threshold", "3"], ["match", "-threshold", "3"], ["filter", "-nh"], ["compile", "-stats"]] {
            let r = try CLI.run(args, stdin: "free\n".bytes)
            #expect(r.status == 2, "\(args)")
            #expect(r.stdout.isEmpty, "\(args): \(r.out)")
            #expect(r.err.hasPrefix("turnstile: unknown option"), "\(args): \(r.err)")
        }
        #expect(try CLI.run(["filter", "-threshold", "3"]).err.contains("--threshold"), "the hint names the long option")
        for args in [["filter", "-h"], ["filter", "--help"], ["match", "--help"], ["-h"], ["--help"]] {
            let r = try CLI.run(args)
            #expect(r.status == 0 && r.out.contains("USAGE:"), "\(args)")
        }
    }

    @Test("grouped and attached short options mean what they mean apart")
    func grouping() throws {
        let input = "a winner\nlunch\na prize\n".bytes
        let apart = try CLI.run(["match", "-n", "-F", "-i", "-e", "PRIZE"], stdin: input)
        #expect(apart.out == "3:a prize\n")
        #expect(try CLI.run(["match", "-nFie", "PRIZE"], stdin: input).out == apart.out)
        #expect(try CLI.run(["match", "-nFiePRIZE"], stdin: input).out == apart.out)
        #expect(try CLI.run(["match", "-A1", "winner"], stdin: input).out == "a winner\nlunch\n")
        #expect(try CLI.run(["match", "-1", "lunch"], stdin: input).out == input.string)
        let unknown = try CLI.run(["match", "-nK", "x"], stdin: input)
        #expect(unknown.status == 2 && unknown.err.hasPrefix("turnstile: unknown option '-K' in '-nK'"), "\(unknown.err)")
    }

    @Test("negative numbers are values: --threshold -0.04865 as --threshold=-0.04865")
    func negativeValues() throws {
        let input = "x\nfree\n".bytes
        let spaced = try CLI.run(["filter", "-F", "-e", "free", "--threshold", "-0.5", "--count"], stdin: input)
        let joined = try CLI.run(["filter", "-F", "-e", "free", "--threshold=-0.5", "--count"], stdin: input)
        #expect(spaced.status == 0, "\(spaced.err)")
        #expect(spaced.out == "clean 0 spam 2\n" && spaced.out == joined.out)
        // What train writes in its '# Use:' line works as written.
        let m = try CLI.run(["match", "-m", "-1", "-c", "x"], stdin: "x\nx\n".bytes)
        #expect(m.out == "2\n", "a negative -m is no limit, as in grep")
    }

    @Test("an empty value is a value: -e '' and --regexp= are the empty pattern, which selects every line")
    func emptyValues() throws {
        let input = "a\n\nb\n".bytes
        for args in [["-e", ""], ["--regexp="], ["--regexp", ""], ["-F", "-e", ""], [""]] {
            let r = try CLI.run(["match"] + args, stdin: input)
            #expect(r.status == 0 && r.stdout == input, "\(args): \(r.out)\(r.err)")
        }
    }

    @Test("pattern ids follow the command line however the flags are spelled")
    func patternIDsBySpelling() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let words = try CLI.write("winner\n".bytes, to: "w.txt", in: dir)
        let input = "a winner, a prize\n".bytes
        let spellings = [["-f", words, "-Fe", "prize"], ["-f", words, "-F", "-e", "prize"], ["-f\(words)", "-Feprize"],
                         ["--file=\(words)", "-F", "--regexp", "prize"], ["--file", words, "-F", "--regexp=prize"]]
        for args in spellings {
            let r = try CLI.run(["match", "--offsets"] + args, stdin: input)
            #expect(r.out == "2:8:0:winner\n12:17:1:prize\n", "\(args): \(r.out)\(r.err)")
        }
    }

    @Test("bare turnstile: a short usage on standard error, exit 2")
    func bare() throws {
        let r = try CLI.run([])
        #expect(r.status == 2)
        #expect(r.stdout.isEmpty)
        #expect(r.err.hasPrefix("usage: turnstile <subcommand>") && r.err.contains("match"))
        #expect(r.err.split(separator: "\n").count < 12, "short, not the whole help")
    }

    @Test("the root takes ArgumentParser's completion options (make install writes the scripts) and refuses others")
    func completionScripts() throws {
        for (args, marker) in [(["--generate-completion-script", "bash"], "complete -o filenames -F"),
                               (["--generate-completion-script=zsh"], "#compdef turnstile"),
                               (["--generate-completion-script", "fish"], "complete -c 'turnstile'")] {
            let r = try CLI.run(args)
            #expect(r.status == 0, "\(args): \(r.err)")
            let script = r.out
            #expect(script.contains(marker), "\(args)")
            for subcommand in ["filter", "match", "compile", "eval", "train", "rules"] {
                #expect(script.contains(subcommand), "\(args) completes \(subcommand)")
            }
        }
        let unknown = try CLI.run(["--generate-completion"])
        #expect(unknown.status == 2 && unknown.err.hasPrefix("turnstile: unknown option '--generate-completion'"), "\(unknown.err)")
    }

    @Test("a closed output pipe ends quietly with the status of what was found so far")
    func brokenPipeStatus() throws {
        let line = Array("a line with a winner in it, long enough to fill the pipe soon\n".utf8)
        let chunk = [UInt8]((0..<2000).flatMap { _ in line })
        for args in [["match", "winner"], ["match", "-F", "-o", "winner"], ["match", "--offsets", "-F", "-e", "winner"],
                     ["filter", "--spam", "-F", "-e", "winner"]]
            .flatMap({ [$0 + ["--threads", "1"], $0 + ["--threads", "2"]] }) {
            let result = try CLI.stream(args, feed: { handle in
                for _ in 0..<2000 {
                    do { try handle.write(contentsOf: Data(chunk)) } catch { return }
                }
            }, consume: { handle in
                _ = try? handle.read(upToCount: 100)
            })
            #expect(result.reason == .exit, "\(args): not killed by SIGPIPE")
            #expect(result.status == 0, "\(args): it printed matches before the pipe closed")
            #expect(result.stderr.isEmpty, "\(args): \(result.stderr)")
        }
    }

    @Test("-o - writes the automaton to standard output, the same bytes as a file")
    func outputDash() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("w.tsa").path
        #expect(try CLI.run(["compile", "-F", "-e", "winner", "-o", path]).status == 0)
        let piped = try CLI.run(["compile", "-F", "-e", "winner", "-o", "-"])
        #expect(piped.status == 0)
        #expect(piped.stdout == [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))))
        #expect(!FileManager.default.fileExists(atPath: SharedCorpora.repositoryRoot.appendingPathComponent("-").path))
    }

    @Test("-f and --rules files: a UTF-8 BOM is skipped and a CR before LF stripped")
    func bomAndCRLF() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let bom: [UInt8] = [0xEF, 0xBB, 0xBF]
        let words = try CLI.write(bom + "prize\r\nwinner\r\n".bytes, to: "w.txt", in: dir)
        let rules = try CLI.write(bom + "prize\t2\r\nwinner\t1\r\n".bytes, to: "r.tsv", in: dir)
        let input = "a winner, a prize\n".bytes
        let expected = "2:8:1:winner\n12:17:0:prize\n"
        #expect(try CLI.run(["match", "--offsets", "-F", "-f", words], stdin: input).out == expected)
        #expect(try CLI.run(["match", "--offsets", "-f", words], stdin: input).out == expected)
        #expect(try CLI.run(["match", "--offsets", "-F", "--rules", rules], stdin: input).out == expected)
    }

    @Test("a regex error from a -f or --rules file names file:line")
    func regexErrorNamesFileAndLine() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let words = try CLI.write("ok\nfine\nspam(mer\n".bytes, to: "w.txt", in: dir)
        let r = try CLI.run(["match", "-e", "x", "-f", words], stdin: "x\n".bytes)
        #expect(r.status == 2)
        #expect(r.err.hasPrefix("turnstile: \(words):3: not a valid regex: unclosed group (at byte 4)\n"), "\(r.err)")
        let rules = try CLI.write("# a comment\nok\t1\n\nspam(mer\t2\n".bytes, to: "r.tsv", in: dir)
        let f = try CLI.run(["filter", "--rules", rules], stdin: "x\n".bytes)
        #expect(f.status == 2)
        #expect(f.err.hasPrefix("turnstile: \(rules):4: not a valid regex"), "\(f.err)")
        // An -e pattern keeps its index.
        let e = try CLI.run(["match", "-e", "ok", "-e", "a("], stdin: "x\n".bytes)
        #expect(e.err.hasPrefix("turnstile: pattern 1 is not a valid regex"), "\(e.err)")
    }

    @Test("an error names a missing file once")
    func fileNamedOnce() throws {
        let missing = "/nonexistent/nosuch.txt"
        for args in [["match", "x", missing], ["match", "-f", missing], ["match", "--rules", missing], ["filter", missing],
                     ["filter", "--automaton", missing], ["eval", missing], ["filter", "--format", "mbox", missing]] {
            let r = try CLI.run(args)
            #expect(r.status == 2, "\(args)")
            #expect(r.err == "turnstile: \(missing): No such file or directory\n", "\(args): \(r.err)")
        }
    }

    @Test("filter refuses match's output flags with one sentence")
    func filterRefuses() throws {
        for flag in [["-o"], ["-A", "2"], ["-v"], ["-l"], ["--count-matches"], ["-C3"], ["--offsets"]] {
            let r = try CLI.run(["filter"] + flag, stdin: "x\n".bytes)
            #expect(r.status == 2, "\(flag)")
            let first = r.err.split(separator: "\n").first.map(String.init) ?? ""
            #expect(first.hasPrefix("turnstile: filter does not take \(flag[0].prefix(2))") && first.contains("turnstile match"), "\(flag): \(r.err)")
        }
    }

    @Test("the option table the normalizer uses is the one ArgumentParser reports",
          arguments: ["filter", "match", "grep", "compile", "eval", "train", "rules", "serve"])
    func spellingsMatchTheParser(subcommand: String) throws {
        let dump = try CLI.run([subcommand, "--experimental-dump-help"])
        let object = try #require(try JSONSerialization.jsonObject(with: Data(dump.stdout)) as? [String: Any])
        let arguments = try #require((object["command"] as? [String: Any])?["arguments"] as? [[String: Any]])
        var flags: Set<Character> = [], valued: [Character: String?] = [:], longValued: Set<String> = []
        for argument in arguments {
            let kind = argument["kind"] as? String
            let names = (argument["names"] as? [[String: String]]) ?? []
            let short = names.first { $0["kind"] == "short" }?["name"].flatMap(\.first)
            let long = names.first { $0["kind"] == "long" }?["name"]
            if kind == "flag", let short, short != "h" { flags.insert(short) }
            if kind == "option" {
                if let short { valued[short] = .some(long) }
                if let long { longValued.insert(long) }
            }
        }
        let table = try #require(OptionSpellings.bySubcommand[subcommand])
        #expect(Set(table.flags) == flags, "\(subcommand): short flags")
        let tableValued = Dictionary(uniqueKeysWithValues: table.valued.pairs.map { ($0.key, $0.value ?? "") })
        #expect(tableValued == valued.mapValues { $0 ?? "" }, "\(subcommand): short options with values")
        #expect(Set(table.longValued) == longValued, "\(subcommand): long options with values")
    }

    /// Options that undo each other, in both orders and spellings, on a binary input and
    /// two text inputs; run by GNU grep and by the links (``GrepPersonalityTests``).
    static let lastWinsCases: [String] = [
        "-H -h a a b", "-h -H a a b", "--with-filename --no-filename a a", "--no-filename -H a a",
        "-Hh a a b", "-hH a a b", "-l -L a a b", "-L -l a a b", "-lL a a b",
        "--files-without-match --files-with-matches a a b", "-l -L -c a a b", "-L -q a a b",
        "-a -I a bin", "-I -a a bin", "--binary-files=text -I a bin", "-I --binary-files=text a bin",
        "-a --binary-files=binary a bin", "--binary-files=without-match -a a bin",
        "--binary-files binary --text a bin", "-I --binary-files=binary a bin", "-c -a -I a bin a",
        "-i --no-ignore-case A a", "--no-ignore-case -i A a", "-y --no-ignore-case A a",
        "-H -h -e a -- -h a", "-L -l a -- a",
    ]

    @Test("the last of -H/-h, -l/-L, -a/-I/--binary-files and -i/--no-ignore-case wins, as in GNU grep",
          .enabled(if: GNUGrep.path != nil, "GNU grep not found at /usr/bin/grep"), arguments: lastWinsCases)
    func lastWins(_ flags: String) throws {
        try GrepPersonalityTests.compare(#"printf 'a\n' > a; printf 'b\n' > b; printf 'a\0\n' > bin; grep "# + flags,
                                         locales: ["C"])
    }

    /// Usage errors grep users and scripts know by their words: a value missing, an
    /// unknown option, a bad context length, max count, binary-files type or devices
    /// method, no pattern at all, `[:alpha:]` outside brackets, and large counts that
    /// GNU grep takes as no limit.
    static let usageWordCases: [String] = [
        "grep -A x a a", "grep -B -1 a a", "grep -C 1x a a", "grep --context=x a a", "grep -m x a a",
        "grep -m '' a a", "grep --binary-files=foo a a", "grep -D foo a a", "grep -e", "grep -nf", "grep -A",
        "grep --regexp", "grep --context", "grep -k a a", "grep -nk a a", "grep -NUM a a", "grep --foo a a",
        "grep --foo=x a a", "grep", "grep -c", "grep '[:alpha:]' a", "grep -A 99999999999999999999 a a",
        "grep -m 99999999999999999999 a a", "grep -m -1 a a", "grep -A +1 a a",
    ]

    @Test("usage errors in GNU grep's words, with its exit status",
          .enabled(if: GNUGrep.path != nil, "GNU grep not found at /usr/bin/grep"), arguments: usageWordCases)
    func gnuUsageWords(_ command: String) throws {
        let script = "printf 'a\\n' > a; " + command
        let gnu = try GrepPersonalityTests.run(script, path: "/usr/bin:/bin", locale: "C")
        let ours = try GrepPersonalityTests.run(script, path: GrepPersonalityTests.linkFolder.path + ":/usr/bin:/bin", locale: "C")
        #expect(gnu.status == ours.status && gnu.stdout == ours.stdout && gnu.stderr == ours.stderr, """
            \(command)
            GNU grep (status \(gnu.status)): \(gnu.stderr.debugDescription)
            turnstile (status \(ours.status)): \(ours.stderr.debugDescription)
            """)
    }

    @Test("grep --help says BRE is grep's default and -E match's")
    func grepHelpNamesItsDefault() throws {
        let help = try CLI.run(["grep", "--help"], stdin: []).out
        let line = { (flag: String) in help.split(separator: "\n").first { $0.contains(flag) }.map(String.init) ?? "" }
        #expect(line("-G, --basic-regexp").contains("grep's default"), "\(line("-G, --basic-regexp"))")
        #expect(!line("-E, --extended-regexp").contains("(the default"), "\(line("-E, --extended-regexp"))")
        #expect(help.contains("PATTERNS are GNU basic regexes (BRE)"))
    }
}

extension [UInt8] {
    var string: String { String(decoding: self, as: UTF8.self) }
}
