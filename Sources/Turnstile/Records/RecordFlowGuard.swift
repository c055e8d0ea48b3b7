// How the reader honours a sink's flow (RecordSink.flow) without a check after every
// call in every loop: the read runs over this wrapper, which forwards each call to
// the sink and, when the sink says it has enough, unwinds the read with its own
// `stopped` — caught where the read began, so neither the sink nor the reader's
// caller ever sees it. The read loops stay as they are; a stopped read ends as the end
// of the input would.

import AutomatonCore

/// What a read over a ``RecordFlowGuard`` throws: the sink's own failure, or that the
/// sink's flow ended the read.
enum RecordFlowStop<SinkFailure: Error>: Error {
    case sink(SinkFailure)
    /// The sink's ``RecordSink/flow`` is no longer ``RecordFlow/more``.
    case stopped
}

/// A sink, reached through a pointer, whose calls that hand over records end the read
/// (``RecordFlowStop/stopped``) once the sink's ``RecordSink/flow`` says so.
///
/// Why a pointer: the guard lives only during one read of the sink's owner
/// (``RecordReader/read(fd:into:prefix:base:)``), and copying a sink in and out of a
/// wrapper would copy its buffers' references at every input.
struct RecordFlowGuard<Inner: RecordSink>: RecordSink {
    typealias Failure = RecordFlowStop<Inner.Failure>
    let inner: UnsafeMutablePointer<Inner>

    /// Reads the sink in place. Why not `inner.pointee.flow`: in code not specialized
    /// for the sink (the CLI's sinks are another module's types), reading a property
    /// of `pointee` copied the whole sink first (callgrind: a GrepSink copy, 466
    /// instructions, per record and per property); an `inout` access passes its
    /// address.
    @inline(__always)
    private func read<Value>(_ property: (inout Inner) -> Value) -> Value {
        property(&inner.pointee)
    }

    @inline(__always)
    private func check() throws(Failure) {
        if read({ $0.flow }) != .more { throw .stopped }
    }

    mutating func record(
        content: UnsafeBufferPointer<UInt8>, terminator: UnsafeBufferPointer<UInt8>,
        offset: Int, matches: ArraySlice<Match>, truncated: Bool
    ) throws(Failure) {
        do {
            try inner.pointee.record(content: content, terminator: terminator, offset: offset, matches: matches,
                                     truncated: truncated)
        } catch { throw .sink(error) }
        try check()
    }

    mutating func tail(_ bytes: UnsafeBufferPointer<UInt8>, end: UnsafeBufferPointer<UInt8>?) throws(Failure) {
        do { try inner.pointee.tail(bytes, end: end) } catch { throw .sink(error) }
        try check()
    }

    mutating func cleanRun(_ bytes: UnsafeBufferPointer<UInt8>, records: Int) throws(Failure) {
        do { try inner.pointee.cleanRun(bytes, records: records) } catch { throw .sink(error) }
        try check()
    }

    mutating func addRecords(_ records: Int, matched: Int, bytes: Int) throws(Failure) {
        do { try inner.pointee.addRecords(records, matched: matched, bytes: bytes) } catch { throw .sink(error) }
        try check()
    }

    mutating func judgeBlock(_ block: UnsafeBufferPointer<UInt8>, delimiter: UInt8) throws(Failure) -> Bool {
        let taken: Bool
        do { taken = try inner.pointee.judgeBlock(block, delimiter: delimiter) } catch { throw .sink(error) }
        try check()
        return taken
    }

    mutating func willRead() throws(Failure) {
        do { try inner.pointee.willRead() } catch { throw .sink(error) }
    }

    mutating func addMatches(_ count: Int) { inner.pointee.addMatches(count) }
    mutating func match(_ match: Match) -> Bool { inner.pointee.match(match) }
    mutating func inputHead(_ head: UnsafeBufferPointer<UInt8>) -> InputStart { inner.pointee.inputHead(head) }

    var needsRecordBoundaries: Bool { read { $0.needsRecordBoundaries } }
    var acceptsCleanRuns: Bool { read { $0.acceptsCleanRuns } }
    var countsRecords: Bool { read { $0.countsRecords } }
    var needsEveryMatch: Bool { read { $0.needsEveryMatch } }
    var countsMatchesOnly: Bool { read { $0.countsMatchesOnly } }
    var countsSelectedRecordsOnly: Bool { read { $0.countsSelectedRecordsOnly } }
    var takesMatchStream: Bool { read { $0.takesMatchStream } }
    var looksAtHead: Bool { read { $0.looksAtHead } }
    var flow: RecordFlow { read { $0.flow } }
}
