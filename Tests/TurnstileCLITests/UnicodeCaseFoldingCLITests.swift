// `turnstile match -i` folds Unicode case (simple folding, as PCRE2 with PCRE2_UTF).
// The expected lines agree with PCRE2 10.42 (checked in RegexAutomataTests'
// UnicodeCaseFoldingTests on the same strings) and, where GNU grep in C.UTF-8 folds the
// same way, with grep run for real. grep differs on three: it does not fold ß with ẞ
// (U+1E9E) nor k with U+212A KELVIN SIGN, and folds i with ı (U+0131); there the
// expectation is PCRE2's.
import Foundation
import Testing
import TestSupport

@Suite("match -i folds Unicode case")
struct UnicodeCaseFoldingCLITests {
    static let input = "ÉCOLE école\nΣΟΦΙΑ\nΣσς\nСТРАХ страх\nstraße\nss SS ẞ\nK\u{212A}k\n\u{17F}\nǅǆ\nİı\n"

    /// (pattern, the `-o` output lines, whether GNU grep in C.UTF-8 agrees).
    static let cases: [(String, [String], Bool)] = [
        ("école", ["ÉCOLE", "école"], true),
        ("ÉCOLE", ["ÉCOLE", "école"], true),
        ("σοφια", ["ΣΟΦΙΑ"], true),
        ("σ", ["Σ", "Σ", "σ", "ς"], true),
        ("ς", ["Σ", "Σ", "σ", "ς"], true),
        ("страх", ["СТРАХ", "страх"], true),
        ("strasse", [], true),
        ("Ǆ", ["ǅ", "ǆ"], true),
        ("s", ["s", "s", "s", "S", "S", "\u{17F}"], true),
        ("ß", ["ß", "ẞ"], false),
        ("k", ["K", "\u{212A}", "k"], false),
        ("i", [], false),
    ]

    static func grep(_ pattern: String) throws -> String {
        try ChildProcess.run("/usr/bin/grep", ["-o", "-i", "-e", pattern], stdin: Array(Self.input.utf8),
                             environment: ["LC_ALL": "C.UTF-8", "PATH": "/usr/bin:/bin"]).out
    }

    @Test("match -o -i on Latin, Greek (with final sigma), Cyrillic; no ß → ss", arguments: 0..<cases.count)
    func foldsLikePCRE2(_ index: Int) throws {
        let (pattern, expected, grepAgrees) = Self.cases[index]
        let result = try CLI.run(["match", "-o", "-i", "-e", pattern], stdin: Array(Self.input.utf8))
        let want = expected.map { $0 + "\n" }.joined()
        #expect(result.out == want, "match -o -i \(pattern)")
        #expect(result.status == (expected.isEmpty ? 1 : 0))
        if grepAgrees, FileManager.default.isExecutableFile(atPath: "/usr/bin/grep") {
            #expect(try Self.grep(pattern) == want, "grep -o -i \(pattern) in C.UTF-8")
        }
    }

    static let wordInput = "ÉCOLE gratuite\nécoles\nl'école\nСТРАХ и страх\nстрахи\nΣΟΦΙΑ σοφια\nnothing\nжСТРАХ\n"
    static let words = ["école", "страх", "σοφια"]

    /// `executable args` in C.UTF-8 on `input`, through the one process runner (which
    /// reads the output while it writes the input: no deadlock past a pipe's 64 KiB).
    static func run(_ executable: String, _ args: [String], input: String) throws -> String {
        try ChildProcess.run(executable, args, stdin: Array(input.utf8),
                             environment: ["LC_ALL": "C.UTF-8", "PATH": "/usr/bin:/bin"]).out
    }

    @Test("-F -i word lists fold Unicode in match and filter, with -w, as GNU grep -F -i -w")
    func wordListsFoldUnicode() throws {
        try #require(FileManager.default.isExecutableFile(atPath: "/usr/bin/grep"), "GNU grep is not at /usr/bin/grep")
        let wordArgs = Self.words.flatMap { ["-e", $0] }
        for w in [false, true] {
            let flags = ["-F", "-i"] + (w ? ["-w"] : [])
            let grepLines = try Self.run("/usr/bin/grep", flags + ["-o"] + wordArgs, input: Self.wordInput)
            let ours = try CLI.run(["match"] + flags + ["-o"] + wordArgs, stdin: Array(Self.wordInput.utf8),
                                   environment: ["LC_ALL": "C.UTF-8"])
            #expect(ours.out == grepLines, "match \(flags) -o and grep")
            #expect(!grepLines.isEmpty)
            let count = try Self.run("/usr/bin/grep", flags + ["-c"] + wordArgs, input: Self.wordInput)
            let filter = try CLI.run(["filter"] + flags + ["--count"] + wordArgs, stdin: Array(Self.wordInput.utf8),
                                     environment: ["LC_ALL": "C.UTF-8"])
            let lines = Self.wordInput.split(separator: "\n").count
            let spam = Int(count.trimmingCharacters(in: .whitespacesAndNewlines))!
            #expect(filter.out == "clean \(lines - spam) spam \(spam)\n", "filter \(flags) --count and grep -c")
        }
    }

    /// 1,990 ASCII dictionary words and 10 beyond ASCII, sampled with a fixed seed, and
    /// the first 256 KiB of the subtitles sample.
    static func dictionarySample() throws -> (words: [UInt8], haystack: [UInt8]) {
        let words = try #require(SharedCorpora.bytes("rebar/dictionary/english/sorted.txt"))
            .split(separator: 0x0A).map(Array.init)
        var rng = SeededGenerator(defaultSeed: 45)
        let ascii = words.filter { $0.allSatisfy { $0 < 0x80 } }, beyond = words.filter { $0.contains { $0 >= 0x80 } }
        let sample = (0..<1990).map { _ in ascii.randomElement(using: &rng)! } + (0..<10).map { _ in beyond.randomElement(using: &rng)! }
        let text = try #require(SharedCorpora.bytes("rebar/opensubtitles/en-sampled.txt"))
        return (sample.joined(separator: [0x0A]) + [0x0A], Array(text.prefix(256 << 10)))
    }

    @Test("-F -i with 2,000 dictionary words, some beyond ASCII: a literal automaton, exact against GNU grep (issue 45)",
          .enabled(if: SharedCorpora.isAvailable, "needs ../shared/corpora (see its SOURCES.md)"))
    func largeFoldedListAgainstGrep() throws {
        let (words, haystack) = try Self.dictionarySample()
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let list = try CLI.write(words, to: "words.txt", in: dir)
        let env = ["LC_ALL": "C.UTF-8", "PATH": "/usr/bin:/bin"]
        for mode in ["-c", "-o"] {
            let grep = try ChildProcess.run("/usr/bin/grep", ["-F", "-i", mode, "-f", list], stdin: haystack, environment: env)
            let ours = try CLI.run(["match", "--debug-strategy", "-F", "-i", mode, "-f", list], stdin: haystack,
                                   environment: ["LC_ALL": "C.UTF-8"])
            #expect(ours.status == 0, "\(ours.err)")
            #expect(ours.err.contains("strategy: folded-literal-set"), "\(ours.err)")
            #expect(ours.stdout == grep.stdout, "match -F -i \(mode) against grep")
        }
    }

    @Test("filter -F -i -w with 2,000 words: Unicode words as grep in C.UTF-8, ASCII words (--bytes) as grep in C",
          .enabled(if: SharedCorpora.isAvailable, "needs ../shared/corpora (see its SOURCES.md)"))
    func wholeWordListsAgainstGrep() throws {
        let (words, haystack) = try Self.dictionarySample()
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let list = try CLI.write(words.split(separator: 0x0A).filter { $0.allSatisfy { $0 < 0x80 } }
                                    .joined(separator: [0x0A]) + [0x0A], to: "ascii.txt", in: dir)
        let lines = haystack.split(separator: 0x0A, omittingEmptySubsequences: false).count - (haystack.last == 0x0A ? 1 : 0)
        for (locale, extra) in [("C.UTF-8", [String]()), ("C", ["--bytes"])] {
            let grep = try ChildProcess.run("/usr/bin/grep", ["-c", "-F", "-i", "-w", "-f", list], stdin: haystack,
                                            environment: ["LC_ALL": locale, "PATH": "/usr/bin:/bin"])
            let spam = try #require(Int(grep.out.trimmingCharacters(in: .whitespacesAndNewlines)))
            let ours = try CLI.run(["filter", "--count"] + extra + ["-F", "-i", "-w", "-f", list], stdin: haystack)
            #expect(ours.out == "clean \(lines - spam) spam \(spam)\n", "filter \(extra) -F -i -w against grep under \(locale)")
        }
    }
}
