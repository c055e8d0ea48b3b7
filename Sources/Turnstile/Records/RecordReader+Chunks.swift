// Chunking is a property of the reader: the same read loop that searches records in
// place (`read(fd:into:)`) can instead hand each buffer of complete records away whole,
// as one chunk for a worker of a threaded run, and go on reading in a fresh buffer.

/// Complete records of one input, handed out by ``RecordReader/nextChunk(from:chunkBytes:countingRecords:pool:)``
/// for ``RecordReader/read(chunk:base:into:)`` to search on another thread.
public struct RecordChunk: Sendable {
    /// Owns the bytes; goes back to the pool once the chunk is searched.
    public let buffer: RecordBuffer
    /// Where the chunk's bytes are in `buffer`.
    public let range: Range<Int>
    /// The input offset of the chunk's first byte.
    public let base: Int
    /// The records of the input before this chunk (0 when not counted).
    public let firstRecord: Int

    /// The chunk's bytes: whole records only, the last possibly without its delimiter
    /// at the end of the input. Valid until `buffer` goes back to the pool.
    public var bytes: UnsafeBufferPointer<UInt8> { buffer.bytes(range) }
}

/// What ``RecordReader/nextChunk(from:chunkBytes:countingRecords:pool:)`` found.
public enum RecordChunkRead: Sendable {
    /// The complete records of one read.
    case chunk(RecordChunk)
    /// The input ended, and all its records were handed out.
    case end
    /// read(2) failed with this `errno`.
    case failed(Int32)
    /// A record grew to half of ``RecordReader/maxRecordBytes`` before it ended: it is
    /// not chunked. `prefix` holds the bytes read from it so far, from input offset
    /// `base` on, and `firstRecord` records came before; the rest of the input is read
    /// on by ``RecordReader/read(fd:into:prefix:base:)``, one thread, exactly as with
    /// one thread — so a record longer than the limit is judged on its head as always.
    case longRecord(prefix: [UInt8], base: Int, firstRecord: Int)
}

extension RecordReader {
    /// The default size of a chunk: 1 MiB, a read's worth. Tests set
    /// `TURNSTILE_CHUNK_BYTES` to put many chunk boundaries into small inputs.
    public static let defaultChunkBytes = 1 << 20

    /// Whether inputs can be chunked under a record limit: a chunked record must stay
    /// well below the limit, so that it is judged whole, as with one thread.
    public static func canChunk(maxRecordBytes: Int, chunkBytes: Int = defaultChunkBytes) -> Bool {
        maxRecordBytes >= 4 * chunkBytes
    }

    /// Reads `fd` on until its buffer holds complete records and hands them out as one
    /// chunk; the unfinished record after them starts the next buffer (taken from
    /// `pool`, to which the worker gives the chunk's buffer back). Call again for the
    /// next chunk, until `.end`, `.failed` or `.longRecord` — then the reader is ready
    /// for the next input.
    ///
    /// Why a chunk is what one read completes, and is not copied: read(2) fills the
    /// buffer a worker will search, so the bytes are touched once by the reading
    /// thread (to find the last record end, looking back from the end) and once by the
    /// worker. `countingRecords`: count the chunk's records (one SIMD pass) to number
    /// the next chunk's; skip it when nobody prints record numbers.
    ///
    /// ```swift
    /// var reader = RecordReader(delimiter: .line, maxRecordBytes: 16 << 20)
    /// let pool = RecordBufferPool()
    /// while case .chunk(let chunk) = reader.nextChunk(from: fd, countingRecords: false, pool: pool) {
    ///     try worker.read(chunk: chunk.bytes, base: chunk.base, into: &sink)
    ///     pool.give(chunk.buffer)
    /// }
    /// ```
    ///
    /// - Complexity: O(bytes read) to find the cuts (each byte is looked at once, also
    ///   when a record spans many reads), plus one copy of each unfinished record.
    public mutating func nextChunk(
        from fd: Int32, chunkBytes: Int = defaultChunkBytes, countingRecords: Bool, pool: RecordBufferPool
    ) -> RecordChunkRead {
        var cursor = chunkCursor ?? ReadCursor(buffer: pool.take(capacity: 2 * chunkBytes))
        while true {
            if cursor.end > cursor.start || cursor.atEnd {
                let pending = cursor.buffer.bytes(cursor.start..<cursor.end)
                let (cut, records) = delimiter.completeRecords(
                    in: pending, atEnd: cursor.atEnd, knownOpen: cursor.open - cursor.start,
                    countingRecords: countingRecords)
                if cut > 0 {
                    let chunk = RecordChunk(buffer: cursor.buffer, range: cursor.start..<(cursor.start + cut),
                                            base: cursor.base + cursor.start, firstRecord: chunkRecords)
                    chunkRecords += records
                    // The unfinished record moves to the front of a fresh buffer.
                    let rest = pending.count - cut
                    let next = pool.take(capacity: max(2 * chunkBytes, rest + chunkBytes))
                    // SAFETY: rest <= next.capacity; distinct allocations.
                    next.base.update(from: cursor.buffer.base + chunk.range.upperBound, count: rest)
                    // The unfinished record holds no record end (the cut was at the last).
                    chunkCursor = ReadCursor(buffer: next, start: 0, end: rest, base: chunk.base + cut, open: rest,
                                             atEnd: cursor.atEnd)
                    return .chunk(chunk)
                }
                if cursor.atEnd {
                    endChunks(keeping: cursor.buffer)
                    return .end
                }
                cursor.open = cursor.end
                if pending.count >= maxRecordBytes / 2 {
                    let found = RecordChunkRead.longRecord(prefix: Array(pending), base: cursor.base + cursor.start,
                                                           firstRecord: chunkRecords)
                    endChunks(keeping: cursor.buffer)
                    return found
                }
            }
            let n = cursor.refill(from: fd, readSize: chunkBytes, maxRead: max(chunkBytes, cursor.end - cursor.start),
                                  maxRecordBytes: maxRecordBytes)
            if n < 0 {
                let code = lastErrno
                endChunks(keeping: cursor.buffer)
                return .failed(code)
            }
            bytesRead += n
        }
    }

    /// Ready for the next input; its first chunk is read into `buffer`.
    private mutating func endChunks(keeping buffer: RecordBuffer) {
        chunkCursor = ReadCursor(buffer: buffer)
        chunkRecords = 0
    }
}
