import Foundation
import Testing
import TestSupport

/// `--threads N`: the output of every thread count is byte for byte that of one thread.
///
/// `TURNSTILE_CHUNK_BYTES=1024` makes the reader cut inputs every 1 KiB, so inputs of
/// some 100 KiB cross many chunk boundaries, records straddle them, and records
/// longer than a chunk occur.
@Suite("--threads: chunked parallel search, output identical to one thread")
struct ThreadsTests {
    /// Chunks forced (`TURNSTILE_THREADS_PLAN`): the one decision would keep a small
    /// or memory-bound search on one thread, and these tests are about the chunks.
    static let smallChunks = ["TURNSTILE_CHUNK_BYTES": "1024", "TURNSTILE_THREADS_PLAN": "chunks"]
    /// Whole inputs on the workers (`grep -r`'s plan), forced.
    static let overInputs = ["TURNSTILE_THREADS_PLAN": "inputs"]

    /// Records of every length around the chunk size (a few longer than several
    /// chunks), with spam words and matches in them, separated by `separator`.
    static func records(count: Int, separator: String, seed: UInt64) -> [UInt8] {
        var rng = SeededGenerator(defaultSeed: seed)
        let words = ["free", "cash", "prize", "WINNER", "claim", "now", "hello", "lunch", "é", "txt", "urgent", "call"]
        var text = ""
        for i in 0..<count {
            let length = Int.random(in: 0..<20, using: &rng) == 0 ? Int.random(in: 1500...5000, using: &rng)
                : Int.random(in: 0...40, using: &rng)
            var record = "r\(i)"
            while record.utf8.count < length {
                record += " " + words.randomElement(using: &rng)!
                if separator == "\n\n", Int.random(in: 0..<50, using: &rng) == 0 { record += "\n" }
            }
            text += record + separator
        }
        if Bool.random(using: &rng) { text += "the last record has no delimiter free cash prize" }
        return Array(text.utf8)
    }

    static let outputs: [[String]] = [
        ["filter"], ["filter", "--spam"], ["filter", "--mask"], ["filter", "--count"], ["filter", "--json"],
        ["filter", "--explain"],
        ["match", "--builtin"], ["match", "--builtin", "-h"], ["match", "--builtin", "-c"],
        ["match", "--builtin", "--offsets"], ["match", "--builtin", "--count-matches"],
        ["match", "--builtin", "-n", "-b"], ["match", "--builtin", "-o", "-n", "-b"], ["match", "--builtin", "-v", "-n"],
        ["filter", "-n"], ["filter", "-c"],
    ]

    @Test("every delimiter and output: --threads 3 (and 2 from standard input) print what --threads 1 prints",
          arguments: [("line", "\n"), ("nul", "\0"), ("blank", "\n\n"), ("none", "\n")])
    func identicalToOneThread(delimiter: String, separator: String) throws {
        let input = Self.records(count: delimiter == "none" ? 100 : 400, separator: separator, seed: 0x7EAD5)
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = try CLI.write(input, to: "in.txt", in: dir)
        // Every output for lines; for the other delimiters the outputs that show every
        // record (numbers, offsets, scores) or every match.
        let outputs = delimiter == "line" ? Self.outputs
            : [["filter", "--json"], ["filter", "--explain"], ["filter", "--mask"], ["match", "--builtin"]]
        for output in outputs {
            let args = output + ["--delimiter", delimiter, "--color=never"]
            let one = try CLI.run(args + ["--threads", "1", file])
            #expect(one.status == 0, "\(args): \(one.err)")
            // The one record of `none` is spam, so its clean output is empty.
            #expect(!one.stdout.isEmpty || (delimiter == "none" && output == ["filter"]), "\(args)")
            for threads in [3] {
                let many = try CLI.run(args + ["--threads", "\(threads)", file], environment: Self.smallChunks)
                #expect(many.stdout == one.stdout, "\(args) --threads \(threads) differs from --threads 1")
                #expect(many.status == one.status && many.err == one.err, "\(args) --threads \(threads): \(many.err)")
            }
            // Standard input is chunked the same way.
            let piped = try CLI.run(args + ["--threads", "2"], stdin: input, environment: Self.smallChunks)
            #expect(piped.stdout == one.stdout, "\(args) from standard input")
        }
    }

    @Test("several inputs, one of them missing: printed in command-line order, the error in its place, exit 2")
    func severalInputsOneMissing() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let a = try CLI.write(Self.records(count: 300, separator: "\n", seed: 1), to: "a.txt", in: dir)
        let b = try CLI.write(Self.records(count: 20, separator: "\n", seed: 2), to: "b.txt", in: dir)
        let c = try CLI.write(Self.records(count: 300, separator: "\n", seed: 3), to: "c.txt", in: dir)
        let missing = dir.appendingPathComponent("missing.txt").path
        for output in [["filter", "--json"], ["filter", "--count"], ["match", "--builtin"], ["match", "--builtin", "-c"]] {
            let args = output + [a, missing, b, c, a]
            let one = try CLI.run(args + ["--threads", "1"])
            #expect(one.status == 2)
            #expect(one.err.contains("missing.txt"))
            #expect(!one.stdout.isEmpty, "\(args)")
            for environment in [Self.smallChunks, Self.overInputs] {
                let many = try CLI.run(args + ["--threads", "3"], environment: environment)
                #expect(many.stdout == one.stdout, "\(output) --threads 3 \(environment) differs from --threads 1")
                #expect(many.status == 2 && many.err == one.err, "\(output): \(many.err)")
            }
        }
    }

    /// grep's per-input outputs over whole inputs on threads (rg's model for many
    /// files): names, counts, `-m`, `-L`, binary files and encoding errors, each input
    /// whole on some worker and written in command-line order.
    @Test("grep over inputs on threads: what one thread prints, in input order, messages included")
    func grepOverInputs() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        var files: [String] = []
        for seed in 0..<12 {
            var bytes = Self.records(count: 50 + 40 * seed, separator: "\n", seed: UInt64(100 + seed))
            if seed % 4 == 1 { bytes.insert(0, at: bytes.count / 2) }        // binary (a NUL in its head)
            if seed % 4 == 2 { bytes += [0xFF, 0x20] + Array("cash\n".utf8) }  // an encoding error on a printed line
            files.append(try CLI.write(bytes, to: "f\(seed).txt", in: dir))
        }
        files.insert(dir.appendingPathComponent("missing.txt").path, at: 5)
        let environment = ["LC_ALL": "C.UTF-8"]
        for flags in [["cash"], ["-n", "cash"], ["-c", "cash"], ["-l", "cash"], ["-L", "prize"], ["-m", "2", "cash"],
                      ["-I", "-c", "cash"], ["-a", "cash"], ["-q", "cash"], ["-h", "-o", "cash"]] {
            let args = ["grep"] + flags + files
            let one = try CLI.run(args + ["--threads", "1"], environment: environment)
            let many = try CLI.run(args + ["--threads", "2"], environment: environment.merging(Self.overInputs) { $1 })
            #expect(many.stdout == one.stdout, "\(flags)")
            #expect(many.err == one.err && many.status == one.status, "\(flags): \(many.err)")
            if flags != ["-q", "cash"] { #expect(one.status == 2 && one.err.contains("missing.txt"), "\(flags)") }
        }
    }

    @Test("a record longer than half the record limit: the rest of that input is scanned by one thread, unchanged",
          arguments: [["filter"], ["filter", "--json"], ["match", "--builtin", "-c"], ["match", "--builtin"]])
    func recordPastTheChunkLimit(output: [String]) throws {
        // With 1 KiB chunks the smallest limit that allows chunks is 4 KiB; records up
        // to 2 KiB are chunked, longer ones hand the rest of the input to one thread,
        // and the records of 20 and 40 KB are past the limit.
        var text = Array(Self.records(count: 200, separator: "\n", seed: 4))
        text += Array(String(repeating: "free cash ", count: 2_000).utf8) + [0x0A]
        text += Self.records(count: 200, separator: "\n", seed: 5)
        text += Array(String(repeating: "x", count: 40_000).utf8) + Array(" prize\n".utf8)
        text += Self.records(count: 200, separator: "\n", seed: 6)
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = try CLI.write(text, to: "long.txt", in: dir)
        let args = output + ["--max-record-bytes", "4096", file, file]
        let one = try CLI.run(args + ["--threads", "1"])
        #expect(one.status == 0 && one.stdout.count > 20)
        for threads in [2] {
            let many = try CLI.run(args + ["--threads", "\(threads)"], environment: Self.smallChunks)
            #expect(many.stdout == one.stdout, "\(output) --threads \(threads)")
            #expect(many.err == one.err && many.status == one.status)
        }
    }

    /// `match` maps a regular file of 1 MiB or more and cuts the chunks from the mapping
    /// (MappedChunks.swift) instead of reading them: numbers, offsets, records longer
    /// than a chunk, a record too long to chunk, and a standard input that starts
    /// inside the file — each as one thread prints it.
    @Test("a mapped file in chunks: every match output and delimiter as --threads 1 prints it",
          arguments: [("line", "\n"), ("nul", "\0"), ("blank", "\n\n")])
    func mappedChunks(delimiter: String, separator: String) throws {
        var input = Self.records(count: 7_000, separator: separator, seed: 0x3A9)
        if delimiter == "line" {
            // Past half of --max-record-bytes 8192 below: the rest goes to one thread.
            input += Array(String(repeating: "x", count: 6_000).utf8) + Array(" prize\n".utf8)
            input += Self.records(count: 2_000, separator: separator, seed: 0x3AA)
        }
        #expect(input.count > 1 << 20)
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let file = try CLI.write(input, to: "mapped.txt", in: dir)
        let chunks = ["TURNSTILE_CHUNK_BYTES": "2048", "TURNSTILE_THREADS_PLAN": "chunks"]
        for output in [["-c"], ["-n", "-b"], ["-o", "-n", "-b"], ["-v", "-n"], ["--count-matches"], []] {
            let args = ["match", "--builtin", "--color=never", "--delimiter", delimiter, "--max-record-bytes", "8192"]
                + output
            let one = try CLI.run(args + ["--threads", "1", file])
            #expect(one.status == 0 && !one.stdout.isEmpty, "\(output): \(one.err)")
            let two = try CLI.run(args + ["--threads", "2", file], environment: chunks)
            #expect(two.stdout == one.stdout, "\(output) --threads 2 differs from --threads 1")
            #expect(two.status == one.status && two.err == one.err, "\(output): \(two.err)")
        }
        // Standard input redirected from the file, 1,000 bytes of it read before: the
        // offsets count from there, as with one thread.
        let script = "f=$1; shift; { dd bs=1000 count=1 of=/dev/null 2>/dev/null; exec \"$@\"; } < \"$f\""
        let args = ["-c", script, "sh", file, CLI.binary.path, "match", "--builtin", "--color=never",
                    "--delimiter", delimiter, "-b", "-n"]
        let one = try ChildProcess.run("/bin/sh", args + ["--threads", "1"], environment: CLI.childEnvironment)
        var env = CLI.childEnvironment
        for (k, v) in chunks { env[k] = v }
        let two = try ChildProcess.run("/bin/sh", args + ["--threads", "2"], environment: env)
        #expect(one.status == 0 && !one.stdout.isEmpty)
        #expect(two.stdout == one.stdout && two.status == one.status, "standard input from inside the file")
    }

    @Test("the real 1 MiB chunks: a 3 MiB line input with a 1.5 MB record, --threads 2 equals --threads 1")
    func realChunkSize() throws {
        var text = Self.records(count: 10_000, separator: "\n", seed: 7)
        text += Array(String(repeating: "claim ", count: 250_000).utf8) + [0x0A]
        text += Self.records(count: 10_000, separator: "\n", seed: 8)
        #expect(text.count > 3 << 20)
        for output in [["filter"], ["match", "--builtin", "-c"]] {
            let one = try CLI.run(output + ["--threads", "1"], stdin: text)
            let two = try CLI.run(output + ["--threads", "2"], stdin: text)
            #expect(one.status == 0 && !one.stdout.isEmpty)
            #expect(two.stdout == one.stdout, "\(output)")
        }
    }

    @Test("--threads 0 and a non-number are one-sentence errors with exit status 2",
          arguments: [["--threads", "0"], ["--threads", "two"], ["-j", "-3"]])
    func badThreadCount(args: [String]) throws {
        for command in ["filter", "match"] {
            let r = try CLI.run([command] + args, stdin: Array("free\n".utf8))
            #expect(r.status == 2)
            #expect(r.stdout.isEmpty)
            let first = r.err.split(separator: "\n").first.map(String.init) ?? ""
            #expect(first.hasPrefix("turnstile: ") && (first.contains("--threads") || first.contains("-j")), "\(r.err)")
        }
    }
}
