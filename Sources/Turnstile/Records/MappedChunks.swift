// A regular file cut into chunks for the workers of a threaded run straight from one
// mapping, instead of read(2) into a buffer per chunk.
//
// Why: read(2) copies every byte once more, and the copy ran under the reader's lock,
// so a worker waited while another read — `match -c '\p{L}{5}'` over 32 MiB on two
// threads spent 24 ms of system time (one thread, mapped: 7 ms) and was no faster than
// one thread. Mapped, a chunk is a range of the page cache: cutting it costs a look
// back from its end for the last record end, and the workers fault the pages in
// themselves, in parallel.
//
// A file that shrinks while it is searched reads as zeros past its new end (the guard
// of CMappedInput) and the run says so (``RecordRunEvent/shrank(name:)``), as the
// one-thread mapped read does; a file that grew past the mapping is read on from where
// the mapping ends by the one-thread reader, as a record too long to chunk is.

import CMappedInput

/// The rest of one regular file, mapped once, handed out as chunks of complete records.
///
/// Offsets are input offsets: 0 is the file position when the input was opened (a
/// redirected standard input may start further in).
///
/// - Complexity: O(1) to map; each chunk costs a look back from its end to the last
///   record end, plus one pass when records are counted.
final class MappedChunks: @unchecked Sendable {
    // @unchecked: the cutting state (`next`, `records`) is used by the thread holding
    // the run's intake lock; the mapping itself is read-only and read by the workers
    // until ``unmap()``, which the writing turn calls after the input's last chunk (or
    // deinit, once the last job holding it is gone, when a run stops early).
    private let fd: Int32
    /// The file offset of input offset 0.
    private let position: Int
    /// The mapping: from the page of `position` to the file's end when mapped.
    private let mapping: UnsafePointer<UInt8>
    private let mappingLength: Int
    private let slot: Int32
    private var mapped = true
    /// Input bytes mapped: the file's size when mapped, less `position`.
    let length: Int
    /// The input offset of the next chunk's first byte.
    private(set) var next = 0
    /// Records handed out so far (counted only when asked).
    private var records = 0

    /// What ``nextChunk(delimiter:chunkBytes:maxRecordBytes:countingRecords:)`` found.
    enum Cut {
        /// Complete records: `range` of the input, after `firstRecord` records.
        case chunk(range: Range<Int>, firstRecord: Int)
        /// Every byte was handed out.
        case end
        /// The bytes from `prefix` on are read by one thread from the file offset
        /// after them (already set): a record grew to half the record limit, or the file
        /// grew past the mapping. `firstRecord` records came before.
        case rest(prefix: Range<Int>, firstRecord: Int)
    }

    /// `fd` mapped from its position to its end, when it is a regular file with at
    /// least `minimumBytes` left; nil otherwise (and when the map fails, or every guard
    /// slot is taken) — such an input is read with read(2).
    init?(fd: Int32, minimumBytes: Int = MappedInput.minimumBytes) {
        guard let (size, position) = MappedInput.mappableSpan(fd, minimumBytes: minimumBytes) else { return nil }
        let offset = position & ~(MappedInput.pageSize - 1)
        var slot: Int32 = -1
        guard let address = ts_window_map(fd, off_t(offset), size - offset, &slot) else { return nil }
        self.fd = fd
        self.position = position
        self.mapping = address + (position - offset)
        self.mappingLength = size - offset
        self.slot = slot
        self.length = size - position
    }

    deinit { unmap() }

    /// Input bytes `range`, valid until ``unmap()``.
    func bytes(_ range: Range<Int>) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: mapping + range.lowerBound, count: range.count)
    }

    /// The next chunk: about `chunkBytes` of complete records (more when one record is
    /// longer, up to half of `maxRecordBytes`), the last record possibly without its
    /// delimiter at the end of the file.
    func nextChunk(delimiter: RecordDelimiter, chunkBytes: Int, maxRecordBytes: Int,
                   countingRecords: Bool) -> Cut {
        let remaining = length - next
        if remaining == 0 { return grew() ? rest(next..<length) : .end }
        var want = chunkBytes
        var knownOpen = 0
        while true {
            let n = min(want, remaining)
            let atEnd = n == remaining && !grew()
            let (cut, counted) = delimiter.completeRecords(
                in: bytes(next..<(next + n)), atEnd: atEnd, knownOpen: knownOpen, countingRecords: countingRecords)
            if cut > 0 {
                let chunk = next..<(next + cut)
                let first = records
                records += counted
                next += cut
                return .chunk(range: chunk, firstRecord: first)
            }
            // No record end: the file grew under an unfinished record, or the record
            // is too long to chunk.
            if n == remaining || n >= maxRecordBytes / 2 { return rest(next..<(next + n)) }
            knownOpen = n
            want *= 2
        }
    }

    /// Hands `prefix` and what follows it to the one-thread reader: the file offset is
    /// set past `prefix`, where that reader goes on.
    private func rest(_ prefix: Range<Int>) -> Cut {
        setOffset(fd, position + prefix.upperBound)
        next = length
        return .rest(prefix: prefix, firstRecord: records)
    }

    /// Whether the file is now longer than what was mapped.
    private func grew() -> Bool {
        (regularFileSize(fd) ?? 0) > position + length
    }

    /// Whether a read of the mapping met a page past the file's end (it shrank).
    var shrank: Bool { mapped && ts_window_shrank(slot) != 0 }

    /// Leaves the file offset past the bytes handed out, as read(2) would, before the
    /// input is closed (a redirected standard input is shared with whoever reads next).
    func finishReading() {
        setOffset(fd, position + next)
    }

    /// Gives the mapping back; call once every chunk of it is searched.
    func unmap() {
        guard mapped else { return }
        mapped = false
        ts_window_unmap(mapping - (mappingLength - length), mappingLength, slot)
    }
}
