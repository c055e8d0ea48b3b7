import Foundation
import Testing
import TestSupport

/// `turnstile train` on Corpora/eval/tiny-train.tsv (weights computed by hand in
/// Tests/TurnstileTests/TrainingTests.swift) and, when present, on the shared SMS data.
@Suite("turnstile train")
struct TrainCommandTests {
    static let tiny = "Corpora/eval/tiny-train.tsv"

    /// The file `train --top 6 --min-count 1 --smoothing 1 --best-f1` writes for tiny-train.tsv.
    static let tinyFile = """
        # threshold: 1.52230
        # flags: -F -i -w
        # Trained by 'turnstile train': 5 records (2 spam, 3 ham); top 6, min count 1, smoothing 1.
        # weight = ln((s + a*p) / (h + a*(1-p))) - ln(p / (1-p)): s, h = spam, ham records containing the word,
        # p = share of spam, a = smoothing. Matched as whole words, ASCII case-insensitive.
        # The threshold maximizes F1 on the training records: precision 1.0000, recall 1.0000, F1 1.0000 (tp 2, fp 0, tn 3, fn 0).
        # Use: turnstile filter --rules FILE (the threshold and flags above apply)
        win\t1.7918
        big\t1.2528
        cash\t1.2528
        prize\t1.2528
        at\t-0.9808
        cup\t-0.9808

        """

    @Test("the tiny corpus gives the hand-computed file; the summary goes to stderr")
    func tinyCorpus() throws {
        let r = try CLI.run(["train", "--top", "6", "--min-count", "1", "--smoothing", "1", "--best-f1", Self.tiny])
        #expect(r.status == 0, "\(r.err)")
        #expect(r.out == Self.tinyFile)
        #expect(r.err.contains("proposed threshold 1.5223: training precision 1.0000, recall 1.0000, F1 1.0000"))
    }

    @Test("-o writes the file and prints the summary; filter -F -w -i --rules reads it, negative weights included")
    func outputFileAndFilter() throws {
        let dir = try CLI.temporaryDirectory()
        let path = dir.appendingPathComponent("words.tsv").path
        let r = try CLI.run(["train", "--top", "6", "--min-count", "1", "--smoothing", "1", "--best-f1", "-o", path, Self.tiny])
        #expect(r.status == 0)
        #expect(r.out.contains("proposed threshold 1.5223"))
        #expect(String(decoding: try Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self) == Self.tinyFile)
        // "win big" = 1.7918 + 1.2528 >= 1.5223; "win a cup" = 1.7918 - 0.9808 < 1.5223.
        let filtered = try CLI.run(["filter", "-F", "-w", "-i", "--rules", path, "--threshold", "1.52230", "--json"],
                                   stdin: "WIN big\nwin a cup\n".bytes)
        #expect(filtered.out == """
            {"record":1,"spam":true,"score":3.0446,"threshold":1.5223,"rules":[{"rule":0,"pattern":"win","weight":1.7918,"start":0,"end":3},{"rule":1,"pattern":"big","weight":1.2528,"start":4,"end":7}],"matches":[{"start":0,"end":3,"pattern":0,"text":"WIN"},{"start":4,"end":7,"pattern":1,"text":"big"}]}
            {"record":2,"spam":false,"score":0.811,"threshold":1.5223,"rules":[{"rule":0,"pattern":"win","weight":1.7918,"start":8,"end":11},{"rule":5,"pattern":"cup","weight":-0.9808,"start":14,"end":17}],"matches":[{"start":8,"end":11,"pattern":0,"text":"win"},{"start":14,"end":17,"pattern":5,"text":"cup"}]}

            """)
        // eval with the trained file reproduces the training figures.
        let eval = try CLI.run(["eval", "--json", "-F", "-w", "-i", "--rules", path, "--threshold", "1.5223", Self.tiny])
        #expect(eval.out.hasPrefix("{\"tp\":2,\"fp\":0,\"tn\":3,\"fn\":0,"))
    }

    @Test("deterministic: two runs give byte-identical files")
    func deterministic() throws {
        let a = try CLI.run(["train", "--min-count", "1", Self.tiny, "Corpora/eval/labelled.tsv"])
        let b = try CLI.run(["train", "--min-count", "1", Self.tiny, "Corpora/eval/labelled.tsv"])
        #expect(a.status == 0)
        #expect(a.stdout == b.stdout)
    }

    @Test("deterministic on the SMS training half: two runs give byte-identical lists",
          .enabled(if: SharedCorpora.isAvailable, "needs ../shared/corpora (see its SOURCES.md)"))
    func deterministicOnCorpus() throws {
        let data = try #require(SharedCorpora.bytes("sms-spam/train.tsv"))
        let c = try CLI.run(["train", "--top", "500"], stdin: data)
        let d = try CLI.run(["train", "--top", "500"], stdin: data)
        #expect(c.status == 0)
        #expect(c.stdout == d.stdout)
        #expect(c.out.split(separator: "\n").filter { !$0.hasPrefix("#") }.count == 500)
    }

    @Test("--min-precision proposes the lowest threshold keeping training precision")
    func minPrecision() throws {
        // Scores on labelled.tsv with min count 1 are many; precision 1 is reachable
        // (the top-scoring records are spam), and its threshold is at least the best-F1 one.
        let best = try CLI.run(["train", "--min-count", "1", "--best-f1", "Corpora/eval/labelled.tsv"])
        let strict = try CLI.run(["train", "--min-count", "1", "--min-precision", "1", "Corpora/eval/labelled.tsv"])
        #expect(strict.status == 0, "\(strict.err)")
        #expect(strict.out.contains("# The threshold is the lowest keeping training precision >= 1: precision 1.0000,"))
        func threshold(_ out: String) -> Double? {
            out.split(separator: "\n").first.flatMap { Double($0.dropFirst("# threshold: ".count)) }
        }
        let t1 = try #require(threshold(best.out)), t2 = try #require(threshold(strict.out))
        #expect(t2 >= t1)
    }

    @Test("--include adds curated phrases; --folds cross-validates")
    func includeAndFolds() throws {
        let dir = try CLI.temporaryDirectory()
        let phrases = try CLI.write("# curated\nwin big\nsee you\nnever seen\n".bytes, to: "phrases.txt", in: dir)
        let r = try CLI.run(["train", "--top", "2", "--min-count", "1", "--smoothing", "1", "--best-f1", "--include", phrases, Self.tiny])
        #expect(r.status == 0, "\(r.err)")
        // p = 0.4, a = 1, one extra spam pseudo-record:
        //   win big:    s = 1 + 1, h = 0: ln(2.4 / 0.6) + ln 1.5 = ln 6   =  1.7918
        //   never seen: s = 0 + 1, h = 0: ln(1.4 / 0.6) + ln 1.5 = ln 3.5 =  1.2528
        //   see you:    s = 0 + 1, h = 1: ln(1.4 / 1.6) + ln 1.5 = ln 1.3125 = 0.2719
        #expect(r.out.hasSuffix("\nwin\t1.7918\nbig\t1.2528\n\n# Curated phrases (\(phrases)), weighted the same way with 1 extra spam pseudo-record(s).\nwin big\t1.7918\nnever seen\t1.2528\nsee you\t0.2719\n"))
        let folds = try CLI.run(["train", "--min-count", "1", "--folds", "2", "-o", "/dev/null", "Corpora/eval/labelled.tsv"])
        #expect(folds.status == 0, "\(folds.err)")
        #expect(folds.out.contains("cross-validation, 2 folds (seed 1), held-out figures:\n  fold 1: threshold "))
        #expect(folds.out.contains("\n  mean: precision "))
    }

    @Test("errors: unknown label, missing file, one class only, bad options — exit 2")
    func errors() throws {
        let label = try CLI.run(["train"], stdin: "spam\ta\nbad\tb\n".bytes)
        #expect(label.status == 2)
        #expect(label.err == "turnstile: (standard input), line 2: unknown label \"bad\" (expected spam or ham before the TAB)\n")
        let missing = try CLI.run(["train", "no-such-file.tsv"])
        #expect(missing.status == 2)
        #expect(missing.err.contains("no-such-file.tsv"))
        let oneClass = try CLI.run(["train"], stdin: "spam\ta b c\n".bytes)
        #expect(oneClass.status == 2)
        #expect(oneClass.err.contains("both spam and ham"))
        #expect(try CLI.run(["train", "--smoothing", "0", Self.tiny]).status == 2)
        #expect(try CLI.run(["train", "--min-precision", "1.5", Self.tiny]).status == 2)
        let dir = try CLI.temporaryDirectory()
        let bad = try CLI.write("£5 off\n".bytes, to: "bad.txt", in: dir)
        let phrase = try CLI.run(["train", "--include", bad, Self.tiny])
        #expect(phrase.status == 2)
        #expect(phrase.err.contains("must start and end with a letter, digit or '_'"))
        #expect(try CLI.run(["train", "--help"]).out.contains("turnstile train"))
    }
}
