import Foundation
import Testing
import TestSupport

/// Lines longer than `--max-record-bytes` are judged whole (issue 48): with a 40-byte
/// limit, most lines of GrepComparisonTests' corpus are long, and `match` must still
/// print what GNU grep prints for every flag set that selects lines (from a file, read
/// back in place, and from standard input, spooled). The flags that list matches
/// (`-o`) keep a line in memory and are left out: they search up to the limit.
@Suite("long lines equal GNU grep", .enabled(if: GNUGrep.path != nil,
                                             "GNU grep not found at /usr/bin/grep: the comparison with grep is skipped"))
struct LongLineTests {
    @Test("every line-selecting flag set, regex and -F patterns, with a 40-byte limit: grep's output")
    func smallLimit() throws {
        let corpus = try GrepComparisonTests.makeCorpus()
        defer { try? FileManager.default.removeItem(at: corpus.dir) }
        print("LongLineTests: corpus seed \(corpus.seed) (replay with TURNSTILE_SEED=\(corpus.seed))")
        let longLines = corpus.files["a.txt"]!.split(separator: 0x0A).filter { $0.count > 40 }.count
        #expect(longLines >= 10, "the corpus has lines past the limit (\(longLines))")
        var compared = 0
        for patterns in GrepComparisonTests.patterns {
            for flags in GrepComparisonTests.flagSets where !flags.contains("-o") {
                let ours = flags + ["--max-record-bytes", "40", "--threads", "1"]
                _ = try GrepComparisonTests.compare(flags, patterns, ["a.txt"], corpus: corpus, turnstileFlags: ours)
                _ = try GrepComparisonTests.compare(flags, patterns, [], corpus: corpus, stdin: corpus.files["b.txt"]!,
                                                    turnstileFlags: ours)
                compared += 2
            }
        }
        #expect(compared > 1_000)
    }

    @Test("a 17 MB line with the needle at its end, past the default 16 MiB: found by match and grep, no warning")
    func pastTheDefaultLimit() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let line = [UInt8](repeating: UInt8(ascii: "z"), count: 17 << 20) + Array(" needle".utf8)
        let file = try CLI.write(Array("first\n".utf8) + line + Array("\nlast\n".utf8), to: "long.txt", in: dir)
        for command in [["match"], ["grep"]] {
            for args in [["-c", "needle"], ["-n", "z needle$"], ["-v", "-c", "needle"]] {
                let ours = try CLI.run(command + args + [file])
                let grep = try ChildProcess.run(URL(fileURLWithPath: GNUGrep.path!), args + [file])
                #expect(ours.status == grep.status && ours.stdout == grep.stdout,
                        "\(command + args): status \(ours.status) vs \(grep.status), \(ours.stdout.count) vs \(grep.stdout.count) bytes")
                #expect(ours.err.isEmpty, "\(ours.err)")
            }
        }
    }
}
