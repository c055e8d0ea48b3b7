import ArgumentParser
import Testing
import TestSupport
@testable import TurnstileCLI

/// The quick reader of `match`, `grep` and `filter` command lines (`QuickArguments`) against
/// ArgumentParser, the reader it stands in for: on every command line either it gives
/// up, or it makes the very values ArgumentParser's command maps its options to, field
/// by field.
@Suite("Quick arguments: match, grep and filter read without reflection, as ArgumentParser reads them")
struct QuickArgumentsTests {
    /// The command a normalized line stands for, as ArgumentParser reads it (nil on an
    /// error, help or version).
    static func parsedByArgumentParser(_ normalized: [String]) -> (any ParsableCommand)? {
        try? TurnstileCommand.parseAsRoot(Array(normalized.dropFirst()))
    }

    /// Every stored value of `options` (a command's option values), one per line.
    static func fields(_ options: Any) -> String {
        var text = ""
        dump(options, to: &text)
        return text
    }

    /// The values ArgumentParser's `command` runs with.
    static func values(_ command: any ParsableCommand) -> Any? {
        switch command {
        case let c as MatchCommand: c.options
        case let c as GrepCommand: c.options
        case let c as FilterCommand: c.options
        default: nil
        }
    }

    enum Outcome: Equatable { case same, quickGaveUp, bothRefused }

    /// Checks one command line; `Outcome` says which reader read it.
    static func check(_ arguments: [String], sourceLocation: SourceLocation = #_sourceLocation) -> Outcome? {
        guard let normalized = try? ArgumentNormalizer().normalize(["turnstile"] + arguments) else { return nil }
        let slow = parsedByArgumentParser(normalized)
        guard let quick = QuickArguments.command(normalized) else {
            return slow == nil ? .bothRefused : .quickGaveUp
        }
        guard let slow, let slowValues = values(slow) else {
            Issue.record("the quick reader took \(arguments), which ArgumentParser refuses", sourceLocation: sourceLocation)
            return nil
        }
        let (a, b) = (fields(quick), fields(slowValues))
        let (linesA, linesB) = (a.split(separator: "\n"), b.split(separator: "\n"))
        let first = zip(linesA, linesB).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? min(linesA.count, linesB.count)
        #expect(a == b, """
            \(arguments): the first field that differs (line \(first))
            quick:          \(first < linesA.count ? String(linesA[first]) : "(end)")
            ArgumentParser: \(first < linesB.count ? String(linesB[first]) : "(end)")
            """, sourceLocation: sourceLocation)
        return .same
    }

    /// Option words both commands take, with values where they need one.
    static let shared: [[String]] = [
        ["-e", "abc"], ["-e", ""], ["-e", "-x"], ["--regexp=b|c"], ["-f", "/dev/null"], ["--rules", "r.tsv"],
        ["--add-rules", "a.tsv"], ["-F"], ["-i"], ["-y"], ["--no-ignore-case"], ["-w"], ["--bytes"], ["--ucp"],
        ["--max-pattern-file-bytes", "100"], ["--automaton", "x.tsa"], ["--max-automaton-bytes=9"],
        ["--max-states", "50"], ["--max-table-bytes", "4096"], ["-o"], ["-b"], ["-n"], ["-v"], ["-c"],
        ["--count-matches"], ["-l"], ["-L"], ["-q"], ["--silent"], ["-s"], ["-m", "3"], ["-m", "-1"], ["-A", "2"],
        ["-B1"], ["-C", "0"], ["-3"], ["-H"], ["-h"], ["--no-filename"], ["-x"], ["-z"], ["-Z"], ["-a"], ["-I"],
        ["--binary-files=text"], ["--binary-files", "without-match"], ["-E"], ["-G"], ["-P"], ["-R"],
        ["-d", "skip"], ["--directories=recurse"], ["-D", "read"], ["--exclude-from", "x"],
        ["--group-separator", "::"], ["--group-separator="], ["--no-group-separator"], ["-T"], ["-U"],
        ["--include", "*.txt"], ["--exclude", "*.c"], ["--exclude-dir", "d"], ["--label", "L"],
        ["--line-buffered"], ["-r"], ["--delimiter", "nul"], ["--color", "always"], ["--color"],
        ["--colour=never"], ["--max-record-bytes", "100"], ["-j", "2"], ["--threads=1"], ["--format", "mbox"],
        ["-nvc"], ["-Fie", "x"], ["-A1"], ["file.txt"], ["-"], ["--", "-v"],
    ]
    static let matchOnly: [[String]] = [["--builtin"], ["--match-kind", "overlapping"], ["--offsets"], ["--json"]]
    static let grepOnly: [[String]] = [["-V"], ["--version"], ["--ignore"], ["--line-n"]]
    /// Every option `filter` takes (its rule, stream and format options are `match`'s),
    /// with values where they need one.
    static let filterOptions: [[String]] = [
        ["-e", "abc"], ["-e", ""], ["-e", "-x"], ["--regexp=b|c"], ["-f", "/dev/null"], ["--rules", "r.tsv"],
        ["--add-rules", "a.tsv"], ["-F"], ["-i"], ["--no-ignore-case"], ["-w"], ["--bytes"], ["--ucp"],
        ["--debug-strategy"], ["--max-pattern-file-bytes", "100"], ["--automaton", "x.tsa"],
        ["--max-automaton-bytes=9"], ["--max-states", "50"], ["--max-table-bytes", "4096"],
        ["--delimiter", "nul"], ["--color", "always"], ["--color"], ["--colour=never"], ["--max-record-bytes", "100"],
        ["-j", "2"], ["--threads=1"], ["--format", "mbox"], ["--format=eml"], ["--format", "lines"],
        ["-n"], ["--line-number"], ["-c"], ["-H"], ["--with-filename"], ["-q"], ["--quiet"], ["--silent"], ["-s"],
        ["--no-messages"], ["-r"], ["--recursive"], ["-nH"], ["-Fie", "x"],
        ["--spam-to", "s.mbox"], ["--move-spam-to", "M"], ["--tag"], ["--tag-prefix", "X-Junk"], ["--exit-verdict"],
        ["--allow-from", "a.txt"], ["--deny-from", "d.txt"], ["--sender-fields", "from,sender"],
        ["--threshold", "2.5"], ["--threshold=-0.04865"], ["--db", "l.db"], ["--spam"], ["--mask"], ["--count"],
        ["--json"], ["--explain"], ["--stats"], ["file.txt"], ["-"], ["--", "-v"],
    ]
    /// Combinations that pass filter's `validate()` only together.
    static let filterMailLines: [[String]] = [
        ["--format", "mbox", "--tag", "--tag-prefix", "X-Junk", "--exit-verdict"],
        ["--format", "maildir", "--move-spam-to", "M", "--count"],
        ["--format", "mbox", "--spam-to", "s.mbox", "--db", "l.db", "--json"],
        ["--format", "eml", "--allow-from", "a", "--deny-from", "d", "--sender-fields", "from,return-path", "--explain"],
        ["-n", "-H", "-s", "-r", "--spam", "--threshold", "3"], ["-c", "-q", "--mask", "--stats"],
    ]

    @Test("every option, given twice around the operand: the same command, never a fallback")
    func eachOption() {
        for (command, own) in [("match", Self.matchOnly), ("grep", Self.grepOnly)] {
            for words in Self.shared + own {
                // Given twice, around the operand: alone and repeated in one line (a
                // second reading per option doubled this test's time, in debug 80 s).
                for line in [[command] + words + ["pat"] + words] {
                    let outcome = Self.check(line)
                    #expect(outcome == .same || outcome == .bothRefused || outcome == nil, "\(line): \(String(describing: outcome))")
                }
            }
        }
    }

    @Test("filter: every option, given twice around an operand, and mail combinations: the same command")
    func filterOptions() {
        var same = 0
        for words in Self.filterOptions {
            let outcome = Self.check(["filter"] + words + ["in.txt"] + words)
            #expect(outcome == .same || outcome == .bothRefused || outcome == nil, "\(words): \(String(describing: outcome))")
            if outcome == .same { same += 1 }
        }
        // Nearly every option alone passes validation (the mail ones need --format).
        #expect(same >= Self.filterOptions.count - 12, "only \(same) of \(Self.filterOptions.count) read quickly")
        for line in Self.filterMailLines {
            #expect(Self.check(["filter"] + line + ["in"]) == .same, "\(line)")
        }
        #expect(Self.check(["filter"]) == .same)
    }

    @Test("random combinations (seed printed): the quick reader agrees or gives up, and rarely gives up")
    func randomCombinations() {
        var generator = SeededGenerator(seed: 0x5eed_0040)
        print("QuickArgumentsTests.randomCombinations: seed 0x5eed0040")
        var counts: [Outcome: Int] = [:]
        for _ in 0..<80 {
            let command = Bool.random(using: &generator) ? "match" : "grep"
            let pool = Self.shared + (command == "match" ? Self.matchOnly : Self.grepOnly)
            var line = [command]
            for _ in 0..<Int.random(in: 0...6, using: &generator) {
                line += pool.randomElement(using: &generator)!
            }
            if Bool.random(using: &generator) { line.append("pattern") }
            if let outcome = Self.check(line) { counts[outcome, default: 0] += 1 }
        }
        #expect((counts[.same] ?? 0) > 40, "\(counts)")
        #expect(counts[.quickGaveUp] == nil, "lines ArgumentParser reads that the quick reader left to it: \(counts)")
    }

    @Test("random filter lines (seed printed): the quick reader agrees or gives up with ArgumentParser")
    func randomFilterLines() {
        var generator = SeededGenerator(seed: 0x5eed_0053)
        print("QuickArgumentsTests.randomFilterLines: seed 0x5eed0053")
        var counts: [Outcome: Int] = [:]
        let pool = Self.filterOptions + Self.filterMailLines
        for _ in 0..<60 {
            var line = ["filter"]
            for _ in 0..<Int.random(in: 0...4, using: &generator) {
                line += pool.randomElement(using: &generator)!
            }
            if let outcome = Self.check(line) { counts[outcome, default: 0] += 1 }
        }
        #expect((counts[.same] ?? 0) > 15, "\(counts)")
        #expect(counts[.quickGaveUp] == nil, "lines ArgumentParser reads that the quick reader left to it: \(counts)")
    }

    @Test("what only ArgumentParser does is left to it: help, match's --version, bad values, failed validation")
    func givesUp() {
        for line in [["match", "--help"], ["match", "--version"], ["grep", "--help"], ["match", "-m", "x", "p"],
                     ["match", "--binary-files=bogus", "p"], ["match", "-A", "-1", "p"], ["match", "--offsets", "--json", "p"],
                     ["match", "--builtin", "-e", "x"], ["match", "--max-states", "0", "p"], ["grep", "-j", "0", "p"],
                     ["match", "--count=yes", "p"], ["compile", "-e", "x"], ["filter", "--help"],
                     ["filter", "--threshold", "x"], ["filter", "--threshold=inf"], ["filter", "--spam", "--mask"],
                     ["filter", "--tag"], ["filter", "--db", "x.db"], ["filter", "--format", "mbox", "-n"],
                     ["filter", "--sender-fields", "to"], ["filter", "--tag=yes"], ["filter", "--version"],
                     ["filter", "--experimental-dump-help"]] {
            let normalized = (try? ArgumentNormalizer().normalize(["turnstile"] + line)) ?? []
            #expect(QuickArguments.command(normalized) == nil, "\(line)")
        }
    }
}
