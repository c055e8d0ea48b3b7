// What a `RecordReader` hands its records to. The CLI's commands (filter, match,
// eval, train) are sinks; so is anything else that wants records with their matches.

import AutomatonCore

/// Receives the records of one input, in order, with their matches.
///
/// Every method may fail with the sink's own ``Failure`` — real errors only (the
/// CLI's output errors); the reader stops and reports it as ``RecordReadError/sink(_:)``.
/// A sink that has what it needs (grep's `-l`, `-m`, `-q`) says so by its ``flow``,
/// which the reader reads after each call that hands it records.
public protocol RecordSink {
    /// What the sink's methods throw (`Never` when they cannot fail).
    associatedtype Failure: Error

    /// One record. `content` and `terminator` point into the read buffer and are valid
    /// only during the call; `offset` is the absolute input offset of the content's
    /// first byte; `matches` have offsets relative to `content` (empty when the reader
    /// has no matcher). When `truncated`, the record was longer than the reader's
    /// limit: `content` is its first bytes, `terminator` is empty, and the rest
    /// follows through ``tail(_:end:)`` (whose last call carries the terminator) before
    /// the next record.
    mutating func record(
        content: UnsafeBufferPointer<UInt8>, terminator: UnsafeBufferPointer<UInt8>,
        offset: Int, matches: ArraySlice<Match>, truncated: Bool
    ) throws(Failure)

    /// More bytes of a truncated record; `end` is its terminator (possibly empty at the
    /// end of input) once the record ends, nil while it goes on.
    mutating func tail(_ bytes: UnsafeBufferPointer<UInt8>, end: UnsafeBufferPointer<UInt8>?) throws(Failure)

    /// `false` when the sink only adds up matches (`match --count-matches`): then a block of
    /// complete records searched in one pass may arrive as one record, and the
    /// reader skips finding every delimiter.
    var needsRecordBoundaries: Bool { get }

    /// `true` when a record without matches needs no call of its own: its verdict is
    /// known (clean) and ``cleanRun(_:records:)`` can take a run of them at once.
    var acceptsCleanRuns: Bool { get }

    /// `records` complete records in a row, none with a match, each with its
    /// terminator, as one block (only when ``acceptsCleanRuns``); `records` is 0 when
    /// the sink does not count them (``countsRecords``).
    mutating func cleanRun(_ bytes: UnsafeBufferPointer<UInt8>, records: Int) throws(Failure)

    /// `false` when the sink needs no count of the records it is not handed one by
    /// one: a clean run's (grep's lines without `-n` or context) and a counted block's
    /// (``addRecords(_:matched:bytes:)`` for `-c` without `-v`). The reader then skips
    /// counting their delimiters and passes 0 (PERF: 5 % of `grep ERROR` over a 100 MB
    /// log; a whole second pass over the input for `match -c '^#'`). Default `true`.
    var countsRecords: Bool { get }

    /// Called before the reader blocks on the next read(2): the moment to flush output
    /// a person may be waiting for.
    mutating func willRead() throws(Failure)

    /// `false` when the sink needs only to know which records have a match (grep's
    /// `-c`, `-l`, `-q`, `-v`, plain lines): then each record gets one of its matches
    /// (any one), the search of a record stops at its first, and memory does not grow
    /// with the matches of a long record.
    var needsEveryMatch: Bool { get }

    /// `true` when the sink only adds up matches (`match --count-matches`): the
    /// reader then counts them (``addMatches(_:)``) instead of collecting them, so a
    /// line dense with matches costs no memory, and hands records over without any.
    var countsMatchesOnly: Bool { get }

    /// `count` more matches, in the records handed over last (only when
    /// ``countsMatchesOnly``).
    mutating func addMatches(_ count: Int)

    /// `true` when the sink needs of the records only how many there are and how many
    /// hold a match (grep's `-c`, with or without `-v`, no `-m`): the reader then counts
    /// the records of a block and the ones with a match (``addRecords(_:matched:bytes:)``)
    /// and hands none over, so a line costs its share of a SIMD newline count and the
    /// search, not a call.
    var countsSelectedRecordsOnly: Bool { get }

    /// `records` more complete records (0 when the sink does not count them,
    /// ``countsRecords``), `bytes` long with their terminators, `matched` of them with
    /// a match (only when ``countsSelectedRecordsOnly``).
    mutating func addRecords(_ records: Int, matched: Int, bytes: Int) throws(Failure)

    /// `true` when the sink takes each record's matches one by one, as the search
    /// finds them (``match(_:)``), rather than as a list with the record: the reader
    /// then keeps none (memory does not grow with the matches of a record), hands the
    /// record over with an empty list right after its matches, and stops searching a
    /// record when the sink says its verdict is settled.
    var takesMatchStream: Bool { get }

    /// One match of the record the next ``record(content:terminator:offset:matches:truncated:)``
    /// call hands over (offsets relative to its content), in the order the search finds
    /// them (only when ``takesMatchStream``). Returns `false` when the sink needs no
    /// more matches of this record: the search goes on at the next record.
    mutating func match(_ match: Match) -> Bool

    /// Takes a block of complete records, each but perhaps the last followed by
    /// `delimiter` and none longer than the reader's limit, when the sink judges such
    /// a block in one pass of its own (`filter --count`: ``RecordJudge/tallyRecords(in:delimiter:)``).
    /// Returns `false`, having done nothing, when it does not: then the records come
    /// one by one as usual. Default `false`.
    mutating func judgeBlock(_ block: UnsafeBufferPointer<UInt8>, delimiter: UInt8) throws(Failure) -> Bool

    /// `true` when the sink looks at an input's first bytes before its records
    /// (``inputHead(_:)``: grep's binary detection). Default `false`.
    var looksAtHead: Bool { get }

    /// The input's first bytes — up to ``RecordReader/headBytes`` of its first read, so a
    /// pipe that has less is not waited for — before any record: the bytes binary
    /// detection decides on, read once, by the reader. `.skip` ends the input here.
    mutating func inputHead(_ head: UnsafeBufferPointer<UInt8>) -> InputStart

    /// `true` when the sink, having seen the head, wants each later block of the input
    /// too (``inputBlock(_:)``): grep's binary detection goes on past the head, block by
    /// block. Asked again before each block. Default `false`.
    var looksAtBlocks: Bool { get }

    /// The input's next bytes, to the end of block k (input offsets up to the next
    /// multiple of ``RecordReader/headBytes``), before any record that ends in them:
    /// GNU grep looks at each buffer it reads for a NUL before it searches the buffer.
    /// `.skip` ends the input here.
    mutating func inputBlock(_ block: UnsafeBufferPointer<UInt8>) -> InputStart

    /// Whether the sink wants more records, read after each call that hands it some
    /// (``record(content:terminator:offset:matches:truncated:)``, ``tail(_:end:)``,
    /// ``cleanRun(_:records:)``, ``addRecords(_:matched:bytes:)``,
    /// ``judgeBlock(_:delimiter:)``): anything but ``RecordFlow/more`` ends the read
    /// there, as the end of the input would, with nothing thrown. A sink that ends on a
    /// truncated record keeps saying `.more` until its last ``tail(_:end:)``. Default
    /// `.more`.
    var flow: RecordFlow { get }
}

/// What a sink wants after the records it was handed (``RecordSink/flow``).
///
/// Why a value and not a thrown error: stopping early is the normal end of `-l`, `-m`
/// and `-q`, not a failure; a value keeps the sinks' `throws` for real errors (I/O, the
/// output gone) and lets the reader stop with its state intact.
public enum RecordFlow: Sendable, Hashable {
    /// Go on.
    case more
    /// This input has given the sink all it needs (`-l`, `-L`, `-m`, a binary input's
    /// first match): the run goes on with the next input.
    case endInput
    /// The whole run has (`-q` after its first selected record): no more inputs are read.
    case endRun
}

extension RecordSink {
    public var needsRecordBoundaries: Bool { true }
    public var acceptsCleanRuns: Bool { false }
    public var countsRecords: Bool { true }
    public var needsEveryMatch: Bool { true }
    public var countsMatchesOnly: Bool { false }
    public mutating func addMatches(_ count: Int) {}
    public var takesMatchStream: Bool { false }
    public var countsSelectedRecordsOnly: Bool { false }
    public mutating func addRecords(_ records: Int, matched: Int, bytes: Int) throws(Failure) {}
    public mutating func match(_ match: Match) -> Bool { true }
    public mutating func cleanRun(_ bytes: UnsafeBufferPointer<UInt8>, records: Int) throws(Failure) {}
    public mutating func willRead() throws(Failure) {}
    public mutating func judgeBlock(_ block: UnsafeBufferPointer<UInt8>, delimiter: UInt8) throws(Failure) -> Bool { false }
    public var looksAtHead: Bool { false }
    public mutating func inputHead(_ head: UnsafeBufferPointer<UInt8>) -> InputStart { .read }
    public var looksAtBlocks: Bool { false }
    public mutating func inputBlock(_ block: UnsafeBufferPointer<UInt8>) -> InputStart { .read }
    public var flow: RecordFlow { .more }
}

/// Why reading an input stopped early.
public enum RecordReadError<SinkFailure: Error>: Error {
    /// read(2) failed with this `errno`.
    case read(Int32)
    /// The input is a mapped file that shrank while it was searched (MappedInput.swift):
    /// records of the last window may hold NUL bytes where the cut bytes were.
    case shrank
    /// The sink failed.
    case sink(SinkFailure)
}

/// The reader's error inside this module, with the sink's failure as `any Error`.
///
/// Why not `RecordReadError<Sink.Failure>` there too: the reader and the pipeline run
/// unspecialized for the CLI's sinks (another module's types), and each function
/// throwing a generic error looked its metadata up at each call, twice an input
/// (callgrind, `grep -r -l GPL /usr/share/doc`, 6,016 files: 3.9 M of 131 M
/// instructions). This type's metadata is looked up once; the sink's failure is boxed
/// only when there is one. ``RecordReader/read(fd:into:prefix:base:)`` gives callers
/// outside the module the typed error back.
typealias ErasedRecordReadError = RecordReadError<any Error>
