// The CLI on hostile input, in sizes a test run can afford. The full-size
// versions (a 1 GB line, /dev/zero, peak RSS measured with /usr/bin/time -v) are in
// Fuzz/hostile-cli.sh (`make hostile-cli`).

import Foundation
import Testing
import TestSupport

@Suite("CLI on hostile input")
struct HostileInputTests {
    static let sanitized = ConcurrentChecks.sanitized
    static let big = sanitized ? 1 << 20 : 8 << 20

    @Test("one 8 MB line with no newline: judged whole, or on its first --max-record-bytes, and passed through")
    func hugeLine() throws {
        let line = [UInt8](repeating: UInt8(ascii: "z"), count: Self.big) + Array(" winner".utf8)
        // An explicit rule, so the test does not depend on how the built-in list is tuned.
        let whole = try CLI.run(["filter", "-F", "-w", "-i", "-e", "winner"], stdin: line)
        #expect(whole.status == 0 && whole.stdout.isEmpty, "the spam word at the end is seen")
        let capped = try CLI.run(["filter", "-F", "-w", "-i", "-e", "winner", "--max-record-bytes", "4096"], stdin: line)
        #expect(capped.status == 1, "\(capped.err)")
        // Like grep, the last record gets the newline it lacked.
        let passed = capped.stdout == line + [0x0A]
        #expect(passed, "judged on its first 4096 bytes (clean) and passed through whole: \(capped.stdout.count) of \(line.count) bytes")
    }

    @Test("a file of NUL bytes passes through unchanged and matches nothing")
    func nulBytes() throws {
        let zeros = [UInt8](repeating: 0, count: Self.big)
        let dir = try CLI.temporaryDirectory()
        let path = try CLI.write(zeros, to: "zeros.bin", in: dir)
        let filter = try CLI.run(["filter", path])
        let same = filter.stdout == zeros + [0x0A]  // one line without its newline
        #expect(same, "\(filter.stdout.count) of \(zeros.count) bytes, status \(filter.status): \(filter.err)")
        let match = try CLI.run(["match", "-F", "-e", "spam", "-e", "ham", path])
        #expect(match.status == 1 && match.stdout.isEmpty)
        let nul = try CLI.run(["filter", "--delimiter", "nul", "--max-record-bytes", "100", path])
        let sameNul = nul.stdout == zeros
        #expect(sameNul, "empty NUL-terminated records: \(nul.stdout.count) of \(zeros.count) bytes, status \(nul.status): \(nul.err)")
    }

    @Test("a pattern file of 100,000 lines with empty lines and duplicates: -F works, and so does the same list without -F")
    func hugePatternFile() throws {
        var rng = SeededGenerator(defaultSeed: 0xF11E)
        var lines: [String] = []
        for i in 0..<(Self.sanitized ? 10_000 : 100_000) {
            if i % 1_000 == 999 { lines.append("") }
            else if i % 3 == 0, !lines.isEmpty { lines.append(lines[Int.random(in: 0..<lines.count, using: &rng)]) }
            else { lines.append(String((0..<Int.random(in: 3...10, using: &rng)).map { _ in "abcdefghij".randomElement(using: &rng)! })) }
        }
        let dir = try CLI.temporaryDirectory()
        let path = try CLI.write(Array(lines.joined(separator: "\n").utf8) + [0x0A], to: "patterns.txt", in: dir)
        let input = Array("xyz\nkkk abcdefghij kkk\n".utf8)
        let literal = try CLI.run(["match", "-F", "-f", path, "--count-matches"], stdin: input)
        #expect(literal.status == 0, "\(literal.err)")
        // The empty pattern makes every record match; the count is the naive reference's.
        let words = lines.map { Array($0.utf8) }
        let naive = NaiveLiteralMatcher(patterns: words, kind: .leftmostFirst)
        let expected = naive.matches(in: Array("xyz".utf8)).count + naive.matches(in: Array("kkk abcdefghij kkk".utf8)).count
        #expect(String(decoding: literal.stdout, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) == "\(expected)")
        // Without -F the same list of plain words is the same literal automaton (issue 35:
        // it was refused past 10,000 states), with the same count.
        let regex = try CLI.run(["match", "-f", path, "--count-matches"], stdin: input)
        #expect(regex.status == 0, "\(regex.err)")
        #expect(regex.stdout == literal.stdout)
    }

    @Test("an endless NUL stream (/dev/zero) with --max-record-bytes streams out without buffering the record",
          .enabled(if: FileManager.default.isReadableFile(atPath: "/dev/zero"), "skipped: this system has no readable /dev/zero"))
    func devZero() throws {
        let want = Self.big
        var seen = 0
        let result = try CLI.stream(["filter", "--max-record-bytes", "65536", "/dev/zero"], feed: { $0.closeFile() }) { out in
            while seen < want {
                let data = out.availableData
                if data.isEmpty { break }
                #expect(!data.contains { $0 != 0 })
                seen += data.count
            }
        }
        #expect(seen >= want, "the record is passed through as it is read (\(seen) bytes, \(result.stderr))")
    }
}
