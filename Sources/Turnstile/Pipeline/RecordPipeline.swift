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

    public init(path: String, name: String) {
        self.path = path
        self.name = name
    }
}

/// Why an input could not be opened, as a sentence naming it.
public struct RecordInputError: Error, Sendable {
    public var message: String
    public init(message: String) { self.message = message }
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
    /// (a broken pipe, `-q` having its answer), nil when every input was read.
    public var failure: Failure?
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
        return reader
    }

    /// Whether a run fans out over threads: more than one is asked for, the record
    /// limit leaves room for chunks (``RecordReader/canChunk(maxRecordBytes:chunkBytes:)``),
    /// and the inputs are not known to be too small to share (``knownInputBytes``).
    public var isThreaded: Bool {
        guard threads > 1, RecordReader.canChunk(maxRecordBytes: maxRecordBytes, chunkBytes: chunkBytes) else {
            return false
        }
        if let knownInputBytes, knownInputBytes < 2 * threads * chunkBytes { return false }
        return true
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
        if isThreaded {
            return ThreadedRecordRun(pipeline: self, inputs: inputs, named: named, open: open,
                                     makeSink: makeSink, events: events).run()
        }
        return runOnThisThread(inputs, named: named, open: open, makeSink: makeSink, events: events)
    }

    /// One reader, one sink: each input's records searched in place and handed on.
    private func runOnThisThread<Sink: ChunkSink>(
        _ inputs: [RecordInput], named: Bool,
        open: (RecordInput) -> Result<Int32, RecordInputError>,
        makeSink: (RecordSinkTarget) -> Sink,
        events: (RecordRunEvent) throws(Sink.Failure) -> Void
    ) -> RecordRunOutcome<Sink.Failure> {
        var outcome = RecordRunOutcome<Sink.Failure>()
        var reader = makeReader()
        var sink = makeSink(.output)
        inputs: for input in inputs {
            let fd: Int32
            switch open(input) {
            case .success(let opened): fd = opened
            case .failure(let error):
                outcome.inputFailed = true
                do { try events(.openFailed(error)) } catch { outcome.failure = error; break inputs }
                continue
            }
            defer { closeInput(fd) }
            sink.beginInput(name: named ? input.name : nil, firstRecord: 0)
            do {
                try reader.read(fd: fd, into: &sink)
            } catch {
                // What was counted before a failure counts too (the exit status).
                switch error {
                case .read(let code):
                    outcome.tally += sink.takeTally()
                    outcome.inputFailed = true
                    do { try events(.readFailed(name: input.name, errno: code)) } catch { outcome.failure = error; break inputs }
                    continue
                case .sink(let failure):
                    if !Sink.endsInputOnly(failure) {
                        outcome.tally += sink.takeTally()
                        outcome.failure = failure
                        break inputs
                    }
                }
            }
            let tally = sink.takeTally()
            outcome.tally += tally
            do { try events(.inputEnded(name: input.name, tally: tally)) } catch { outcome.failure = error; break }
        }
        outcome.bytesRead = reader.bytesRead
        outcome.truncatedSomeRecord = reader.truncatedSomeRecord
        return outcome
    }
}
