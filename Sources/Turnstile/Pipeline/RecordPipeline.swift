// The data path of `filter` and `match`, in one value: inputs → records (a
// RecordDelimiter's kind) → search (a Matcher, with the verdict's early exit) → a
// sink. With one thread a RecordReader reads each input and searches its records in
// place; with more, the same reader cuts each input into chunks of whole records,
// the workers search them, and their output is written in input order
// (RecordPipeline+Threads.swift). The CLI parses arguments into a pipeline and
// prints its events.

/// One input of a ``RecordPipeline`` run.
public struct RecordInput: Sendable {
    /// What opens it (a path, or `-` for standard input).
    public var path: String
    /// What events and sinks call it.
    public var name: String
    /// Why it cannot be opened, when that is known before (a folder a walk could not
    /// read): the run reports it in its place, in input order, and opens nothing.
    public var failure: RecordInputError?
    /// A walk listed it as a regular file (its folder's entry said so, or a `stat`):
    /// the opener may skip the `fstat` that refuses a folder, one system call in five
    /// of a `grep -r` over small files.
    public var isRegularFile: Bool

    public init(path: String, name: String, failure: RecordInputError? = nil, isRegularFile: Bool = false) {
        self.path = path
        self.name = name
        self.failure = failure
        self.isRegularFile = isRegularFile
    }
}

/// Why an input could not be opened, as a sentence naming it.
public struct RecordInputError: Error, Sendable {
    public var message: String
    /// The input's display name.
    public var name: String
    /// The input is a folder (grep opens it, fails to read it, and lists it under `-L`).
    public var isFolder: Bool
    public init(message: String, name: String = "", isFolder: Bool = false) {
        self.message = message
        self.name = name
        self.isFolder = isFolder
    }
}

/// What a ``RecordPipeline`` run tells its caller, on one thread at a time, in input
/// order.
public enum RecordRunEvent {
    /// The output of a chunk searched by a worker, to be written now (the bytes are
    /// valid only during the call).
    case output(UnsafeBufferPointer<UInt8>)
    /// An input could not be opened; the run goes on with the next.
    case openFailed(RecordInputError)
    /// read(2) failed on the input `name` with this `errno`; the run goes on with the
    /// next input.
    case readFailed(name: String, errno: Int32)
    /// The input `name`, a mapped file, shrank while it was searched
    /// (``RecordReadError/shrank``); the run goes on with the next input.
    case shrank(name: String)
    /// The input `name` ended, and this is what its sinks counted in it.
    case inputEnded(name: String, tally: RecordTally)
}

/// What a ``RecordPipeline`` run produced.
public struct RecordRunOutcome<Failure: Error> {
    /// What the sinks counted, over every input (up to where the run stopped).
    public var tally = RecordTally()
    /// Bytes read, over every input.
    public var bytesRead = 0
    /// Some record was longer than the record limit (judged on its head).
    public var truncatedSomeRecord = false
    /// Some input could not be opened or read (reported through an event).
    public var inputFailed = false
    /// What stopped the run before its end: a sink's failure or an event handler's
    /// (a broken pipe, a write error), nil when the run ended without one.
    public var failure: Failure?
    /// The sink had all it needed before the last input (``RecordFlow/endRun``: `-q`
    /// with its answer): the inputs after that one were not read.
    public var endedBySink = false
}

/// One run of the record search: inputs → records → search → sink.
///
/// Why one value for both the sequential and the threaded run: a run with `threads`
/// workers must print byte for byte what one thread prints, so both take their
/// records from the same ``RecordReader`` read loop, search them with the same
/// reader configuration (``makeReader()``), and hand them to the same kind of sink.
/// A threaded run is the one-thread pipeline fanned out: the reader hands out chunks
/// of whole records instead of searching them in place
/// (``RecordReader/nextChunk(from:chunkBytes:countingRecords:pool:)``), each worker
/// searches a chunk with its own reader and a sink that writes to memory, and the
/// chunks' output is written in input order.
///
/// ```swift
/// let pipeline = RecordPipeline(matcher: filter.matcher, delimiter: .line,
///                               maxRecordBytes: RecordReader.defaultMaxRecordBytes, threads: 2)
/// let outcome = pipeline.run(inputs, named: false, open: openInput, makeSink: { MySink(target: $0) }) { event in
///     if case .output(let bytes) = event { write(bytes) }
/// }
/// ```
///
/// - Complexity: the reader's and the matcher's cost; a threaded run adds one copy
///   of each chunk's output and of each record cut by a chunk boundary.
public struct RecordPipeline: Sendable {
    /// The matcher run over each record; nil to only cut records.
    public var matcher: Matcher?
    /// The kind of record.
    public var delimiter: RecordDelimiter
    /// Longer records are judged on their head (see ``RecordReader/maxRecordBytes``).
    public var maxRecordBytes: Int
    /// Threads searching: 1 searches on the calling thread.
    public var threads: Int
    /// Bytes per read, and so per chunk, of a threaded run.
    public var chunkBytes: Int
    /// What the inputs hold when that is known before reading (regular files), nil
    /// when some input is a pipe or a terminal. Below two chunks per thread a run stays
    /// on one thread: there is too little to share, and making each worker's reader
    /// and sink would only add to one thread's time.
    public var knownInputBytes: Int?
    /// Records past ``maxRecordBytes`` are judged whole when the sink only selects
    /// records (``RecordReader/judgesLongRecordsWhole``).
    public var judgesLongRecordsWhole = false
    /// Regular files are searched through mapped windows (``RecordReader/mapsFiles``):
    /// for sinks that select records, never for a filter that passes them through.
    public var mapsFiles = false

    public init(
        matcher: Matcher? = nil, delimiter: RecordDelimiter, maxRecordBytes: Int,
        threads: Int = 1, chunkBytes: Int = RecordReader.defaultChunkBytes, knownInputBytes: Int? = nil
    ) {
        self.matcher = matcher
        self.delimiter = delimiter
        self.maxRecordBytes = maxRecordBytes
        self.threads = max(1, threads)
        self.chunkBytes = max(16, chunkBytes)
        self.knownInputBytes = knownInputBytes
    }

    /// A reader searching as this pipeline searches.
    public func makeReader() -> RecordReader {
        var reader = RecordReader(matcher: matcher, delimiter: delimiter, maxRecordBytes: maxRecordBytes)
        reader.judgesLongRecordsWhole = judgesLongRecordsWhole
        reader.mapsFiles = mapsFiles
        return reader
    }

    /// A plan that replaces the choice: tests run every path on small inputs with it
    /// (the CLI's `TURNSTILE_THREADS_PLAN`). A sink that allows no threads, or no
    /// chunks, still has its way.
    public var forcedThreads: RunThreads? = nil
    /// What bounds the work per byte when the sink does work a matcher does not show
    /// (mail decoding and judging); nil: the matcher's strategy says (no matcher:
    /// memory-bound, records are only cut).
    public var workCost: SearchCost? = nil

    /// How a run over `inputs` inputs, with a sink that allows `sink`, uses threads:
    /// ``RunThreads/choose(most:cost:inputs:knownBytes:sink:chunkBytes:canChunk:)``,
    /// the one decision, given this pipeline's matcher, limit and inputs.
    public func threadPlan(inputs: Int, sink: SinkParallelism) -> RunThreads {
        let canChunk = RecordReader.canChunk(maxRecordBytes: maxRecordBytes, chunkBytes: chunkBytes)
        if let forcedThreads {
            switch forcedThreads {
            case .one: return .one
            case .inputs(let n): return n > 1 && sink != .none && inputs > 1 ? .inputs(min(n, inputs)) : .one
            case .chunks(let n): return n > 1 && sink == .chunks && canChunk ? .chunks(n) : .one
            }
        }
        return RunThreads.choose(most: threads, cost: workCost ?? matcher?.strategy.cost ?? .memoryBound, inputs: inputs,
                                 knownBytes: knownInputBytes, sink: sink, chunkBytes: chunkBytes,
                                 canChunk: canChunk)
    }

    /// Reads `inputs` in order, searches their records and hands them to sinks.
    ///
    /// - Parameters:
    ///   - named: whether sinks get each input's name (output lines carry it).
    ///   - open: opens an input: a descriptor the run closes when done (unless it is
    ///     0, standard input), or why not.
    ///   - makeSink: a sink writing to `target`; called on the thread that uses it.
    ///   - events: what the caller prints, called on one thread at a time in input
    ///     order; a failure it throws stops the run.
    public func run<Sink: ChunkSink>(
        _ inputs: [RecordInput], named: Bool,
        open: @escaping @Sendable (RecordInput) -> Result<Int32, RecordInputError>,
        makeSink: @escaping @Sendable (RecordSinkTarget) -> Sink,
        events: @escaping (RecordRunEvent) throws(Sink.Failure) -> Void
    ) -> RecordRunOutcome<Sink.Failure> {
        run(RecordInputFeed(inputs), named: named, open: open, makeSink: makeSink, events: events)
    }

    /// Reads the inputs of `feed` in order as it gives them (a producer may still be
    /// adding while the first are searched), as ``run(_:named:open:makeSink:events:)``
    /// reads a list. While the feed is open its inputs count as many, of unknown size.
    public func run<Sink: ChunkSink>(
        _ feed: RecordInputFeed, named: Bool,
        open: @escaping @Sendable (RecordInput) -> Result<Int32, RecordInputError>,
        makeSink: @escaping @Sendable (RecordSinkTarget) -> Sink,
        events: @escaping (RecordRunEvent) throws(Sink.Failure) -> Void
    ) -> RecordRunOutcome<Sink.Failure> {
        defer { feed.endRun() }
        let sink = makeSink(.output)
        switch threadPlan(inputs: feed.finishedCount ?? Int.max, sink: sink.parallelism) {
        case .one:
            return runOnThisThread(feed, named: named, open: open, sink: sink, events: events)
        case .chunks:
            return ThreadedRecordRun(pipeline: self, inputs: feed.allInputs(), named: named, open: open,
                                     makeSink: makeSink, events: events).run()
        case .inputs(let workers):
            return InputsRecordRun(pipeline: self, workers: workers, feed: feed, named: named, open: open,
                                   makeSink: makeSink, events: events).run()
        }
    }

    /// One reader, one sink: each input's records searched in place and handed on.
    private func runOnThisThread<Sink: ChunkSink>(
        _ feed: RecordInputFeed, named: Bool,
        open: (RecordInput) -> Result<Int32, RecordInputError>,
        sink: consuming Sink,
        events: (RecordRunEvent) throws(Sink.Failure) -> Void
    ) -> RecordRunOutcome<Sink.Failure> {
        var outcome = RecordRunOutcome<Sink.Failure>()
        var reader = makeReader()
        var sink = sink
        var index = 0
        inputs: while let input = feed.input(at: index) {
            index += 1
            let searched = search(input, named: named, open: open, reader: &reader, sink: &sink)
            outcome.tally += searched.tally
            if searched.event != nil { outcome.inputFailed = true }
            do {
                if let event = searched.event { try events(event) }
                if let failure = searched.failure {
                    outcome.failure = (failure as! Sink.Failure)
                    break inputs
                }
                if searched.endsRun {
                    outcome.endedBySink = true
                    break inputs
                }
                if searched.ended { try events(.inputEnded(name: input.name, tally: searched.tally)) }
            } catch {
                outcome.failure = error
                break inputs
            }
        }
        if outcome.failure == nil, !outcome.endedBySink {
            do throws(Sink.Failure) { try sink.runEnded() } catch { outcome.failure = error }
        }
        outcome.bytesRead = reader.bytesRead
        outcome.truncatedSomeRecord = reader.truncatedSomeRecord
        return outcome
    }

    /// What searching one input came to.
    ///
    /// Not generic over the sink's failure (which it holds boxed): a threaded run
    /// hands one of these per input through ``OrderedTurns``, and a generic payload
    /// made each hand-off run unspecialized code (the sinks are another module's
    /// types) — callgrind, `grep -r` over 6,000 files: 40 M instructions in the
    /// hand-off's dictionary alone.
    struct SearchedInput {
        /// What the sink counted in it (up to where it stopped).
        var tally = RecordTally()
        /// Why it could not be opened or read on, if so (to report; the run goes on).
        var event: RecordRunEvent? = nil
        /// A failure that stops the run (the output went away).
        var failure: (any Error)? = nil
        /// The sink has all it needs from the whole run (``RecordFlow/endRun``).
        var endsRun = false
        /// It was read to its end, or as far as the sink wanted: its summary is due.
        var ended = false
    }

    /// Opens `input`, reads it through `reader` into `sink`, and closes it: the one
    /// body of every run's loop over inputs (one thread, or a worker of
    /// ``RunThreads/inputs(_:)``).
    func search<Sink: ChunkSink>(
        _ input: RecordInput, named: Bool, open: (RecordInput) -> Result<Int32, RecordInputError>,
        reader: inout RecordReader, sink: inout Sink
    ) -> SearchedInput {
        var searched = SearchedInput()
        if let failure = input.failure {
            searched.event = .openFailed(failure)
            return searched
        }
        let fd: Int32
        switch open(input) {
        case .success(let opened): fd = opened
        case .failure(let error):
            searched.event = .openFailed(error)
            return searched
        }
        defer { closeInput(fd) }
        sink.beginInput(name: named ? input.name : nil, firstRecord: 0)
        do {
            if sink.inputOpened(fd, name: input.name) == .read { try reader.readErased(fd: fd, into: &sink) }
        } catch {
            // What was counted before a failure counts too (the exit status).
            switch error {
            case .read(let code):
                searched.tally = sink.takeTally()
                searched.event = .readFailed(name: input.name, errno: code)
                return searched
            case .shrank:
                searched.tally = sink.takeTally()
                searched.event = .shrank(name: input.name)
                return searched
            case .sink(let failure):
                searched.tally = sink.takeTally()
                searched.failure = failure
                return searched
            }
        }
        if sink.flow == .endRun {
            // `-q` has its answer: the run ends with this input, which has no summary.
            searched.tally = sink.takeTally()
            searched.endsRun = true
            return searched
        }
        do throws(Sink.Failure) { try sink.inputRead(fd) } catch {
            searched.tally = sink.takeTally()
            searched.failure = error
            return searched
        }
        searched.tally = sink.takeTally()
        searched.ended = true
        return searched
    }
}
