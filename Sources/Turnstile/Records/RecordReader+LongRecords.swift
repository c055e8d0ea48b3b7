// Records longer than `maxRecordBytes`, judged whole in bounded memory (issue 48: a
// 100 MB line with the match at its end). Only for sinks that need to know which
// records are selected, not where each match is (grep's lines, -c, -l, -q, -v), and
// for one-byte delimiters.
//
// The record is fed piece by piece to a ``RecordSelection`` (the forward DFA's state
// carried from read to read) while it is kept where it can be read again: the input
// itself when it is a regular file (pread), else an unlinked temporary file. When the
// record ends, the verdict is known, and the record is handed to the sink as a
// truncated record — its first piece, then the rest through ``RecordSink/tail(_:end:)``
// — read back a piece at a time. Memory: the read buffer, one piece and the DFA.

import AutomatonCore

extension RecordReader {
    /// Whether a record past ``maxRecordBytes`` can be judged whole for this sink.
    func judgesWhole(selectOnly: Bool, streaming: Bool, countOnly: Bool) -> Bool {
        judgesLongRecordsWhole && matcher != nil && delimiter.byte != nil && selectOnly && !streaming && !countOnly
    }

    /// The selection records past the limit are judged with, built on first use (nil
    /// when the matcher's rules need more than a forward DFA).
    mutating func longRecordSelection() -> RecordSelection? {
        if !longRecordSourceBuilt {
            longRecordSourceBuilt = true
            longRecordSource = matcher?.recordSelectionSource()
        }
        return longRecordSource?.makeSelection()
    }

    /// The one match handed to the sink for a record that holds a match somewhere past
    /// its head: the sink selects the record and prints the bytes it is given.
    static let selectedBeyondHead = Match(pattern: 0, start: 0, end: 0)

    /// Reads the record at `cursor.start`, whose end is not in the buffer, to its end,
    /// judges it whole and hands it to `sink`; leaves `cursor.start` after it. Returns
    /// false, having read nothing, when the record cannot be judged whole here (no
    /// selection for the matcher, no place to keep the record): the caller judges its head.
    mutating func judgeLongRecord<Sink: RecordSink>(
        fd: Int32, cursor: inout ReadCursor, into sink: inout Sink
    ) throws(ErasedRecordReadError) -> Bool {
        guard let byte = delimiter.byte, var selection = longRecordSelection() else { return false }
        let recordOffset = cursor.base + cursor.start
        // Where the record is read back from: the file itself, or a spool file.
        var replay = LongRecordReplay.none
        if let fileOffset = cursor.fileOffset(ofInput: recordOffset) {
            replay = .file(fd, offset: fileOffset)
        } else if isRegularFile(fd) {
            let position = currentOffset(fd)
            if position >= 0 { replay = .file(fd, offset: position - (cursor.base + cursor.end) + recordOffset) }
        }
        if case .none = replay {
            let spool = makeSpoolFile()
            guard spool >= 0 else { return false }
            replay = .spool(spool)
        }
        defer { if case .spool(let spool) = replay { closeFile(spool) } }

        var length = 0
        var terminatorLength = 0
        while true {
            let view = cursor.view
            let found = RecordDelimiter.find(byte, in: view, from: cursor.start)
            let pieceEnd = found ?? cursor.end
            let piece = slice(view, cursor.start, pieceEnd)
            selection.feed(piece)
            if case .spool(let spool) = replay, !writeAll(spool, piece) { throw .read(lastErrno) }
            length += piece.count
            cursor.start = pieceEnd
            if found != nil { terminatorLength = 1; break }
            if cursor.atEnd { break }
            if cursor.mapped?.shrank == true { throw .shrank }
            do { try sink.willRead() } catch { throw .sink(error) }
            let n = cursor.refill(from: fd, readSize: Self.readSize, maxRead: 4 * Self.readSize,
                                  maxRecordBytes: maxRecordBytes)
            if n < 0 { throw .read(lastErrno) }
            bytesRead += n
        }
        let verdict: Bool
        if let whole = selection.finish() {
            verdict = whole
        } else {
            // The lazy DFA gave up on this record: its head was all that was judged.
            truncatedSomeRecord = true
            verdict = false
        }

        // Hand the record over, read back a piece at a time.
        let pieceSize = Self.readSize
        let scratch = UnsafeMutablePointer<UInt8>.allocate(capacity: pieceSize)
        defer { scratch.deallocate() }
        func readBack(_ at: Int, _ count: Int) throws(ErasedRecordReadError) -> UnsafeBufferPointer<UInt8> {
            var done = 0
            while done < count {
                let n: Int
                switch replay {
                case .file(let fd, let offset): n = readSome(fd, scratch + done, count - done, at: offset + at + done)
                case .spool(let spool): n = readSome(spool, scratch + done, count - done, at: at + done)
                case .none: n = 0
                }
                if n < 0 { throw .read(lastErrno) }
                if n == 0 { break }  // the file shrank: hand on what is there
                done += n
            }
            return UnsafeBufferPointer(start: scratch, count: done)
        }
        let terminator = slice(cursor.view, cursor.start, cursor.start + terminatorLength)
        let headCount = min(length, pieceSize)
        let head = try readBack(0, headCount)
        do {
            try sink.record(content: head, terminator: slice(head, head.count, head.count), offset: recordOffset,
                            matches: verdict ? [Self.selectedBeyondHead][...] : [][...], truncated: true)
        } catch { throw .sink(error) }
        if sinkEnds(&sink) { return true }
        var at = headCount
        repeat {
            let count = min(pieceSize, length - at)
            let piece = try readBack(at, count)
            at += count
            do { try sink.tail(piece, end: at >= length ? terminator : nil) } catch { throw .sink(error) }
            if sinkEnds(&sink) { return true }
        } while at < length
        cursor.start += terminatorLength
        return true
    }
}

/// Where a long record is read back from.
enum LongRecordReplay {
    case none
    /// The input, a regular file: the record's first byte is at this file offset.
    case file(Int32, offset: Int)
    /// An unlinked temporary file holding the record from offset 0.
    case spool(Int32)
}
