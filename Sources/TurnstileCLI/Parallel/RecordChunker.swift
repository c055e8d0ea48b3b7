import Turnstile

/// Finds where a block of input can be cut so that no record is split: the end of the
/// last complete record in it, and how many records come before that end.
///
/// `--threads` reads an input in blocks and hands each block's complete records to a
/// worker as one chunk; the unfinished record at the end of a block starts the next
/// one. The record count gives each chunk the number of its first record (JSON output
/// numbers records per input).
///
/// ```swift
/// let bytes: [UInt8] = Array("one\ntwo\nthr".utf8)
/// bytes.withUnsafeBufferPointer { RecordChunker(delimiter: .line).cut($0, atEnd: false) }
/// // (end: 8, records: 2): "one\ntwo\n"; "thr" waits for more input
/// ```
///
/// - Complexity: O(n) per block: `line` and `nul` look back from the end for the last
///   delimiter and count delimiters in one vectorized pass; `blank` and `none` walk the
///   records with ``RecordDelimiter/nextRecord(in:from:atEnd:continuing:)``.
struct RecordChunker {
    let delimiter: RecordDelimiter

    /// Bytes read per `read(2)` under `--threads`; a chunk is what one read completes.
    /// 1 MiB; tests set `TURNSTILE_CHUNK_BYTES` to put many chunk boundaries into
    /// small inputs.
    static let readSize: Int = {
        if let text = ProcessEnvironment.value("TURNSTILE_CHUNK_BYTES"), let n = Int(text), n >= 16 { return n }
        return 1 << 20
    }()

    /// Whether inputs can be chunked under this record limit: a chunked record must
    /// stay well below the limit, so that it is judged whole, as with one thread.
    static func canChunk(maxRecordBytes: Int) -> Bool { maxRecordBytes >= 4 * readSize }

    /// The end of the last complete record in `bytes` (0 when no record is complete)
    /// and the number of records in `bytes[..<end]`. With `atEnd` (no more input
    /// follows) the rest of `bytes` is the last record, so `end == bytes.count`.
    ///
    /// `knownOpen`: `bytes[..<knownOpen]` holds no delimiter (the unfinished record left
    /// by the last cut), so only the bytes after it are searched — a record arriving in
    /// many reads is not scanned again from its start each time (that was quadratic).
    func cut(_ bytes: UnsafeBufferPointer<UInt8>, atEnd: Bool, knownOpen: Int = 0) -> (end: Int, records: Int) {
        if let byte = delimiter.byte {
            let end: Int
            if atEnd {
                end = bytes.count
            } else if let last = Self.lastIndex(of: byte, in: bytes, from: min(knownOpen, bytes.count)) {
                end = last + 1
            } else {
                return (0, 0)
            }
            let head = UnsafeBufferPointer(rebasing: bytes[..<end])
            var records = RecordReader.count(byte, in: head)
            if end > 0, head[end - 1] != byte { records += 1 }  // a last record without its delimiter
            return (end, records)
        }
        var end = 0, records = 0
        while let (_, next) = delimiter.nextRecord(in: bytes, from: end, atEnd: atEnd) {
            end = next
            records += 1
        }
        return (end, records)
    }

    /// The offset of the last `byte` in `bytes[from...]`. Only the bytes of one read
    /// are looked at, so a plain backward loop is enough.
    static func lastIndex(of byte: UInt8, in bytes: UnsafeBufferPointer<UInt8>, from: Int = 0) -> Int? {
        var i = bytes.count
        while i > from {
            i -= 1
            if bytes[i] == byte { return i }
        }
        return nil
    }
}
