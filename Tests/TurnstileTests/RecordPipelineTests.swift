#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Testing
import AutomatonCore
import TestSupport
import Turnstile

/// Writes each record as `number@offset:content|terminator` plus its matches, to
/// memory: what a threaded run must reproduce exactly.
private struct TranscriptSink: ChunkSink {
    typealias Failure = Never
    let target: RecordSinkTarget
    let shared: Transcript
    var collected = ChunkOutput()
    var number = 0
    var name: String?
    var records = 0

    mutating func beginInput(name: String?, firstRecord: Int) {
        self.name = name
        number = firstRecord
    }

    mutating func record(
        content: UnsafeBufferPointer<UInt8>, terminator: UnsafeBufferPointer<UInt8>,
        offset: Int, matches: ArraySlice<Match>, truncated: Bool
    ) {
        number += 1
        records += 1
        var line = Array("\(name ?? "-") \(number)@\(offset):".utf8) + Array(content) + [0x7C] + Array(terminator)
        line += Array(" \(matches.map { "\($0.start)-\($0.end)" })\n".utf8)
        if target == .memory { line.withUnsafeBufferPointer { collected.append($0) } } else { shared.append(line) }
    }

    mutating func tail(_ bytes: UnsafeBufferPointer<UInt8>, end: UnsafeBufferPointer<UInt8>?) {}

    mutating func takeTally() -> RecordTally {
        defer { records = 0 }
        return RecordTally(records: records)
    }

    mutating func takeOutput(reusing storage: ChunkOutput) -> ChunkOutput {
        defer { collected = storage }
        return collected
    }
}

/// Counts records and cuts the file at `path` to `cut` bytes when the run's first
/// record arrives (once, whichever worker sees it): a file that shrinks while a
/// threaded run searches chunks of its mapping.
private struct ShrinkingSink: ChunkSink {
    typealias Failure = Never
    let path: String
    let cut: Int
    let cutDone: LockedValue<Bool>
    var records = 0

    mutating func beginInput(name: String?, firstRecord: Int) {}

    mutating func record(
        content: UnsafeBufferPointer<UInt8>, terminator: UnsafeBufferPointer<UInt8>,
        offset: Int, matches: ArraySlice<Match>, truncated: Bool
    ) {
        records += 1
        let first = cutDone.withLock { done -> Bool in defer { done = true }; return !done }
        if first { _ = truncate(path, off_t(cut)) }
    }

    mutating func tail(_ bytes: UnsafeBufferPointer<UInt8>, end: UnsafeBufferPointer<UInt8>?) {}

    mutating func takeTally() -> RecordTally {
        defer { records = 0 }
        return RecordTally(records: records)
    }

    mutating func takeOutput(reusing storage: ChunkOutput) -> ChunkOutput { storage }
}

/// The output of a run, appended to by one thread at a time.
private final class Transcript: @unchecked Sendable {
    private let bytes = LockedValue<[UInt8]>([])
    func append(_ more: [UInt8]) { bytes.withLock { $0 += more } }
    var text: String { String(decoding: bytes.withLock { $0 }, as: UTF8.self) }
}

@Suite("RecordPipeline: chunks cut by the reader, a threaded run equal to one thread")
struct RecordPipelineTests {
    /// Cutting a prefix of the input never splits a record: the records of the cut
    /// part followed by those of the rest are the records of the whole, for every
    /// delimiter and every cut position.
    @Test("every cut position of random inputs: whole records before the cut, counted right",
          arguments: RecordDelimiter.allCases)
    func cutsAtRecordBoundaries(delimiter: RecordDelimiter) {
        var rng = SeededGenerator(defaultSeed: 0xC07)
        let alphabet: [UInt8] = Array("ab\n\n\r\0 ".utf8)
        for _ in 0..<300 {
            let input = (0..<Int.random(in: 0...40, using: &rng)).map { _ in alphabet.randomElement(using: &rng)! }
            let whole = Self.records(input, delimiter)
            for prefixLength in 0...input.count {
                let prefix = Array(input[..<prefixLength])
                let atEnd = prefixLength == input.count
                let (end, count) = prefix.withUnsafeBufferPointer { delimiter.completeRecords(in: $0, atEnd: atEnd) }
                let head = Self.records(Array(input[..<end]), delimiter)
                let tail = Self.records(Array(input[end...]), delimiter)
                #expect(head.count == 2 * count, "seed \(rng.seed): \(input) cut at \(end)")
                #expect(head + tail == whole, "seed \(rng.seed): \(delimiter) \(input) cut at \(end) of \(prefixLength)")
                if atEnd { #expect(end == input.count) }
            }
        }
    }

    /// The read loop's hint: after a cut, the unfinished bytes hold no delimiter, so
    /// the next cut (those bytes plus a new read) may search the new bytes only. Fed in
    /// random read sizes, the hinted cuts equal unhinted cuts of the same bytes.
    @Test("cuts given the unfinished bytes as known open equal full cuts",
          arguments: RecordDelimiter.allCases)
    func knownOpenHint(delimiter: RecordDelimiter) {
        var rng = SeededGenerator(defaultSeed: 0xC08)
        let alphabet: [UInt8] = Array("abbbbbbb\n\0".utf8)
        for _ in 0..<300 {
            let input = (0..<Int.random(in: 0...200, using: &rng)).map { _ in alphabet.randomElement(using: &rng)! }
            var pending: [UInt8] = [], offset = 0
            while offset <= input.count {
                let n = min(Int.random(in: 0...9, using: &rng), input.count - offset)
                let atEnd = offset + n == input.count
                let valid = pending + input[offset..<(offset + n)]
                offset += n
                let hinted = valid.withUnsafeBufferPointer {
                    delimiter.completeRecords(in: $0, atEnd: atEnd, knownOpen: pending.count)
                }
                let plain = valid.withUnsafeBufferPointer { delimiter.completeRecords(in: $0, atEnd: atEnd) }
                #expect(hinted == plain, "seed \(rng.seed): \(delimiter) \(valid) known open \(pending.count)")
                pending = Array(valid[hinted.end...])
                if atEnd { break }
            }
        }
    }

    /// The chunks the reader hands out, put back together, are the input; each ends at
    /// a record end and knows the number of its first record.
    @Test("nextChunk: chunks rebuild the input, cut at record ends, numbered right",
          arguments: [RecordDelimiter.line, .nul, .blank, .mbox])
    func chunksRebuildTheInput(delimiter: RecordDelimiter) throws {
        var rng = SeededGenerator(defaultSeed: 0xC09)
        let alphabet: [UInt8] = Array("From abbbbbbbbbbbb\n\n\0".utf8)
        let input = (0..<20_000).map { _ in alphabet.randomElement(using: &rng)! }
        let path = try Self.temporaryFile(input)
        defer { unlink(path) }
        let fd = open(path, O_RDONLY)
        defer { close(fd) }
        var reader = RecordReader(delimiter: delimiter, maxRecordBytes: 1 << 20)
        let pool = RecordBufferPool()
        var rebuilt: [UInt8] = [], records = 0
        loop: while true {
            switch reader.nextChunk(from: fd, chunkBytes: 100, countingRecords: true, pool: pool) {
            case .chunk(let chunk):
                #expect(chunk.base == rebuilt.count)
                #expect(chunk.firstRecord == records, "seed \(rng.seed)")
                let bytes = Array(chunk.bytes)
                rebuilt += bytes
                records += Self.records(bytes, delimiter).count / 2
                pool.give(chunk.buffer)
            case .end: break loop
            case .failed(let code): Issue.record("read failed: \(code)"); break loop
            case .longRecord: Issue.record("no record is near the limit"); break loop
            }
        }
        #expect(rebuilt == input, "seed \(rng.seed)")
        #expect(records == Self.records(input, delimiter).count / 2)
        #expect(reader.bytesRead == input.count)
    }

    /// A run on 4 threads with 64-byte chunks (hundreds of chunks, records cut by
    /// chunk boundaries, one record longer than half the limit) writes what one thread
    /// writes, in input order, with record numbers and offsets, over two inputs and a
    /// missing one.
    @Test("threads 4 with tiny chunks, or over inputs: the transcript of one thread, events in order",
          arguments: [RecordDelimiter.line, .blank], [RunThreads.chunks(4), .inputs(4)])
    func threadedRunEqualsOneThread(delimiter: RecordDelimiter, plan: RunThreads) throws {
        var rng = SeededGenerator(defaultSeed: 0xC0A)
        let words = ["free", "cash", "x", "lunch", "\n", "\n\n"]
        var text = ""
        while text.utf8.count < 30_000 { text += words.randomElement(using: &rng)! + " " }
        text += String(repeating: "y", count: 3_000) + "\n\n" + "free tail"
        let path = try Self.temporaryFile(Array(text.utf8))
        defer { unlink(path) }
        let matcher = try Matcher(patterns: ["free", "cash"], options: Matcher.Options())
        let inputs = [path, "/nonexistent/input", path].map { RecordInput(path: $0, name: $0) }
        func transcript(threads: Int) -> (String, RecordRunOutcome<Never>) {
            var pipeline = RecordPipeline(matcher: matcher, delimiter: delimiter, maxRecordBytes: 4096,
                                          threads: threads, chunkBytes: 64)
            pipeline.forcedThreads = threads > 1 ? plan : .one
            // Over inputs, no more workers than inputs.
            let expected: RunThreads = threads == 1 ? .one : plan == .inputs(4) ? .inputs(inputs.count) : plan
            #expect(pipeline.threadPlan(inputs: inputs.count, sink: .chunks) == expected)
            let shared = Transcript()
            let outcome = pipeline.run(inputs, named: true, open: { input in
                let fd = open(input.path, O_RDONLY)
                return fd < 0 ? .failure(RecordInputError(message: "\(input.name): missing")) : .success(fd)
            }, makeSink: { TranscriptSink(target: $0, shared: shared) }) { event in
                switch event {
                case .output(let bytes): shared.append(Array(bytes))
                case .openFailed(let error): shared.append(Array("error \(error.message)\n".utf8))
                case .readFailed(let name, _): shared.append(Array("read error \(name)\n".utf8))
                case .shrank(let name): shared.append(Array("shrank \(name)\n".utf8))
                case .inputEnded(let name, let tally): shared.append(Array("end \(name) \(tally.records)\n".utf8))
                }
            }
            return (shared.text, outcome)
        }
        let (one, oneOutcome) = transcript(threads: 1)
        let (four, fourOutcome) = transcript(threads: 4)
        #expect(one.contains("error /nonexistent/input: missing\n") && one.contains("end \(path) "))
        #expect(four == one)
        #expect(fourOutcome.tally == oneOutcome.tally && fourOutcome.inputFailed && oneOutcome.inputFailed)
        #expect(fourOutcome.bytesRead == oneOutcome.bytesRead)
    }

    /// A mapped file cut shorter while two workers search chunks of its mapping: no
    /// crash (the guard maps zeros past the new end), the run reports `.shrank` for it,
    /// as one thread does (MappedInputTests.fileThatShrinks). A run that read the file
    /// instead of mapping it would see a shorter file and report no `.shrank`.
    @Test("threads 2 over chunks of a mapped file that shrinks: no crash, .shrank reported")
    func threadedMappedFileThatShrinks() throws {
        let line = Array("0123456789 cash and more text to fill the line out\n".utf8)
        var bytes: [UInt8] = []
        while bytes.count < 24 << 20 { bytes += line }
        let path = try Self.temporaryFile(bytes)
        defer { unlink(path) }
        let matcher = try Matcher(patterns: ["cash"], options: Matcher.Options())
        var pipeline = RecordPipeline(matcher: matcher, delimiter: .line, maxRecordBytes: 1 << 20,
                                      threads: 2, chunkBytes: 256 << 10)
        pipeline.mapsFiles = true
        pipeline.forcedThreads = .chunks(2)
        let cutDone = LockedValue(false)
        let events = Transcript()
        let outcome = pipeline.run([RecordInput(path: path, name: "shrinking")], named: true, open: { input in
            let fd = open(input.path, O_RDONLY)
            return fd < 0 ? .failure(RecordInputError(message: "\(input.name): missing")) : .success(fd)
        }, makeSink: { _ in ShrinkingSink(path: path, cut: 1 << 20, cutDone: cutDone) }) { event in
            switch event {
            case .shrank(let name): events.append(Array("shrank \(name)\n".utf8))
            case .inputEnded(let name, _): events.append(Array("end \(name)\n".utf8))
            case .openFailed, .readFailed: events.append(Array("failed\n".utf8))
            case .output: break
            }
        }
        #expect(cutDone.withLock { $0 })
        #expect(events.text.contains("shrank shrinking\n"), "events: \(events.text)")
        #expect(!events.text.contains("failed"))
        // At least the records before the cut were searched; none past the old end.
        #expect(outcome.tally.records >= (1 << 20) / line.count)
        #expect(outcome.tally.records <= bytes.count / line.count)
    }

    /// The pipeline asks the one decision with its own matcher's cost: a single
    /// literal over one big file stays on one thread, a lazy-DFA regex fans out.
    @Test("threadPlan: the matcher's cost decides for one input")
    func planFollowsTheMatchersCost() throws {
        let literal = try Matcher(patterns: ["cash"], options: Matcher.Options())
        var options = Matcher.Options()
        options.limits = Limits(maxStates: 400, maxTableBytes: 4 << 20, maxCacheBytes: 1 << 16)
        options.disabledStrategies = [.reverseSuffix]  // else the match search starts from the "x" (memchr)
        let lazy = try Matcher(patterns: ["[a-c][^x-z]{13}x"], options: options)
        #expect(literal.strategy.cost == .memoryBound)
        #expect(lazy.strategy.cost == .computeBound, "\(lazy.strategy.name)")
        func plan(_ matcher: Matcher) -> RunThreads {
            RecordPipeline(matcher: matcher, delimiter: .line, maxRecordBytes: 16 << 20, threads: 2,
                           chunkBytes: 1 << 20, knownInputBytes: 128 << 20).threadPlan(inputs: 1, sink: .chunks)
        }
        #expect(plan(literal) == .one)
        #expect(plan(lazy) == .chunks(2))
    }

    /// The records of `input` as the one-thread reader sees them: content, terminator,
    /// content, terminator, …
    static func records(_ input: [UInt8], _ delimiter: RecordDelimiter) -> [[UInt8]] {
        input.withUnsafeBufferPointer { buffer in
            var out: [[UInt8]] = []
            var from = 0
            while let (contentEnd, next) = delimiter.nextRecord(in: buffer, from: from, atEnd: true) {
                out.append(Array(buffer[from..<contentEnd]))
                out.append(Array(buffer[contentEnd..<next]))
                from = next
            }
            return out
        }
    }

    static func temporaryFile(_ bytes: [UInt8]) throws -> String {
        var template = Array("/tmp/turnstile-pipeline-XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        #expect(fd >= 0)
        defer { close(fd) }
        let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        #expect(written == bytes.count)
        return String(decoding: template.dropLast().map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}
