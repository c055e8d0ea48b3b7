import Foundation
import Testing
import TestSupport

@Suite("Streams: delimiters, bad input, big records, read-buffer boundaries, errors")
struct StreamTests {
    @Test("--delimiter nul: NUL-terminated records pass through")
    func nul() throws {
        let r = try CLI.run(["filter", "--delimiter", "nul"], stdin: Array("a\nb\0claim your prize\0c".utf8))
        #expect(r.stdout == Array("a\nb\0c\0".utf8))
    }

    @Test("--delimiter blank: paragraphs, their blank lines kept, CRLF too")
    func blank() throws {
        let input = "Dear Sam,\nlunch?\n\n\nYou are a\nWINNER! Claim your prize!\r\n\r\nbye\n"
        let r = try CLI.run(["filter", "--delimiter", "blank"], stdin: input.bytes)
        #expect(r.out == "Dear Sam,\nlunch?\n\n\nbye\n")
        let json = try CLI.run(["filter", "--delimiter", "blank", "--json"], stdin: input.bytes)
        #expect(json.out.split(separator: "\n").count == 3)
    }

    @Test("--delimiter blank over a 3 MB stream: paragraphs cut across reads are kept whole")
    func blankStream() throws {
        var input: [UInt8] = [], expected: [UInt8] = []
        var n = 0
        var rng = SeededGenerator(defaultSeed: 0xB1A4C)
        while input.count < 3_000_000 {
            n += 1
            let crlf = n % 3 == 0
            let eol: [UInt8] = crlf ? [0x0D, 0x0A] : [0x0A]
            var paragraph: [UInt8] = []
            for line in 0..<Int.random(in: 1...6, using: &rng) {
                paragraph += Array("paragraph \(n) line \(line) \(String(repeating: "z", count: Int.random(in: 0...300, using: &rng)))".utf8) + eol
            }
            let spam = n % 7 == 0
            if spam { paragraph += Array("claim your prize".utf8) + eol }
            let separator = [UInt8]((0..<Int.random(in: 1...3, using: &rng)).flatMap { _ in eol })
            input += paragraph + separator
            if !spam { expected += paragraph + separator }
        }
        // An explicit rule: the filler words ("line", digits) carry weights in the trained default list.
        let r = try CLI.run(["filter", "-F", "-e", "claim your prize", "--delimiter", "blank"], stdin: input)
        #expect(r.stdout.count == expected.count)
        #expect(r.stdout == expected, "seed \(rng.seed)")
        #expect(try CLI.run(["filter", "-F", "-e", "claim your prize", "--delimiter", "blank", "--count"], stdin: input).out
                == "clean \(n - n / 7) spam \(n / 7)\n")
    }

    @Test("--delimiter none: the whole input is one record, so a regex may cross lines")
    func none() throws {
        let r = try CLI.run(["match", "--offsets", "-e", "a\\nb", "--delimiter", "none"], stdin: "xa\nb\n".bytes)
        #expect(r.out == "1:4:0:a\nb\n")
        let lines = try CLI.run(["match", "-e", "a\\nb"], stdin: "xa\nb\n".bytes)
        #expect(lines.status == 1)
        let filter = try CLI.run(["filter", "--delimiter", "none", "--count"], stdin: "hi\nclaim your prize\n".bytes)
        #expect(filter.out == "clean 0 spam 1\n")
    }

    @Test("invalid UTF-8, NUL bytes and CRLF pass through byte for byte")
    func badBytesPassThrough() throws {
        var input: [UInt8] = []
        input += [0xFF, 0xFE, 0x61, 0x0A]                // invalid UTF-8
        input += [0x62, 0x00, 0x63, 0x0D, 0x0A]          // NUL and CRLF
        input += [0xC3, 0x28, 0x80, 0xE2, 0x82, 0x0A]    // broken sequences
        input += Array("caf\u{e9} \u{1F600}\r\n".utf8)
        let r = try CLI.run(["filter"], stdin: input)
        #expect(r.stdout == input)
        #expect(r.status == 1)
        let withSpam = try CLI.run(["filter"], stdin: input + Array("\u{FF}claim your prize\u{FF}\r\n".utf8))
        #expect(withSpam.stdout == input)
        let json = try CLI.run(["filter", "--json"], stdin: input)
        for line in json.out.split(separator: "\n") {
            #expect((try? JSONSerialization.jsonObject(with: Data(line.utf8))) != nil, "valid JSON: \(line)")
        }
    }

    @Test("a record larger than the read buffer (3 MiB), clean and spam")
    func bigRecord() throws {
        let big = [UInt8](repeating: UInt8(ascii: "x"), count: 3 << 20)
        let clean = big + [0x0A]
        let spam = big + Array(" winner, claim your prize\n".utf8)
        let r = try CLI.run(["filter"], stdin: Array("a\n".utf8) + clean + spam + Array("b\n".utf8))
        #expect(r.stdout == Array("a\n".utf8) + clean + Array("b\n".utf8))
        let m = try CLI.run(["match", "--offsets", "-F", "-e", "winner"], stdin: clean + spam)
        let at = clean.count + big.count + 1
        #expect(m.out == "\(at):\(at + 6):0:winner\n")
    }

    @Test("matches straddling read-buffer boundaries are found exactly once")
    func straddling() throws {
        // Put "winner" across every 64 KiB boundary up to 1.5 MiB, in lines of varied length.
        let boundaries = (1...24).map { $0 * 65_536 }
        var input: [UInt8] = []
        var expected = ""
        var line = 0
        for b in boundaries {
            let start = b - 3
            while input.count + 1_000 < start {
                line += 1
                let filler = [UInt8](repeating: UInt8(ascii: "a") + UInt8(line % 26), count: 50 + (line * 37) % 900)
                input += filler + [0x0A]
            }
            input += [UInt8](repeating: UInt8(ascii: "-"), count: start - input.count)
            input += Array("winner".utf8) + [0x0A]
            expected += "\(start):\(start + 6):0:winner\n"
        }
        let dir = try CLI.temporaryDirectory()
        let path = try CLI.write(input, to: "straddle.txt", in: dir)
        for args in [["match", "--offsets", "-F", "-e", "winner", path], ["match", "--offsets", "-F", "-e", "winner", "-e", "zebra", path],
                     ["match", "--offsets", "-e", "win+er", path]] {
            #expect(try CLI.run(args).out == expected, "\(args)")
        }
        #expect(try CLI.run(["match", "--offsets", "-F", "-e", "winner"], stdin: input).out == expected)
        #expect(try CLI.run(["filter", "-F", "-e", "winner", "--count", path]).out == "clean \(line) spam \(boundaries.count)\n")
    }

    @Test("missing files and directories are reported; the other inputs are still processed; exit 2")
    func missingFiles() throws {
        let dir = try CLI.temporaryDirectory()
        let ok = try CLI.write("hello\n".bytes, to: "ok.txt", in: dir)
        let missing = dir.appendingPathComponent("missing.txt").path
        let r = try CLI.run(["filter", missing, ok, dir.path])
        #expect(r.status == 2)
        #expect(r.out == "hello\n")
        #expect(r.err == "turnstile: \(missing): No such file or directory\nturnstile: \(dir.path): is a directory\n")
        let m = try CLI.run(["match", "-F", "-e", "hello", missing, ok])
        #expect(m.status == 2)
        #expect(m.out == "\(ok):hello\n")
    }

    @Test("a bad regex: one sentence, the pattern and a caret; exit 2")
    func badRegex() throws {
        let r = try CLI.run(["match", "-e", "ok", "-e", "spam(mer"], stdin: "x\n".bytes)
        #expect(r.status == 2)
        #expect(r.stdout.isEmpty)
        #expect(r.err == "turnstile: pattern 1 is not a valid regex: unclosed group (at byte 4)\n    spam(mer\n        ^\n")
    }

    @Test("usage errors exit 2 with a turnstile: message")
    func usageErrors() throws {
        for args in [["filter", "--bogus"], ["nonsense"], ["filter", "--spam", "--count"], ["match", "--match-kind", "sideways"]] {
            let r = try CLI.run(args)
            #expect(r.status == 2, "\(args)")
            #expect(r.err.hasPrefix("turnstile: "), "\(args): \(r.err)")
        }
        let missingRules = try CLI.run(["filter", "--rules", "/nonexistent/rules.tsv"])
        #expect(missingRules.status == 2)
        #expect(missingRules.err == "turnstile: /nonexistent/rules.tsv: No such file or directory\n")
    }

    @Test("a broken pipe ends the run quietly")
    func brokenPipe() throws {
        let line = Array("a clean line of text that goes on for a while\n".utf8)
        let chunk = [UInt8]((0..<2000).flatMap { _ in line })
        let result = try CLI.stream(["filter"], feed: { handle in
            for _ in 0..<2000 {   // ~180 MB if nobody stops reading; the writer fails once the process is gone
                do { try handle.write(contentsOf: Data(chunk)) } catch { return }
            }
        }, consume: { handle in
            _ = try? handle.read(upToCount: 1000)
        })
        #expect(result.reason == .exit, "not killed by SIGPIPE")
        #expect(result.status == 1, "nothing matched before the pipe closed")
        #expect(result.stderr.isEmpty)
    }

    @Test("a 200 MB stream generated on the fly: every clean line out, in order, spam held back")
    func twoHundredMegabytes() throws {
        // One block of lines, repeated: clean lines, spam lines, CRLF, invalid UTF-8.
        var block: [UInt8] = []
        var expectedBlock: [UInt8] = []
        var spamPerBlock = 0, cleanPerBlock = 0
        var k = 0
        while block.count < 100_000 {
            k += 1
            let line: [UInt8]
            let isSpam = k % 97 == 0
            if isSpam {
                line = Array("Txt WIN to claim your prize \(k)\n".utf8)
                spamPerBlock += 1
            } else if k % 13 == 0 {
                line = [0xFF, 0x20] + Array("caf\u{e9} line \(k) with a winners' cup\r\n".utf8)
            } else {
                line = Array("the quick brown fox \(k) jumps over the lazy dog, won't it?\n".utf8)
            }
            block += line
            if !isSpam { expectedBlock += line; cleanPerBlock += 1 }
        }
        let repeats = 200_000_000 / block.count + 1
        let feedBlock = Data(block)
        let clock = ContinuousClock()
        let started = clock.now
        var received = 0
        var mismatchAt: Int? = nil
        var pending: [UInt8] = []
        let result = try CLI.stream(["filter"], feed: { handle in
            for _ in 0..<repeats { try? handle.write(contentsOf: feedBlock) }
        }, consume: { handle in
            expectedBlock.withUnsafeBufferPointer { expected in
                while let data = try? handle.read(upToCount: 1 << 20), !data.isEmpty {
                    pending += data
                    // Compare whole copies of the expected block with memcmp.
                    var used = 0
                    while pending.count - used >= expected.count {
                        let equal = pending.withUnsafeBufferPointer { p in
                            memcmp(p.baseAddress! + used, expected.baseAddress!, expected.count) == 0
                        }
                        if !equal, mismatchAt == nil { mismatchAt = received }
                        used += expected.count
                        received += expected.count
                    }
                    pending.removeFirst(used)
                }
            }
        })
        #expect(mismatchAt == nil, "output differs in the block starting at \(mismatchAt ?? 0)")
        #expect(pending.isEmpty)
        #expect(received == expectedBlock.count * repeats)
        #expect(result.status == 0)
        #expect(result.stderr.isEmpty)
        let seconds = Double((clock.now - started) / .milliseconds(1)) / 1000
        print("200 MB stream: \(block.count * repeats) bytes in, \(received) out, \(seconds) s")
    }
}

/// A flag shared between the feeding thread and the test.
final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var value = false
    func set() { lock.lock(); value = true; lock.unlock() }
    var isSet: Bool { lock.lock(); defer { lock.unlock() }; return value }
}

@Suite("Interactive use")
struct InteractiveTests {
    @Test("output is flushed per record on a pipe, before the input ends (tail -f | turnstile filter)")
    func flushPerRecord() throws {
        let readIt = DispatchSemaphore(value: 0)
        let inputClosed = Flag()
        var first = Data()
        let result = try CLI.stream(["filter"], feed: { handle in
            try? handle.write(contentsOf: Data("hello\nWINNER! Claim your prize\n".utf8))
            _ = readIt.wait(timeout: .now() + 20)
            inputClosed.set()
        }, consume: { handle in
            first = handle.availableData
            let early = !inputClosed.isSet
            readIt.signal()
            #expect(early, "the clean record arrived only after the input was closed")
            _ = handle.readDataToEndOfFile()
        })
        #expect(String(decoding: first, as: UTF8.self) == "hello\n")
        #expect(result.status == 0)
    }

    @Test("--color auto colours on a terminal and respects NO_COLOR",
          .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/script")))
    func colorOnTerminal() throws {
        let dir = try CLI.temporaryDirectory()
        let file = try CLI.write("a winner\n".bytes, to: "w.txt", in: dir)
        func underScript(_ env: [String: String]) throws -> String {
            var environment = CLI.childEnvironment
            environment["NO_COLOR"] = nil
            environment["TERM"] = "xterm"
            for (k, v) in env { environment[k] = v }
            return try ChildProcess.run("/usr/bin/script", ["-qc", "'\(CLI.binary.path)' match --offsets -F -e winner '\(file)'", "/dev/null"],
                                        stdin: nil, environment: environment).out
        }
        #expect(try underScript([:]).contains("\u{1B}[01;31m\u{1B}[Kwinner\u{1B}[m\u{1B}[K"))
        let plain = try underScript(["NO_COLOR": "1"])
        #expect(plain.contains("2:8:0:winner") && !plain.contains("\u{1B}["))
    }
}
