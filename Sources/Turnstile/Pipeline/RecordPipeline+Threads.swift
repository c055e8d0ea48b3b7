// A RecordPipeline fanned out over threads. Every thread is a worker that takes turns
// at the one reader (read(2) into a buffer, cut after the last complete record: one
// chunk; or, for a regular file when the pipeline maps files, a range of one mapping of
// it: MappedChunks.swift), searches its chunk with a reader and sink of its own, and
// puts the chunk's output in an ordered hand-off; whichever worker holds the next
// number writes it.
//
// Why no reader thread and no writer thread: on a 2-core machine, `-j 2` with a
// reader, a writer and two workers ran four threads on two cores, and each chunk
// crossed three threads (wake-ups, and a chunk read on one core and searched on
// another, cold in its cache). Here a chunk is read and searched by the same thread,
// a worker waits only while another reads (a few per cent of the time) or when it is
// a whole window ahead of the writing, and N threads use N cores.

import AutomatonCore
import Synchronization

/// The state of one threaded run (see ``RecordPipeline/run(_:named:open:makeSink:events:)``).
final class ThreadedRecordRun<Sink: ChunkSink>: @unchecked Sendable {
    // @unchecked: `intake` and `turns` are behind locks; `events`, `written` and the
    // output arrays are used only by the thread holding the writing turn
    // (OrderedTurns), which its lock hands from thread to thread.
    typealias Failure = Sink.Failure

    private let pipeline: RecordPipeline
    private let inputs: [RecordInput]
    private let named: Bool
    private let open: @Sendable (RecordInput) -> Result<Int32, RecordInputError>
    private let makeSink: @Sendable (RecordSinkTarget) -> Sink
    private let events: (RecordRunEvent) throws(Failure) -> Void
    /// Items numbered but not yet written, at most: bounds memory to about this many
    /// chunks of input plus their output.
    private let window: Int
    private let buffers = RecordBufferPool()
    private let outputs = LockedValue<[ChunkOutput]>([])
    /// Set when writing failed: no more reading, searching or writing.
    private let stopped = Atomic<Bool>(false)

    /// A chunk taken from the reader, to search.
    private struct Job {
        var number: Int
        /// Complete records, from a read buffer or a mapping.
        var bytes: UnsafeBufferPointer<UInt8>
        /// The input offset of `bytes`' first byte, and the records before it.
        var base: Int
        var firstRecord: Int
        /// What holds `bytes`.
        var owner: Owner
        var name: String?
        /// Bytes of every input handed out in chunks so far, this one's included.
        var bytesHandedOut: Int
    }

    /// What holds a job's bytes: a read buffer, given back once searched, or the
    /// input's mapping, kept mapped while the job lives.
    private enum Owner {
        case buffer(RecordBuffer)
        case mapping(MappedChunks)
    }

    /// The rest of an input past a record too long to chunk: read on by one thread.
    private struct Rest {
        var fd: Int32
        var prefix: [UInt8]
        var base: Int
        var firstRecord: Int
        var input: RecordInput
    }

    /// What is written, in number order.
    private enum Item {
        case chunk(output: ChunkOutput?, tally: RecordTally, failure: Failure?)
        case rest(Rest)
        case event(RecordRunEvent)
        /// The input's end; its mapping, if it was mapped, is given back then (every
        /// chunk of it is searched by the time this is written).
        case inputEnd(name: String, mapped: MappedChunks?)
    }

    /// The reader and where it stands; locked while a worker reads.
    private struct Intake {
        var reader: RecordReader
        var index = 0
        var fd: Int32?
        /// The open input, when it is cut from a mapping rather than read.
        var mapped: MappedChunks?
        /// Bytes handed out from mappings (read bytes are the reader's count).
        var bytesMapped = 0
        var number = 0
        var finished = false
        var bytesHandedOut = 0
    }
    private let intake: LockedValue<Intake>

    /// The ordered hand-off (OrderedTurns.swift): items written in number order.
    private let turns: OrderedTurns<Item>

    /// What the writing turn keeps: the current input's tally and the outcome.
    private struct Written {
        var inputTally = RecordTally()
        var outcome = RecordRunOutcome<Failure>()
        var sequential: RecordReader?
    }
    private var written = Written()

    init(pipeline: RecordPipeline, inputs: [RecordInput], named: Bool,
         open: @escaping @Sendable (RecordInput) -> Result<Int32, RecordInputError>,
         makeSink: @escaping @Sendable (RecordSinkTarget) -> Sink,
         events: @escaping (RecordRunEvent) throws(Failure) -> Void) {
        self.pipeline = pipeline
        self.inputs = inputs
        self.named = named
        self.open = open
        self.makeSink = makeSink
        self.events = events
        self.window = 4 * pipeline.threads
        self.turns = OrderedTurns(window: window)
        self.intake = LockedValue(Intake(
            reader: RecordReader(delimiter: pipeline.delimiter, maxRecordBytes: pipeline.maxRecordBytes)))
    }

    /// Runs `threads` workers (this thread one of them) and returns what they found.
    ///
    /// The other workers start once the inputs have handed out two chunks' worth of
    /// bytes: an input that ends before (a short pipe, whose size is not known up
    /// front) is searched by this thread alone, so it costs no thread.
    func run() -> RecordRunOutcome<Failure> {
        var others: [SystemThread] = []
        work(whenBusy: {
            others = (1..<self.pipeline.threads).map { _ in SystemThread { [self] in work() } }
        })
        others.forEach { $0.join() }
        drain()
        var outcome = written.outcome
        // An input cut short (a broken pipe) still counts what it found.
        outcome.tally += written.inputTally
        outcome.bytesRead += intake.withLock { $0.reader.bytesRead + $0.bytesMapped } + (written.sequential?.bytesRead ?? 0)
        outcome.truncatedSomeRecord = written.sequential?.truncatedSomeRecord ?? false
        return outcome
    }

    /// One worker: take a chunk, search it, hand its output on, write what is next.
    /// `whenBusy` is called once, when a chunk is taken after two chunks' worth of
    /// bytes were handed out.
    private func work(whenBusy: (() -> Void)? = nil) {
        var searcher = pipeline.makeReader()
        var sink = makeSink(.memory)
        let counting = sink.needsRecordNumbers
        var whenBusy = whenBusy
        while let job = takeJob(countingRecords: counting) {
            if let start = whenBusy, job.bytesHandedOut > 2 * pipeline.chunkBytes {
                whenBusy = nil
                start()
            }
            var output: ChunkOutput?
            var tally = RecordTally()
            var failure: Failure?
            if !stopped.load(ordering: .relaxed) {
                sink.beginInput(name: job.name, firstRecord: job.firstRecord)
                // A memory sink has little to fail on, and never stops early (sinks
                // whose flow ends an input allow no chunks), but what it throws is the
                // run's failure, in its turn.
                do throws(Failure) {
                    try searcher.read(chunk: job.bytes, base: job.base, into: &sink)
                } catch {
                    failure = error
                }
                assert(sink.flow == .more, "a sink that ends inputs early runs whole inputs, never chunks")
                output = sink.takeOutput(reusing: takeOutputStorage())
                tally = sink.takeTally()
            }
            if case .buffer(let buffer) = job.owner { buffers.give(buffer) }
            put(job.number, .chunk(output: output, tally: tally, failure: failure))
            drain()
        }
        drain()
    }

    /// An empty buffer for a chunk's output, one already written when there is one: a
    /// fresh buffer per chunk comes back from `malloc` as untouched pages, and
    /// faulting them in cost about a fifth more CPU time.
    private func takeOutputStorage() -> ChunkOutput {
        outputs.withLock { $0.popLast() } ?? ChunkOutput()
    }

    /// The next chunk to search, reading it (and putting any input's end, failure or
    /// rest in its place on the way); nil when the inputs are done.
    private func takeJob(countingRecords: Bool) -> Job? {
        intake.withLock { intake -> Job? in
            while true {
                if stopped.load(ordering: .relaxed) {
                    if let fd = intake.fd { closeInput(fd); intake.fd = nil }
                    // Chunks of it still searched keep it mapped (`Job.owner`).
                    intake.mapped = nil
                    intake.finished = true
                }
                if intake.finished { return nil }
                guard let fd = intake.fd else {
                    guard intake.index < inputs.count else {
                        intake.finished = true
                        return nil
                    }
                    switch open(inputs[intake.index]) {
                    case .success(let opened):
                        intake.fd = opened
                        if pipeline.mapsFiles { intake.mapped = MappedChunks(fd: opened) }
                    case .failure(let error):
                        put(&intake.number, .event(.openFailed(error)))
                        intake.index += 1
                    }
                    continue
                }
                let input = inputs[intake.index]
                awaitWindow(for: intake.number)
                if let mapped = intake.mapped {
                    if let job = takeMappedJob(mapped, fd: fd, input: input, countingRecords: countingRecords,
                                               intake: &intake) {
                        return job
                    }
                    continue
                }
                switch intake.reader.nextChunk(from: fd, chunkBytes: pipeline.chunkBytes,
                                               countingRecords: countingRecords, pool: buffers) {
                case .chunk(let chunk):
                    defer { intake.number += 1 }
                    intake.bytesHandedOut += chunk.range.count
                    return Job(number: intake.number, bytes: chunk.bytes, base: chunk.base,
                               firstRecord: chunk.firstRecord, owner: .buffer(chunk.buffer),
                               name: named ? input.name : nil, bytesHandedOut: intake.bytesHandedOut)
                case .end:
                    closeInput(fd)
                    put(&intake.number, .inputEnd(name: input.name, mapped: nil))
                case .failed(let code):
                    closeInput(fd)
                    put(&intake.number, .event(.readFailed(name: input.name, errno: code)))
                case .longRecord(let prefix, let base, let firstRecord):
                    // The writing turn reads the rest and closes `fd`.
                    put(&intake.number, .rest(Rest(fd: fd, prefix: prefix, base: base, firstRecord: firstRecord,
                                                   input: input)))
                    put(&intake.number, .inputEnd(name: input.name, mapped: nil))
                }
                intake.fd = nil
                intake.index += 1
            }
        }
    }

    /// The next chunk of a mapped input, or nil when the input ended (its end, or the
    /// rest for one thread, put in place; the next input is then opened).
    private func takeMappedJob(_ mapped: MappedChunks, fd: Int32, input: RecordInput, countingRecords: Bool,
                               intake: inout Intake) -> Job? {
        switch mapped.nextChunk(delimiter: pipeline.delimiter, chunkBytes: pipeline.chunkBytes,
                                maxRecordBytes: pipeline.maxRecordBytes, countingRecords: countingRecords) {
        case .chunk(let range, let firstRecord):
            defer { intake.number += 1 }
            intake.bytesHandedOut += range.count
            intake.bytesMapped += range.count
            return Job(number: intake.number, bytes: mapped.bytes(range), base: range.lowerBound,
                       firstRecord: firstRecord, owner: .mapping(mapped), name: named ? input.name : nil,
                       bytesHandedOut: intake.bytesHandedOut)
        case .end:
            mapped.finishReading()
            closeInput(fd)
        case .rest(let prefix, let firstRecord):
            intake.bytesMapped += prefix.count
            // The writing turn reads the rest and closes `fd`.
            put(&intake.number, .rest(Rest(fd: fd, prefix: Array(mapped.bytes(prefix)), base: prefix.lowerBound,
                                           firstRecord: firstRecord, input: input)))
        }
        put(&intake.number, .inputEnd(name: input.name, mapped: mapped))
        intake.fd = nil
        intake.mapped = nil
        intake.index += 1
        return nil
    }

    /// Waits until item `number` is within the window of the writing, writing first
    /// what can be written.
    private func awaitWindow(for number: Int) {
        turns.awaitWindow(for: number, stopped: { self.stopped.load(ordering: .relaxed) }, write: write)
    }

    private func put(_ number: Int, _ item: Item) {
        turns.put(number, item)
    }

    private func put(_ number: inout Int, _ item: Item) {
        put(number, item)
        number += 1
    }

    /// Writes the items that are next in order, unless another thread is at it.
    private func drain() {
        turns.drain(write)
    }

    /// One item, in its turn (only the thread holding the writing turn calls this).
    private func write(_ item: Item) {
        let live = !stopped.load(ordering: .relaxed)
        switch item {
        case .chunk(let output, let tally, let failure):
            written.inputTally += tally
            guard let output else { return }
            if live, output.count > 0 { emit(.output(output.bytes)) }
            output.removeAll()
            outputs.withLock { if $0.count < window { $0.append(output) } }
            if live, let failure { fail(failure) }
        case .event(let event):
            written.outcome.inputFailed = true
            if live { emit(event) }
        case .rest(let rest):
            defer { closeInput(rest.fd) }
            guard live else { return }
            if written.sequential == nil { written.sequential = pipeline.makeReader() }
            var sink = makeSink(.output)
            sink.beginInput(name: named ? rest.input.name : nil, firstRecord: rest.firstRecord)
            do throws(RecordReadError<Failure>) {
                try rest.prefix.withUnsafeBufferPointer { prefix throws(RecordReadError<Failure>) in
                    try written.sequential!.read(fd: rest.fd, into: &sink, prefix: prefix, base: rest.base)
                }
            } catch {
                switch error {
                case .read(let code):
                    written.outcome.inputFailed = true
                    emit(.readFailed(name: rest.input.name, errno: code))
                case .shrank:
                    written.outcome.inputFailed = true
                    emit(.shrank(name: rest.input.name))
                case .sink(let failure): fail(failure)
                }
            }
            assert(sink.flow == .more, "a sink that ends inputs early runs whole inputs, never chunks")
            written.inputTally += sink.takeTally()
        case .inputEnd(let name, let mapped):
            if let mapped {
                let shrank = mapped.shrank
                mapped.unmap()
                if shrank {
                    written.outcome.inputFailed = true
                    if live { emit(.shrank(name: name)) }
                }
            }
            written.outcome.tally += written.inputTally
            if live { emit(.inputEnded(name: name, tally: written.inputTally)) }
            written.inputTally = RecordTally()
        }
    }

    private func emit(_ event: RecordRunEvent) {
        do throws(Failure) { try events(event) } catch { fail(error) }
    }

    /// Stops the run: the first failure is the outcome's.
    private func fail(_ failure: Failure) {
        if written.outcome.failure == nil { written.outcome.failure = failure }
        stopped.store(true, ordering: .relaxed)
    }
}
