// Where a buffer can be cut so that no record is split: the reader's block search
// searches up to there, and a threaded run hands everything up to there to a worker
// as one chunk while the unfinished record starts the next buffer.

import LiteralAutomata

extension RecordDelimiter {
    /// The end of the last complete record in `bytes` (0 when no record is complete)
    /// and, when `countingRecords`, the number of records in `bytes[..<end]` (else 0).
    /// With `atEnd` (no more input follows) the rest of `bytes` is the last record, so
    /// `end == bytes.count`.
    ///
    /// `knownOpen`: `bytes[..<knownOpen]` holds no record end (the unfinished record
    /// left by the last cut), so only the bytes after it are searched — a record
    /// arriving in many reads is not scanned again from its start each time (that was
    /// quadratic). The count (JSON and `-n` number records) is one vectorized pass and
    /// is skipped when nobody prints record numbers.
    ///
    /// ```swift
    /// let bytes: [UInt8] = Array("one\ntwo\nthr".utf8)
    /// bytes.withUnsafeBufferPointer { RecordDelimiter.line.completeRecords(in: $0, atEnd: false) }
    /// // (end: 8, records: 2): "one\ntwo\n"; "thr" waits for more input
    /// ```
    ///
    /// - Complexity: O(n): `line` and `nul` look back from the end for the last
    ///   delimiter (and count delimiters with SIMD); `blank`, `none` and `mbox` walk the
    ///   records with ``nextRecord(in:from:atEnd:continuing:)``.
    public func completeRecords(
        in bytes: UnsafeBufferPointer<UInt8>, atEnd: Bool, knownOpen: Int = 0, countingRecords: Bool = true
    ) -> (end: Int, records: Int) {
        if let byte {
            let end: Int
            if atEnd {
                end = bytes.count
            } else if let last = Self.lastIndex(of: byte, in: bytes, from: min(knownOpen, bytes.count)) {
                end = last + 1
            } else {
                return (0, 0)
            }
            guard countingRecords else { return (end, 0) }
            let head = UnsafeBufferPointer(rebasing: bytes[..<end])
            var records = RecordReader.count(byte, in: head)
            if end > 0, head[end - 1] != byte { records += 1 }  // a last record without its delimiter
            return (end, records)
        }
        var end = 0, records = 0
        while let (_, next) = nextRecord(in: bytes, from: end, atEnd: atEnd) {
            end = next
            records += 1
        }
        return (end, countingRecords ? records : 0)
    }

    /// The offset of the last `byte` in `bytes[from...]`. Only bytes not yet known to
    /// be open are looked at (at most one read's worth).
    static func lastIndex(of byte: UInt8, in bytes: UnsafeBufferPointer<UInt8>, from: Int) -> Int? {
        Memchr.findLast(byte, in: bytes, from: max(0, from), end: bytes.count)
    }
}
