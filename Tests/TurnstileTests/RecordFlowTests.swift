#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Testing
import AutomatonCore
import TestSupport
import Turnstile

/// Takes records until it has `limit` of an input, then says so by its flow:
/// `.endInput` (grep's `-m`), or `.endRun` in the input named `endsRunIn` (`-q`).
private struct StoppingSink: ChunkSink {
    typealias Failure = Never
    let target: RecordSinkTarget
    let shared: FlowTranscript
    let limit: Int
    let endsRunIn: String?
    var collected = ChunkOutput()
    var name: String?
    var taken = 0
    var afterStop = 0
    private(set) var flow = RecordFlow.more

    mutating func beginInput(name: String?, firstRecord: Int) {
        self.name = name
        taken = 0
        flow = .more
    }

    mutating func record(
        content: UnsafeBufferPointer<UInt8>, terminator: UnsafeBufferPointer<UInt8>,
        offset: Int, matches: ArraySlice<Match>, truncated: Bool
    ) {
        if flow != .more { afterStop += 1 }
        taken += 1
        let line = Array("\(name ?? "-") \(offset):".utf8) + Array(content) + [0x0A]
        if target == .memory { line.withUnsafeBufferPointer { collected.append($0) } } else { shared.append(line) }
        if taken == limit { flow = name == endsRunIn ? .endRun : .endInput }
    }

    mutating func tail(_ bytes: UnsafeBufferPointer<UInt8>, end: UnsafeBufferPointer<UInt8>?) {}

    mutating func takeTally() -> RecordTally {
        defer { taken = 0 }
        return RecordTally(records: taken, selected: afterStop)
    }

    mutating func takeOutput(reusing storage: ChunkOutput) -> ChunkOutput {
        defer { collected = storage }
        return collected
    }

    var parallelism: SinkParallelism { .inputs }
}

/// The output of a run, appended to by one thread at a time.
private final class FlowTranscript: @unchecked Sendable {
    private let bytes = LockedValue<[UInt8]>([])
    func append(_ more: [UInt8]) { bytes.withLock { $0 += more } }
    var text: String { String(decoding: bytes.withLock { $0 }, as: UTF8.self) }
}

@Suite("RecordFlow: a sink that has enough ends its input or the run, with nothing thrown")
struct RecordFlowTests {
    /// Each input gives exactly `limit` records and then ends, read or mapped, on one
    /// thread or across inputs; no record reaches the sink after it said so.
    @Test("endInput: each input stops after its limit, the next is read",
          arguments: [RunThreads.one, .inputs(3)], [false, true])
    func endInputStopsOneInput(plan: RunThreads, mapped: Bool) throws {
        let path = try Self.lines(2_000)
        defer { unlink(path) }
        let inputs = (1...4).map { RecordInput(path: path, name: "in\($0)") }
        let (text, outcome) = Self.run(inputs, plan: plan, mapped: mapped, limit: 7, endsRunIn: nil)
        for input in inputs {
            #expect(text.contains("end \(input.name) 7 0\n"), "\(text.suffix(300))")
            #expect(text.components(separatedBy: "\n").filter { $0.hasPrefix(input.name + " ") }.count == 7)
        }
        #expect(outcome.failure == nil && !outcome.endedBySink)
        #expect(outcome.tally.records == 28 && outcome.tally.selected == 0)
    }

    /// `.endRun` in the second input: its records up to the limit are written, it has
    /// no summary, and the inputs after it are not written — also when workers searched
    /// them ahead.
    @Test("endRun: the run stops in its input, the rest is not written",
          arguments: [RunThreads.one, .inputs(3)], [false, true])
    func endRunStopsTheRun(plan: RunThreads, mapped: Bool) throws {
        let path = try Self.lines(2_000)
        defer { unlink(path) }
        let inputs = (1...5).map { RecordInput(path: path, name: "in\($0)") }
        let (text, outcome) = Self.run(inputs, plan: plan, mapped: mapped, limit: 3, endsRunIn: "in2")
        let expected = (0..<3).map { "in1 \($0 * 10):line \($0 + 1000)\n" }.joined() + "end in1 3 0\n"
            + (0..<3).map { "in2 \($0 * 10):line \($0 + 1000)\n" }.joined()
        #expect(text == expected)
        #expect(outcome.endedBySink && outcome.failure == nil)
        #expect(outcome.tally.records == 6)
    }

    /// A file of `count` lines "line NNNN" (10 bytes each with the newline).
    static func lines(_ count: Int) throws -> String {
        try RecordPipelineTests.temporaryFile(Array((0..<count).map { "line \($0 + 1000)\n" }.joined().utf8))
    }

    private static func run(_ inputs: [RecordInput], plan: RunThreads, mapped: Bool, limit: Int,
                            endsRunIn: String?) -> (String, RecordRunOutcome<Never>) {
        var pipeline = RecordPipeline(delimiter: .line, maxRecordBytes: 4096, threads: 3, chunkBytes: 64)
        pipeline.forcedThreads = plan
        pipeline.mapsFiles = mapped
        let shared = FlowTranscript()
        let outcome = pipeline.run(inputs, named: true, open: { input in
            let fd = open(input.path, O_RDONLY)
            return fd < 0 ? .failure(RecordInputError(message: "\(input.name): missing")) : .success(fd)
        }, makeSink: { StoppingSink(target: $0, shared: shared, limit: limit, endsRunIn: endsRunIn) }) { event in
            switch event {
            case .output(let bytes): shared.append(Array(bytes))
            case .openFailed(let error): shared.append(Array("error \(error.message)\n".utf8))
            case .readFailed(let name, _): shared.append(Array("read error \(name)\n".utf8))
            case .shrank(let name): shared.append(Array("shrank \(name)\n".utf8))
            case .inputEnded(let name, let tally):
                shared.append(Array("end \(name) \(tally.records) \(tally.selected)\n".utf8))
            }
        }
        return (shared.text, outcome)
    }
}
