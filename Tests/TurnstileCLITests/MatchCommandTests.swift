import Foundation
import Testing
import TestSupport

@Suite("turnstile match")
struct MatchCommandTests {
    @Test("start:end:pattern:text with absolute offsets, pattern ids in command-line order")
    func lines() throws {
        let r = try CLI.run(["match", "--offsets", "-F", "-e", "prize", "-e", "winner"], stdin: "a winner,\na prize\n".bytes)
        #expect(r.out == "2:8:1:winner\n12:17:0:prize\n")
        #expect(r.status == 0)
        let none = try CLI.run(["match", "-F", "-e", "zzz"], stdin: "abc\n".bytes)
        #expect(none.status == 1)
        #expect(none.stdout.isEmpty)
    }

    @Test("pattern ids follow the command line over -e, -f lines and --rules lines")
    func patternIDs() throws {
        let dir = try CLI.temporaryDirectory()
        let file = try CLI.write("bb\ncc\n".bytes, to: "p.txt", in: dir)
        let rules = try CLI.write("dd\t3\n".bytes, to: "r.tsv", in: dir)
        let r = try CLI.run(["match", "--offsets", "-F", "-e", "ee", "--rules", rules, "-f", file, "--regexp=aa"],
                            stdin: "aa bb cc dd ee\n".bytes)
        #expect(r.out == "0:2:4:aa\n3:5:2:bb\n6:8:3:cc\n9:11:1:dd\n12:14:0:ee\n")
    }

    @Test("--regexp=PATTERN and -e accept a pattern starting with '-'")
    func dashPattern() throws {
        #expect(try CLI.run(["match", "--offsets", "--regexp=-foo"], stdin: "a -foo\n".bytes).out == "2:6:0:-foo\n")
        #expect(try CLI.run(["match", "--offsets", "-F", "-e", "-foo"], stdin: "a -foo\n".bytes).out == "2:6:0:-foo\n")
    }

    /// `rg --json`'s messages with what depends on the run taken out: elapsed times,
    /// bytes printed, and our submatches' extra `pattern` key.
    static func comparableJSON(_ output: [UInt8]) throws -> [NSDictionary] {
        func clean(_ value: Any) -> Any {
            if let d = value as? [String: Any] {
                var out: [String: Any] = [:]
                for (k, v) in d where !["elapsed", "elapsed_total", "bytes_printed", "pattern"].contains(k) { out[k] = clean(v) }
                return out
            }
            if let a = value as? [Any] { return a.map(clean) }
            return value
        }
        return try String(decoding: output, as: UTF8.self).split(separator: "\n").map { line in
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8))
            return clean(object) as! NSDictionary
        }
    }

    @Test("--json prints rg --json's messages: begin, match (lines, line_number, absolute_offset, submatches), end, summary",
          .enabled(if: CLI.ripgrep != nil, "rg is not installed (make deps installs ripgrep)"))
    func jsonLikeRipgrep() throws {
        let rg = try #require(CLI.ripgrep)
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let a = try CLI.write("foo bar foo\nxyz\n".bytes + [0xFF] + " foo\ncaf\u{e9} foo\n".bytes, to: "a.txt", in: dir)
        let b = try CLI.write("nothing here\n".bytes, to: "b.txt", in: dir)
        let c = try CLI.write("last foo".bytes, to: "c.txt", in: dir)
        // Patterns that match the empty string report their empty matches, as rg's do
        // (issue 35; ASCII text: rg also reports empty matches inside a UTF-8 sequence,
        // where ours step a whole character); no file is standard input, named <stdin>
        // as rg names it.
        // -v reports the records without a match, as rg's matches with no submatches.
        for (pattern, files, flags) in [("foo", [a], []), ("foo", [a, b, c], []), ("o+", [c, a], []), ("zzz", [a], []),
                                        ("", [c], []), ("o*", [b, c], []), ("$", [b], []), ("o*", [], []),
                                        ("foo", [a, b], ["-v"]), ("o", [], ["-v"]), ("zzz", [a], ["-v"])] {
            let stdin = "foo\nbar\n".bytes  // rg reads no stdin with files
            let process = try ChildProcess.run(rg, ["--json", "--no-config", "-j1"] + flags + ["-e", pattern] + files, stdin: stdin)
            let expected = process.stdout
            let ours = try CLI.run(["match", "--json"] + flags + ["-e", pattern] + files, stdin: stdin)
            #expect(ours.status == process.status, "\(pattern) \(files) \(flags): \(ours.err)")
            // The summary's bytes_printed is the sum of the end messages', as in rg.
            let messages = try String(decoding: ours.stdout, as: UTF8.self).split(separator: "\n").map {
                try JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] ?? [:]
            }
            func printed(_ m: [String: Any]) -> Int {
                let data = m["data"] as? [String: Any]
                return (data?["stats"] as? [String: Any])?["bytes_printed"] as? Int ?? 0
            }
            let ends = messages.filter { $0["type"] as? String == "end" }.map(printed).reduce(0, +)
            let summary = messages.last { $0["type"] as? String == "summary" }.map(printed)
            #expect(summary == ends, "\(pattern) \(files): summary bytes_printed \(summary ?? -1), ends \(ends)")
            #expect(try Self.comparableJSON(ours.stdout) == Self.comparableJSON(expected),
                    "\(pattern) \(files):\n\(ours.out)\nrg:\n\(String(decoding: expected, as: UTF8.self))")
        }
        let r = try CLI.run(["match", "-F", "-e", "prize", "-e", "winner", "--json"], stdin: "a winner, a prize\n".bytes)
        let match = try Self.comparableJSON(r.stdout)[1]
        #expect((match["data"] as? NSDictionary)?["line_number"] as? Int == 1)
        #expect(r.out.contains(#""start":2,"end":8,"pattern":1"#) && r.out.contains(#""start":12,"end":17,"pattern":0"#))
    }

    @Test("-c counts records, --count-matches matches; several inputs are prefixed")
    func countAndFiles() throws {
        let dir = try CLI.temporaryDirectory()
        let a = try CLI.write("ab ab\n".bytes, to: "a.txt", in: dir)
        let b = try CLI.write("xx\nab\n".bytes, to: "b.txt", in: dir)
        #expect(try CLI.run(["match", "-c", "-F", "-e", "ab", a]).out == "1\n")
        #expect(try CLI.run(["match", "--count-matches", "-F", "-e", "ab", a]).out == "2\n")
        #expect(try CLI.run(["match", "--count", "-F", "-e", "ab", a, b]).out == "\(a):1\n\(b):1\n")
        #expect(try CLI.run(["match", "--count-matches", "-F", "ab", a, b]).out == "\(a):2\n\(b):1\n")
        #expect(try CLI.run(["match", "--offsets", "-F", "-e", "ab", a, b]).out == "\(a):0:2:0:ab\n\(a):3:5:0:ab\n\(b):3:5:0:ab\n")
        #expect(try CLI.run(["match", "-F", "ab", a, b]).out == "\(a):ab ab\n\(b):ab\n")
    }

    @Test("--match-kind leftmost-first, leftmost-longest, overlapping")
    func matchKinds() throws {
        let args = ["match", "--offsets", "-F", "-e", "Sam", "-e", "Samwise"]
        let input = "Samwise\n".bytes
        #expect(try CLI.run(args, stdin: input).out == "0:3:0:Sam\n")
        #expect(try CLI.run(args + ["--match-kind", "leftmost-longest"], stdin: input).out == "0:7:1:Samwise\n")
        #expect(try CLI.run(args + ["--match-kind", "overlapping"], stdin: input).out == "0:3:0:Sam\n0:7:1:Samwise\n")
        let regex = try CLI.run(["match", "-e", "a", "--match-kind", "overlapping"], stdin: input)
        #expect(regex.status == 2)
        #expect(regex.err.hasPrefix("turnstile: --match-kind overlapping needs literal patterns (-F)"))
    }

    @Test("-i and -w")
    func caseAndWords() throws {
        let r = try CLI.run(["match", "--offsets", "-F", "-i", "-w", "-e", "win"], stdin: "WIN winner win_ (win)\n".bytes)
        #expect(r.out == "0:3:0:WIN\n17:20:0:win\n")
    }

    @Test("--builtin: the default list, case-insensitive whole words; without it the first operand is the pattern")
    func defaultList() throws {
        let r = try CLI.run(["match", "--builtin", "--offsets"], stdin: "Txt WIN now, you are a Winner\n".bytes)
        #expect(r.out.hasPrefix("0:3:"))
        #expect(r.out.hasSuffix(":you are a Winner\n"), "leftmost-first: the longer entry starts first")
        let pattern = try CLI.run(["match", "prize"], stdin: "a prize\nWIN\n".bytes)
        #expect(pattern.out == "a prize\n" && pattern.status == 0)
        let none = try CLI.run(["match"], stdin: "x\n".bytes)
        #expect(none.status == 2 && none.err.hasPrefix("turnstile: no pattern"), "\(none.err)")
        let mixed = try CLI.run(["match", "--builtin", "-e", "x"], stdin: [])
        #expect(mixed.status == 2)
    }

    @Test("--color=always highlights the text")
    func color() throws {
        let r = try CLI.run(["match", "--offsets", "-F", "-e", "ab", "--color=always"], stdin: "xab\n".bytes)
        #expect(r.out == "1:3:0:\u{1B}[01;31m\u{1B}[Kab\u{1B}[m\u{1B}[K\n")
    }

    @Test("--help shows a worked example")
    func help() throws {
        let r = try CLI.run(["match", "--help"])
        #expect(r.out.contains("Examples:") && r.out.contains("turnstile match"))
    }
}

@Suite("turnstile compile")
struct CompileCommandTests {
    @Test("--stats, and stats by default")
    func stats() throws {
        let r = try CLI.run(["compile", "-F", "-e", "he", "-e", "she", "-e", "his", "-e", "hers", "--stats"])
        #expect(r.status == 0)
        #expect(r.out.hasPrefix("strategy: literal-set (teddy)\nrepresentation: aho-corasick\n"))
        for key in ["storage:", "patterns: 4", "states:", "byte classes:", "memory bytes:", "build time:"] {
            #expect(r.out.contains(key))
        }
        #expect(try CLI.run(["compile", "-F", "-e", "x"]).out.hasPrefix("strategy: single-literal (rare-byte memmem)\nrepresentation: kmp\n"))
        #expect(try CLI.run(["compile", "-e", "a+b"]).out.hasPrefix("strategy: prefix-prefilter-dfa (memchr)\nrepresentation: regex\n"))
        let listed = try defaultListCount()
        #expect(try CLI.run(["compile"]).out.contains("patterns: \(listed)\n"))
    }

    @Test("--dot prints a Graphviz digraph")
    func dot() throws {
        let r = try CLI.run(["compile", "-F", "-e", "ab", "--dot"])
        #expect(r.out.hasPrefix("digraph \"turnstile\" {"))
        #expect(r.out.hasSuffix("}\n"))
    }

    @Test("-o saves; --automaton loads it in filter and match; a corrupt file is an error")
    func saveAndLoad() throws {
        let dir = try CLI.temporaryDirectory()
        let path = dir.appendingPathComponent("rules.tsa").path
        #expect(try CLI.run(["compile", "-F", "-i", "-e", "winner", "-e", "prize", "-o", path]).status == 0)
        let filter = try CLI.run(["filter", "--automaton", path], stdin: "A WINNER\nhello\n".bytes)
        #expect(filter.out == "hello\n")
        let match = try CLI.run(["match", "--offsets", "--automaton", path], stdin: "a PRIZE\n".bytes)
        #expect(match.out == "2:7:1:PRIZE\n")
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        let bad = try CLI.write(Array(bytes.prefix(40)), to: "bad.tsa", in: dir)
        let r = try CLI.run(["filter", "--automaton", bad], stdin: "x\n".bytes)
        #expect(r.status == 2)
        #expect(r.err.hasPrefix("turnstile: \(bad): the saved automaton is truncated"))
        let mixed = try CLI.run(["filter", "--automaton", path, "-e", "x"], stdin: [])
        #expect(mixed.status == 2)
    }

    @Test("--help shows a worked example")
    func help() throws {
        let r = try CLI.run(["compile", "--help"])
        #expect(r.out.contains("Examples:") && r.out.contains("turnstile compile"))
    }

    func defaultListCount() throws -> Int {
        let data = try Data(contentsOf: SharedCorpora.ownCorpora.appendingPathComponent("spam/default-words.txt"))
        return String(decoding: data, as: UTF8.self).split(separator: "\n")
            .filter { !$0.hasPrefix("#") && !$0.allSatisfy { $0 == " " || $0 == "\t" } }.count
    }
}
