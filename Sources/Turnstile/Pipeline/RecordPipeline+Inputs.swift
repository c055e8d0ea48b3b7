// A RecordPipeline over whole inputs on several threads (``RunThreads/inputs(_:)``):
// rg's model for many files. Each worker takes the next input from one list, opens,
// reads and searches it with a reader and a memory sink of its own — exactly the body
// of the one-thread loop (``RecordPipeline/search(_:named:open:reader:sink:)``) — and
// puts what it found in an ordered hand-off; whichever worker holds the next input's
// turn writes it. So the output is the one-thread output, input by input, in order.
//
// Why not chunks for many files: a chunked run reads every input under one lock, and
// for a tree of small files the opening and reading *is* the work (`grep -r` over
// /usr/share: 47,000 files, mostly open/read/close); whole inputs let the cores share it.

import AutomatonCore
import Synchronization

/// One searched input and the output its sink collected: what a worker hands to the
/// writing turn. Not nested in the generic run, so the hand-off is specialized for it.
///
/// A class: the hand-off moves it three times (put, take, write), and as a struct of
/// some 200 bytes each move was a copy (callgrind, `grep -r -l GPL /usr/share/doc`,
/// 6,016 files: 4.7 M instructions of memcpy, against one allocation an input).
final class SearchedInputOutput {
    let index: Int
    let name: String
    let result: RecordPipeline.SearchedInput
    let output: ChunkOutput

    init(index: Int, name: String, result: RecordPipeline.SearchedInput, output: ChunkOutput) {
        self.index = index
        self.name = name
        self.result = result
        self.output = output
    }
}

/// The state of one run over inputs on `workers` threads.
final class InputsRecordRun<Sink: ChunkSink>: @unchecked Sendable {
    // @unchecked: `turns` and `spare` are behind locks, `next` and `stopped` are
    // atomics; the outcome's parts (`tally` … `failure`) are used only by the thread
    // holding the writing turn (OrderedTurns), which its lock hands from thread to thread.
    typealias Failure = Sink.Failure

    private let pipeline: RecordPipeline
    private let workers: Int
    private let feed: RecordInputFeed
    private let named: Bool
    private let open: @Sendable (RecordInput) -> Result<Int32, RecordInputError>
    private let makeSink: @Sendable (RecordSinkTarget) -> Sink
    private let events: (RecordRunEvent) throws(Failure) -> Void
    /// Inputs searched ahead of the writing, at most: bounds memory to this many
    /// inputs' output. 32 a worker, not 8: with 8, one slow input at the head of the
    /// order (a large file, a slow folder step) left the other worker waiting for its
    /// turn (`grep -r -l GPL /usr/share/doc`, 6,016 files, helpers paused: 1.45 → 1.66
    /// CPUs used, 88 → 73 ms; rg 78 ms; with the feed's low water at 64).
    private let window: Int
    /// The next input to take.
    private let next = Atomic<Int>(0)
    /// Set once a failure stops the run: no more inputs are taken.
    private let stopped = Atomic<Bool>(false)
    /// Output buffers already written, for the next inputs.
    private let spare = LockedValue<[ChunkOutput]>([])
    /// Bytes read and whether a record was judged on its head, over the workers.
    private let reading = LockedValue<(bytes: Int, truncated: Bool)>((0, false))

    /// The ordered hand-off (OrderedTurns.swift): inputs written in input order.
    private let turns: OrderedTurns<SearchedInputOutput>
    // The outcome's parts, kept apart until ``run()`` assembles the generic
    // `RecordRunOutcome<Failure>`: this code runs unspecialized for another module's
    // sinks, where every touch of a generic value looks up its metadata (each test of
    // the optional failure two per input of a `grep -r`, each `+=` on the outcome's tally
    // one, 1.97 M instructions over 6,000 files, callgrind).
    private var tally = RecordTally()
    private var inputFailed = false
    private var endedBySink = false
    /// `failure != nil`.
    private var failed = false
    private var failure: Failure?

    init(pipeline: RecordPipeline, workers: Int, feed: RecordInputFeed, named: Bool,
         open: @escaping @Sendable (RecordInput) -> Result<Int32, RecordInputError>,
         makeSink: @escaping @Sendable (RecordSinkTarget) -> Sink,
         events: @escaping (RecordRunEvent) throws(Failure) -> Void) {
        self.pipeline = pipeline
        self.workers = max(1, workers)
        self.feed = feed
        self.named = named
        self.open = open
        self.makeSink = makeSink
        self.events = events
        self.window = 32 * self.workers
        self.turns = OrderedTurns(window: window)
    }

    /// Runs the workers (this thread one of them) and returns what they found.
    func run() -> RecordRunOutcome<Failure> {
        let others = (1..<workers).map { _ in SystemThread { [self] in work() } }
        work()
        others.forEach { $0.join() }
        drain()
        let (bytes, truncated) = reading.withLock { $0 }
        var outcome = RecordRunOutcome<Failure>()
        outcome.tally = tally
        outcome.bytesRead = bytes
        outcome.truncatedSomeRecord = truncated
        outcome.inputFailed = inputFailed
        outcome.failure = failure
        outcome.endedBySink = endedBySink
        return outcome
    }

    /// One worker: take the next input, search it, hand it on, write what is next.
    private func work() {
        var reader = pipeline.makeReader()
        // Unmapping on one thread stops the others to flush their TLBs (an IPI each):
        // across threads, inputs are read (rg maps only when it searches one file).
        reader.mapsFiles = false
        var sink = makeSink(.memory)
        while !stopped.load(ordering: .relaxed) {
            let index = next.wrappingAdd(1, ordering: .relaxed).oldValue
            // Waits while the feed's producer may still add it (a walk of a tree).
            guard let input = feed.input(at: index) else { break }
            awaitWindow(for: index)
            let result = pipeline.search(input, named: named, open: open, reader: &reader, sink: &sink)
            if result.failure != nil || result.endsRun { stopped.store(true, ordering: .relaxed) }
            let output = sink.takeOutput(reusing: spare.withLock { $0.popLast() } ?? ChunkOutput())
            turns.put(index, SearchedInputOutput(index: index, name: input.name, result: result, output: output))
            drain()
        }
        reading.withLock {
            $0.bytes += reader.bytesRead
            $0.truncated = $0.truncated || reader.truncatedSomeRecord
        }
    }

    /// Waits until input `index` is within the window of the writing, writing first
    /// what can be written.
    private func awaitWindow(for index: Int) {
        turns.awaitWindow(for: index, stopped: { self.stopped.load(ordering: .relaxed) }, write: write)
    }

    /// Writes the inputs that are next in order, unless another thread is at it.
    private func drain() {
        turns.drain(write)
    }

    /// One input, in its turn: its output, then what went wrong, then its end — the
    /// order the one-thread loop gives them.
    private func write(_ searched: SearchedInputOutput) {
        defer {
            searched.output.removeAll()
            spare.withLock { if $0.count < window { $0.append(searched.output) } }
        }
        guard !failed, !endedBySink else { return }
        let name = searched.name
        tally += searched.result.tally
        if searched.output.count > 0 { emit(.output(searched.output.bytes)) }
        if let event = searched.result.event {
            inputFailed = true
            emit(event)
        }
        if let failure = searched.result.failure { fail(failure as! Failure) }
        if searched.result.endsRun {
            // The inputs after this one were searched ahead, perhaps: none is written.
            endedBySink = true
            stopped.store(true, ordering: .relaxed)
        }
        if searched.result.ended, !failed { emit(.inputEnded(name: name, tally: searched.result.tally)) }
    }

    private func emit(_ event: RecordRunEvent) {
        guard !failed else { return }
        do throws(Failure) { try events(event) } catch { fail(error) }
    }

    /// Stops the run: the first failure is the outcome's.
    private func fail(_ failure: Failure) {
        if !failed { self.failure = failure }
        failed = true
        stopped.store(true, ordering: .relaxed)
    }
}
