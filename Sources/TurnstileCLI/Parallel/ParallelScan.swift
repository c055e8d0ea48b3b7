#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Dispatch
import AutomatonCore
import Synchronization
import Turnstile

/// What a sink counted: records and spam records (`filter`), matches (`match`).
struct RecordTally: Sendable, Equatable {
    var records = 0
    var spamRecords = 0
    var matches = 0
    /// Records selected by `match` (grep's lines: with a match, or without one under -v).
    var selected = 0
    /// Mail decoding problems (`filter --format mbox|eml|maildir`).
    var problems = MailDecodingProblems()

    static func + (a: RecordTally, b: RecordTally) -> RecordTally {
        var problems = a.problems
        problems += b.problems
        return RecordTally(records: a.records + b.records, spamRecords: a.spamRecords + b.spamRecords,
                           matches: a.matches + b.matches, selected: a.selected + b.selected, problems: problems)
    }
}

/// A sink that can take an input in chunks: each chunk knows the number of its first
/// record, and the sink reports what it counted per chunk.
protocol ChunkSink: RecordSink, SendableMetatype where Failure == OutputError {
    /// A new input (or a chunk of one) whose first record is number `firstRecord` + 1.
    mutating func beginInput(name: String?, firstRecord: Int)
    /// What the sink counted since the last call.
    mutating func takeTally() -> RecordTally
}

/// `--threads N`: one reader cuts each input into chunks of whole records
/// (``RecordChunker``), N workers search the chunks, each with its own reader and
/// sink writing into memory, and one writer prints the chunks' output in input order
/// (``OrderedHandOff``), inputs in command-line order. The output is byte for byte
/// that of one thread.
///
/// The matcher is an immutable `Sendable` value shared by every worker; nothing else
/// is shared. A record that grows past half of `maxRecordBytes` before it ends is
/// not chunked: the rest of that input goes through one sequential scan on the
/// writer's thread (after the chunks before it are written), exactly as with one
/// thread, so a record longer than the limit is judged on its head as always.
struct ParallelScan<Sink: ChunkSink> {
    let threads: Int
    let delimiter: RecordDelimiter
    let maxRecordBytes: Int
    /// Makes one worker's reader (called on the worker's thread).
    let makeReader: @Sendable () -> RecordReader
    /// Makes a sink writing to the given output (called on the thread that uses it).
    let makeSink: @Sendable (OutputWriter) -> Sink
    /// Called on the writer's thread after an input's last output, with what was
    /// counted in that input (`match -c` prints its count here).
    let inputEnded: @Sendable (_ name: String, _ tally: RecordTally, _ output: OutputWriter) throws(OutputError) -> Void

    /// What the run produced.
    struct Outcome {
        var status = RunStatus()
        var tally = RecordTally()
        var bytesRead = 0
        var truncatedSomeRecord = false
    }

    /// One unit of work for a worker.
    private struct Chunk: Sendable {
        var number: Int
        var buffer: ChunkBuffer
        var base: Int
        var firstRecord: Int
        var name: String?
    }

    /// The rest of an input, scanned sequentially by the writer.
    private struct Rest: Sendable {
        var fd: Int32
        var prefix: [UInt8]
        var base: Int
        var firstRecord: Int
        /// The name the sink gets (nil when lines are not prefixed).
        var name: String?
        /// The name an error message gives.
        var displayName: String
    }

    /// The output in input order, one item per number.
    private enum Item: Sendable {
        case chunk(output: [UInt8], tally: RecordTally)
        case rest(Rest)
        case failure(String)
        case inputEnd(name: String)
        case end
    }

    /// `named`: whether the sinks get each input's name (default: with several inputs).
    func run(_ inputs: [String], output: OutputWriter, named: Bool? = nil) -> Outcome {
        let items = OrderedHandOff<Item>()
        let work = BlockingQueue<Chunk?>()
        // Bounds the items read but not yet written (memory: about 4N chunks).
        let window = DispatchSemaphore(value: 4 * threads)
        let stopped = Atomic<Bool>(false)
        let bytesRead = Atomic<Int>(0)
        // Chunk input buffers and chunk output arrays, recycled (see BufferPool for why).
        let buffers = BufferPool(limit: 8 * threads + 4)
        let inputBuffers = ChunkBufferPool()

        var workers: [WorkerThread] = []
        for _ in 0..<threads {
            let makeReader = makeReader, makeSink = makeSink
            let collector = SendableBox(OutputWriter(collectingLike: output))
            workers.append(WorkerThread {
                var reader = makeReader()
                defer { reader.deallocate() }
                let memory = collector.value
                var sink = makeSink(memory)
                while let chunk = work.pop() {
                    if stopped.load(ordering: .relaxed) {
                        inputBuffers.give(chunk.buffer)
                        items.put(chunk.number, .chunk(output: [], tally: RecordTally()))
                        continue
                    }
                    sink.beginInput(name: chunk.name, firstRecord: chunk.firstRecord)
                    // A collecting writer cannot fail.
                    try? reader.read(chunk: chunk.buffer.bytes, base: chunk.base, into: &sink)
                    inputBuffers.give(chunk.buffer)
                    items.put(chunk.number, .chunk(output: memory.takeCollected(next: buffers.take(capacity: 2 * RecordChunker.readSize)),
                                                   tally: sink.takeTally()))
                }
            })
        }

        let writerResult = LockedValue<Outcome>(Outcome())
        let shared = SendableBox(output)
        let makeReader = makeReader, makeSink = makeSink, inputEnded = inputEnded
        let writer = WorkerThread {
            let output = shared.value
            var outcome = Outcome()
            var inputTally = RecordTally()
            var sequential: RecordReader?
            defer { sequential?.deallocate() }
            var number = 0
            func failed(_ error: OutputError) {
                if case .failed(let code) = error {
                    printError("turnstile: cannot write the output: \(errnoDescription(code))")
                    outcome.status.hadError = true
                } else {
                    outcome.status.brokenPipe = true
                }
                stopped.store(true, ordering: .relaxed)
            }
            loop: while true {
                var item = items.take(number)
                number += 1
                defer { window.signal() }
                let live = !stopped.load(ordering: .relaxed)
                switch item {
                case .end:
                    break loop
                case .chunk(let bytes, let tally):
                    // Drop the item's reference, so the pool gets the only one.
                    item = .end
                    inputTally = inputTally + tally
                    if live {
                        do throws(OutputError) {
                            try output.write(bytes)
                            try output.flushIfInteractive()
                        } catch { failed(error) }
                    }
                    buffers.give(bytes)
                case .failure(let message):
                    reportInputError(message)
                    outcome.status.hadError = true
                case .rest(let rest):
                    defer { if rest.fd != 0 { close(rest.fd) } }
                    guard live else { continue }
                    if sequential == nil { sequential = makeReader() }
                    var sink = makeSink(output)
                    sink.beginInput(name: rest.name, firstRecord: rest.firstRecord)
                    do throws(ScanError) {
                        try rest.prefix.withUnsafeBufferPointer { prefix throws(ScanError) in
                            try sequential!.read(fd: rest.fd, into: &sink, prefix: prefix, base: rest.base)
                        }
                    } catch {
                        switch error {
                        case .read(let code):
                            reportInputError("\(rest.displayName): \(errnoDescription(code))")
                            outcome.status.hadError = true
                        case .sink(let e): failed(e)
                        }
                    }
                    inputTally = inputTally + sink.takeTally()
                case .inputEnd(let name):
                    outcome.tally = outcome.tally + inputTally
                    if live {
                        do throws(OutputError) { try inputEnded(name, inputTally, output) } catch { failed(error) }
                    }
                    inputTally = RecordTally()
                }
            }
            // An input cut short (a broken pipe) still counts what it found: the exit
            // status is that of what was found so far.
            outcome.tally = outcome.tally + inputTally
            outcome.bytesRead = sequential?.bytesRead ?? 0
            outcome.truncatedSomeRecord = sequential?.truncatedSomeRecord ?? false
            writerResult.withLock { $0 = outcome }
        }

        // The reader: this thread.
        var number = 0
        func emit(_ item: Item) {
            window.wait()
            items.put(number, item)
            number += 1
        }
        let chunker = RecordChunker(delimiter: delimiter)
        // Read into the buffer that becomes the next chunk; its unfinished tail is
        // copied into the one after.
        var current = inputBuffers.take(capacity: 2 * RecordChunker.readSize)
        let named = named ?? (inputs.count > 1)
        inputs: for path in inputs {
            if stopped.load(ordering: .relaxed) { break }
            let name = inputName(path)
            let fd: Int32
            do { fd = try openInput(path) } catch {
                emit(.failure(error.message))
                continue
            }
            // Unfinished bytes are current.base[0..<pending], starting at input offset `base`.
            var pending = 0
            var base = 0, firstRecord = 0
            while true {
                if stopped.load(ordering: .relaxed) {
                    if fd != 0 { close(fd) }
                    break inputs
                }
                // Read after the unfinished record; a long record doubles the read size.
                let want = max(RecordChunker.readSize, pending)
                if current.capacity < pending + want {
                    // Geometric growth: a pipe gives 64 KiB per read, and growing to just
                    // `pending + want` reallocated (and copied) on nearly every read.
                    current.grow(to: max(pending + want, 2 * current.capacity), keeping: pending)
                }
                // SAFETY: pending + want <= current.capacity (made so above).
                let n = readSome(fd, current.base + pending, want)
                if n < 0 {
                    emit(.failure("\(name): \(errnoDescription(errno))"))
                    if fd != 0 { close(fd) }
                    continue inputs
                }
                bytesRead.add(n, ordering: .relaxed)
                let atEnd = n == 0
                let valid = UnsafeBufferPointer(start: current.base, count: pending + n)
                // The `pending` bytes left by the last cut hold no delimiter.
                let (end, records) = chunker.cut(valid, atEnd: atEnd, knownOpen: pending)
                if end > 0 {
                    window.wait()
                    let next = inputBuffers.take(capacity: max(2 * RecordChunker.readSize, valid.count - end + want))
                    // SAFETY: valid.count - end <= next.capacity; distinct allocations.
                    next.base.update(from: current.base + end, count: valid.count - end)
                    current.count = end
                    work.push(Chunk(number: number, buffer: current, base: base, firstRecord: firstRecord,
                                    name: named ? name : nil))
                    current = next
                    number += 1
                    base += end
                    firstRecord += records
                }
                pending = valid.count - end
                if atEnd { break }
                if pending >= maxRecordBytes / 2 {
                    emit(.rest(Rest(fd: fd, prefix: Array(UnsafeBufferPointer(start: current.base, count: pending)),
                                    base: base, firstRecord: firstRecord, name: named ? name : nil,
                                    displayName: name)))
                    emit(.inputEnd(name: name))
                    continue inputs
                }
            }
            if fd != 0 { close(fd) }
            emit(.inputEnd(name: name))
        }
        emit(.end)
        for _ in workers { work.push(nil) }
        for worker in workers { worker.join() }
        writer.join()
        var outcome = writerResult.withLock { $0 }
        outcome.bytesRead += bytesRead.load(ordering: .relaxed)
        return outcome
    }
}

/// Hands a value that is used by one thread at a time to another thread.
final class SendableBox<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
