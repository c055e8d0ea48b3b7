/// How a byte stream is cut into records, and where each record ends: the kinds of
/// record a ``RecordReader`` reads.
///
/// ## Adding a kind of record (mbox, .eml, …)
///
/// A kind is one case here plus one function that finds a record's end, so every
/// command (`filter`, `match`, `eval`, `train`) reads it with the same buffer, limits
/// and streaming. To add one:
/// 1. Add the case (its raw value is the `--delimiter` spelling, e.g. `mbox`).
/// 2. Write its boundary finder in its own file, `RecordDelimiter+Mbox.swift`, with the
///    shape of ``nextRecord(in:from:atEnd:continuing:)``: given the buffer and a record
///    start, return where the content ends and where the next record starts, or nil
///    when the end is not in the buffer yet (unless `atEnd`). The reader keeps at most
///    ``RecordReader/maxRecordBytes`` of an unfinished record, so the finder must not
///    need more look-behind than the current record.
/// 3. Route the case to it in ``nextRecord(in:from:atEnd:continuing:)``, and give it a
///    ``byte`` (nil unless one byte ends every record — that enables block search)
///    and a ``defaultTerminator``.
/// 4. If the end of a record can be a run of bytes that a read may cut (as `blank`'s
///    `\n\n`), hold them back in ``RecordReader``'s `safeTailEnd`.
/// Kinds that are whole inputs (one .eml file, each file of a Maildir folder) are
/// ``none`` records of each file: the CLI expands folders into files.
///
/// A record is its *content* followed by its *terminator* (the delimiter bytes that
/// end it, empty for the last record when the input does not end with one). Content
/// plus terminator, record after record, is exactly the input: nothing is lost or
/// reordered.
///
/// ```swift
/// let text = Array("one\ntwo\n\nthree".utf8)
/// text.withUnsafeBufferPointer { buffer in
///     RecordDelimiter.blank.nextRecord(in: buffer, from: 0, atEnd: true)
/// }   // (contentEnd: 7, next: 9): "one\ntwo" then "\n\n"
/// ```
///
/// - Complexity: O(record bytes) per record; `line` and `nul` use `memchr`.
public enum RecordDelimiter: String, Sendable, Hashable, CaseIterable {
    /// Lines ended by `\n` (a `\r` before it stays in the content).
    case line
    /// Records ended by a NUL byte (`find -print0`).
    case nul
    /// Paragraphs or messages separated by one or more blank lines (`\n` or `\r\n`);
    /// blank lines at the start of the input belong to the first paragraph.
    case blank
    /// The whole input is one record.
    case none
    /// Mail messages of an mbox file (mboxrd or mboxo): each starts at a line beginning
    /// `From `; the content runs to the `\n` before the next such line, which is the
    /// terminator. Bytes before the first `From ` line are a record of their own. See
    /// `RecordDelimiter+Mbox.swift`.
    case mbox

    /// The single delimiter byte of `line` and `nul`; nil for the others.
    public var byte: UInt8? {
        switch self {
        case .line: return 0x0A
        case .nul: return 0x00
        case .blank, .none, .mbox: return nil
        }
    }

    /// The terminator written after a last record that had none in the input.
    public var defaultTerminator: [UInt8] {
        switch self {
        case .line, .blank, .mbox: return [0x0A]
        case .nul: return [0x00]
        case .none: return []
        }
    }

    /// The record that starts at `from`: where its content ends and where the next
    /// record starts. Returns nil when the record is not complete in `buffer` — unless
    /// `atEnd` (no more input will come), in which case the rest of the buffer is the
    /// last record. Also nil when `from == buffer.count`.
    ///
    /// `continuing` says that `from` is inside a record (the rest of a record whose
    /// start was handled already), so for ``blank`` a terminator may begin right at
    /// `from`; otherwise blank lines at `from` are the start of a paragraph's content.
    public func nextRecord(in buffer: UnsafeBufferPointer<UInt8>, from: Int, atEnd: Bool, continuing: Bool = false)
        -> (contentEnd: Int, next: Int)?
    {
        let count = buffer.count
        guard from < count else { return nil }
        switch self {
        case .line, .nul:
            if let p = Self.find(byte!, in: buffer, from: from) { return (p, p + 1) }
            return atEnd ? (count, count) : nil
        case .none:
            return atEnd ? (count, count) : nil
        case .mbox:
            return nextMboxMessage(in: buffer, from: from, atEnd: atEnd)
        case .blank:
            var p = from
            while let nl = Self.find(0x0A, in: buffer, from: p) {
                // Is the line after this `\n` blank?
                var q = nl + 1
                if q >= count { return atEnd ? (nl, count) : nil }
                if buffer[q] == 0x0D {
                    if q + 1 >= count { return atEnd ? (count, count) : nil }
                    if buffer[q + 1] != 0x0A { p = q; continue }
                } else if buffer[q] != 0x0A {
                    p = q
                    continue
                }
                // Yes: swallow every following blank line.
                while q < count {
                    if buffer[q] == 0x0A { q += 1; continue }
                    if buffer[q] == 0x0D {
                        if q + 1 >= count { break }
                        if buffer[q + 1] == 0x0A { q += 2; continue }
                    }
                    break
                }
                if q >= count - (buffer[count - 1] == 0x0D ? 1 : 0), !atEnd { return nil }
                // Blank lines at the very start belong to the first record's content
                // (unless nothing else follows), so no record is empty.
                if nl == from, q < count, !continuing { p = q; continue }
                return (nl, q)
            }
            return atEnd ? (count, count) : nil
        }
    }

    /// Offset of the first `byte` at or after `from`, via `memchr` (the reader's and
    /// the line and NUL records' byte search).
    @inline(__always)
    public static func find(_ byte: UInt8, in buffer: UnsafeBufferPointer<UInt8>, from: Int) -> Int? {
        guard from < buffer.count, let base = buffer.baseAddress else { return nil }
        // SAFETY: from < count, so base + from and the count - from bytes after it are in the buffer.
        guard let hit = findByte(byte, in: base + from, count: buffer.count - from) else { return nil }
        return base.distance(to: hit)
    }
}
