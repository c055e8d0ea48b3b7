import Foundation
import Testing
import TestSupport

/// `compile -o` and `--automaton` through the built binary (issue 15 point 4), and the
/// trained rules file's header honoured by `filter --rules`.
@Suite("turnstile compile -o / --automaton")
struct SavedAutomatonCommandTests {
    /// The saved built-in list judges the SMS training half exactly as the built-in
    /// list does: same counts, same spam records (the threshold travels with it).
    @Test("the saved built-in list gives the built-in verdicts on the SMS training half")
    func savedBuiltInMatchesBuiltIn() throws {
        let dir = try CLI.temporaryDirectory()
        let saved = dir.appendingPathComponent("builtin.tsa").path
        let compiled = try CLI.run(["compile", "-o", saved])
        #expect(compiled.status == 0, "\(compiled.err)")
        var input = Array("Win a cash prize\nsee you at lunch\nURGENT! You have won a 1 week FREE membership\n".utf8)
        if let sms = SharedCorpora.lines("sms-spam/train.tsv") {
            input = Array(sms.map { String($0.drop { $0 != "\t" }.dropFirst()) }.joined(separator: "\n").utf8) + [0x0A]
        } else {
            print("SavedAutomatonCommandTests: \(SharedCorpora.skipMessage); hand-made records only")
        }
        for mode in [["--count"], ["--spam"], []] {
            let built = try CLI.run(["filter"] + mode, stdin: input)
            let loaded = try CLI.run(["filter", "--automaton", saved] + mode, stdin: input)
            #expect(built.status == loaded.status && built.stdout == loaded.stdout, "filter \(mode)")
        }
        let count = try CLI.run(["filter", "--automaton", saved, "--count"], stdin: input)
        if SharedCorpora.lines("sms-spam/train.tsv") != nil { #expect(count.out == "clean 2321 spam 388\n") }
        // --threshold still wins over the saved one.
        let strict = try CLI.run(["filter", "--automaton", saved, "--threshold", "1000", "--count"], stdin: input)
        #expect(strict.out.hasSuffix(" spam 0\n"), "\(strict.out)")
    }

    @Test("a damaged, truncated or too large automaton file: one sentence naming the file, exit 2")
    func damagedFiles() throws {
        let dir = try CLI.temporaryDirectory()
        let saved = dir.appendingPathComponent("words.tsa").path
        #expect(try CLI.run(["compile", "-F", "-e", "free", "-e", "cash", "-o", saved]).status == 0)
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: saved)))
        bytes[bytes.count / 2] ^= 0x04
        let damaged = try CLI.write(bytes, to: "damaged.tsa", in: dir)
        let truncated = try CLI.write(Array(bytes.prefix(30)), to: "short.tsa", in: dir)
        for (path, words) in [(damaged, "damaged"), (truncated, "truncated")] {
            let r = try CLI.run(["filter", "--automaton", path, "--count"], stdin: Array("free cash\n".utf8))
            #expect(r.status == 2, "\(r.err)")
            #expect(r.err.hasPrefix("turnstile: \(path): ") && r.err.contains(words), "\(r.err)")
            #expect(r.err.split(separator: "\n").count == 1 && r.out.isEmpty)
        }
        let big = try CLI.run(["filter", "--automaton", saved, "--max-automaton-bytes", "10"], stdin: [])
        #expect(big.status == 2 && big.err.contains("--max-automaton-bytes"), "\(big.err)")
        let zero = try CLI.run(["filter", "--automaton", "/dev/zero", "--count"], stdin: [])
        #expect(zero.status == 2 && zero.err.contains("--max-automaton-bytes"), "\(zero.err)")
    }

    /// `train` writes `# threshold:` and `# flags:`; `filter --rules FILE` alone then
    /// judges as `filter -F -w -i --rules FILE --threshold T` does, and flags given on
    /// the command line win.
    @Test("a trained rules file's threshold and flags apply; the command line wins")
    func trainedHeaderApplies() throws {
        let dir = try CLI.temporaryDirectory()
        let words = dir.appendingPathComponent("words.tsv").path
        let trained = try CLI.run(["train", "--top", "6", "--min-count", "1", "--smoothing", "1", "--best-f1", "-o", words, "Corpora/eval/tiny-train.tsv"])
        #expect(trained.status == 0, "\(trained.err)")
        let text = try String(contentsOfFile: words, encoding: .utf8)
        #expect(text.hasPrefix("# threshold: 1.52230\n# flags: -F -i -w\n"))
        let input = Array("WIN big cash\nwin at the cup\nxbigcashx\n".utf8)
        let header = try CLI.run(["filter", "--rules", words, "--spam"], stdin: input)
        let explicit = try CLI.run(["filter", "-F", "-w", "-i", "--rules", words, "--threshold", "1.5223", "--spam"], stdin: input)
        #expect(header.status == 0 && header.out == explicit.out && header.out == "WIN big cash\n", "\(header.out)")
        // -F alone on the command line wins over the header's -F -i -w: not whole words,
        // so "big" and "cash" inside "xbigcashx" count (1.2528 + 1.2528 >= 1.5223).
        let overridden = try CLI.run(["filter", "-F", "--rules", words, "--spam"], stdin: input)
        #expect(overridden.out == "WIN big cash\nxbigcashx\n", "\(overridden.out)")
    }
}
