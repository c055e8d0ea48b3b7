// What a RecordPipeline needs of a sink beyond RecordSink: inputs that begin (with
// the number of their first record, since a threaded run hands a sink an input in
// chunks), what it counted, and the output it collected when it runs on a worker.

/// What a sink counted: records and spam records (`filter`), matches and selected
/// records (`match`), mail decoding problems.
///
/// Counts are taken per chunk on the workers of a threaded run and added up in input
/// order, so an input's totals are known when it ends (`-c` prints them there).
///
/// ```swift
/// var total = RecordTally()
/// total += RecordTally(records: 3, spamRecords: 1)
/// ```
public struct RecordTally: Sendable, Equatable {
    public var records = 0
    public var spamRecords = 0
    public var matches = 0
    /// Records selected by `match` (grep's lines: with a match, or without one under -v).
    public var selected = 0
    /// Mail decoding problems (`filter --format mbox|eml|maildir`).
    public var problems = MailDecodingProblems()
    /// grep's "binary file matches" is due once the input's output is written: a NUL
    /// in its head and a selected record, or a printed line left out for an encoding
    /// error.
    public var binaryFileMatches = false

    public init(records: Int = 0, spamRecords: Int = 0, matches: Int = 0, selected: Int = 0,
                problems: MailDecodingProblems = MailDecodingProblems()) {
        self.records = records
        self.spamRecords = spamRecords
        self.matches = matches
        self.selected = selected
        self.problems = problems
    }

    public static func + (a: RecordTally, b: RecordTally) -> RecordTally {
        var sum = a
        sum += b
        return sum
    }

    public static func += (a: inout RecordTally, b: RecordTally) {
        a.records += b.records
        a.spamRecords += b.spamRecords
        a.matches += b.matches
        a.selected += b.selected
        a.problems += b.problems
        a.binaryFileMatches = a.binaryFileMatches || b.binaryFileMatches
    }
}

/// Where a ``RecordPipeline`` has a sink write.
public enum RecordSinkTarget: Sendable {
    /// The run's output (one thread, or the rest of an input a worker could not chunk).
    case output
    /// Memory: a worker's sink, whose output ``ChunkSink/takeOutput(reusing:)`` hands
    /// back (a ``ChunkOutput``) to be written in input order.
    case memory
}

/// A sink a ``RecordPipeline`` can run, on one thread or on the workers of a
/// threaded run, where each input arrives in chunks.
///
/// The output of a run is byte for byte the same with any number of threads when the
/// sink's output for a record depends only on the record, its number and its offset
/// (and the input's name): that is what a chunk carries. Sinks that carry state from
/// record to record (grep's context lines, `-m`) run on one thread.
public protocol ChunkSink: RecordSink, SendableMetatype {
    /// A new input, or a chunk of one, whose first record is number `firstRecord` + 1.
    /// `name` is the input's name when output lines carry it, else nil.
    mutating func beginInput(name: String?, firstRecord: Int)

    /// What the sink counted since the last call.
    mutating func takeTally() -> RecordTally

    /// The output a ``RecordSinkTarget/memory`` sink collected since the last call;
    /// from now on it collects into `storage` (empty, its capacity reused).
    mutating func takeOutput(reusing storage: ChunkOutput) -> ChunkOutput

    /// Whether the output shows record numbers (`--json`, `--explain`, `-n`): when not,
    /// a threaded run does not count each chunk's records. Default `true`.
    var needsRecordNumbers: Bool { get }

    /// How far this sink's output lets a run spread over threads (``RunThreads``).
    /// Default ``SinkParallelism/chunks``.
    var parallelism: SinkParallelism { get }

    /// A whole input was opened (never a chunk of one), before any of it is read:
    /// `fd` is its descriptor, `name` its display name (grep `-T` sizes its numbers
    /// from the file, `-m` notes where standard input stood). `.skip` reads nothing of
    /// it (grep `-m 0`). Default `.read`.
    mutating func inputOpened(_ fd: Int32, name: String) -> InputStart

    /// The input was read — to its end, or as far as the sink wanted — and is still
    /// open (grep `-m` leaves standard input just after the last selected line;
    /// `--json` writes the input's `end` message). Not called after a read error, nor
    /// after the sink's ``RecordFlow/endRun``.
    /// Default: nothing.
    mutating func inputRead(_ fd: Int32) throws(Failure)

    /// Every input was searched, on one thread (only sinks that allow no threads,
    /// ``SinkParallelism/none``, can rely on it: `--json`'s summary). Not called after
    /// a failure or the sink's ``RecordFlow/endRun`` stopped the run. Default: nothing.
    mutating func runEnded() throws(Failure)
}

/// Whether a sink wants an input read (``ChunkSink/inputOpened(_:name:)``,
/// ``RecordSink/inputHead(_:)``).
public enum InputStart: Sendable, Hashable {
    case read
    /// Read nothing (more) of it: the input ends here, with no record handed over.
    case skip
}

extension ChunkSink {
    public var needsRecordNumbers: Bool { true }
    public var parallelism: SinkParallelism { .chunks }
    public mutating func inputOpened(_ fd: Int32, name: String) -> InputStart { .read }
    public mutating func inputRead(_ fd: Int32) throws(Failure) {}
    public mutating func runEnded() throws(Failure) {}
}
