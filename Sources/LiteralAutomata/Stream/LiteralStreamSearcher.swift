// Stream search for literal automata: matches across a sequence of chunks (a `read`
// loop), each reported exactly once with absolute offsets, including matches that
// straddle chunk boundaries.
//
// The searcher keeps a carry of at most (longest pattern + 1) bytes: the bytes a
// match that is not yet decided may still need, plus one byte of left context for
// `\b`. Each chunk is searched together with the carry; a match is reported only
// when no later byte can change it:
// - leftmost kinds: its start is more than the longest pattern before the end of
//   the data seen so far (every competing candidate, at the same or an earlier
//   start, then ends inside the data, with the byte after it known for `\b`);
// - overlapping: its end is before the last byte seen (so the byte after it is known).
// At `finish()` the end of the data is the end of input and the rest is reported.

import AutomatonCore

/// Searches a sequence of chunks, reporting every match exactly once with absolute
/// byte offsets, in the same order and with the same results as one search over
/// the concatenated chunks. Memory stays bounded by the longest pattern (plus the
/// chunk being searched).
///
/// ```swift
/// let ac = try AhoCorasick.Builder().build(["needle"])
/// var stream = ac.streamSearcher()
/// var found: [Match] = []
/// for chunk in [Array("hay nee".utf8), Array("dle hay".utf8)] {
///     stream.feed(chunk) { found.append($0) }
/// }
/// stream.finish { found.append($0) }
/// found   // [0:[4,10)]
/// ```
/// - Complexity: O(chunk + longest pattern) per ``feed(_:_:)-([UInt8],_)``, so
///   O(n + chunks × longest pattern) in all; memory O(longest pattern + chunk).
public struct LiteralStreamSearcher: Sendable {
    let engine: LiteralEngine
    /// Undecided bytes carried to the next chunk; `carry[0]` is at absolute `carryStart`.
    private var carry: [UInt8] = []
    private var carryStart = 0
    /// Leftmost kinds: the next search starts here (absolute); `lastEmpty` as in PCRE2.
    private var searchFrom = 0
    private var lastEmpty = false
    /// Overlapping: every occurrence ending at or before this offset has been reported.
    private var doneEnd = -1
    /// Reused buffer holding carry + chunk.
    private var work: [UInt8] = []
    /// Bytes fed so far (the absolute offset of the next chunk).
    public private(set) var bytesConsumed = 0

    init(engine: LiteralEngine) { self.engine = engine }

    /// Searches the next chunk, calling `body` for every match that is now decided.
    public mutating func feed(_ chunk: UnsafeBufferPointer<UInt8>, _ body: (Match) -> Void) {
        process(chunk, final: false, body)
    }

    /// Searches the next chunk of bytes.
    public mutating func feed(_ chunk: [UInt8], _ body: (Match) -> Void) {
        chunk.withUnsafeBufferPointer { process($0, final: false, body) }
    }

    /// Ends the stream: reports the remaining matches and resets the searcher for a
    /// new stream.
    public mutating func finish(_ body: (Match) -> Void) {
        process(UnsafeBufferPointer(start: nil, count: 0), final: true, body)
        carry = []; carryStart = 0; searchFrom = 0; lastEmpty = false; doneEnd = -1; bytesConsumed = 0
    }

    private mutating func process(_ chunk: UnsafeBufferPointer<UInt8>, final: Bool, _ body: (Match) -> Void) {
        work.removeAll(keepingCapacity: true)
        work.append(contentsOf: carry)
        work.append(contentsOf: chunk)
        bytesConsumed += chunk.count
        let bufStart = carryStart
        let bufEnd = bufStart + work.count
        let maxLength = engine.maxLength
        let engine = self.engine
        var keepFrom: Int
        if engine.matchKind.isLeftmost {
            let threshold = final ? Int.max : bufEnd - maxLength - 1
            var from = searchFrom, empty = lastEmpty
            work.withUnsafeBufferPointer { h in
                engine.forEachMatch(h, from: from - bufStart, lastEmpty: empty) { m in
                    let start = m.start + bufStart
                    if start > threshold { return false }
                    body(Match(pattern: m.pattern, start: start, end: m.end + bufStart))
                    from = m.end + bufStart
                    empty = m.isEmpty
                    return true
                }
            }
            if !final, bufEnd - maxLength > from { from = bufEnd - maxLength; empty = false }
            searchFrom = from
            lastEmpty = empty
            keepFrom = max(bufStart, from - 1)
        } else {
            let last = final ? bufEnd : bufEnd - 1
            let from = max(bufStart, doneEnd + 1 - maxLength)
            let done = doneEnd
            work.withUnsafeBufferPointer { h in
                engine.forEachMatch(h, from: from - bufStart) { m in
                    let end = m.end + bufStart
                    if end > last { return false }
                    if end > done { body(Match(pattern: m.pattern, start: m.start + bufStart, end: end)) }
                    return true
                }
            }
            doneEnd = max(doneEnd, last)
            keepFrom = max(bufStart, doneEnd - maxLength)
        }
        keepFrom = min(keepFrom, bufEnd)
        carry.removeAll(keepingCapacity: true)
        carry.append(contentsOf: work[(keepFrom - bufStart)...])
        carryStart = keepFrom
    }
}

extension AhoCorasick {
    /// A stream searcher for this automaton (see ``LiteralStreamSearcher``).
    ///
    /// ```swift
    /// var stream = ac.streamSearcher()
    /// while let chunk = readNextChunk() { stream.feed(chunk) { print($0) } }
    /// stream.finish { print($0) }
    /// ```
    /// - Complexity: O(1); searching costs what ``LiteralStreamSearcher`` states.
    public func streamSearcher() -> LiteralStreamSearcher { LiteralStreamSearcher(engine: engine) }

    /// Every match over a sequence of chunks, with absolute offsets: the same result
    /// as ``matches(in:)-([UInt8])`` over their concatenation.
    /// - Complexity: O(n + chunks × longest pattern).
    public func matches<S: Sequence>(inChunks chunks: S) -> [Match] where S.Element == [UInt8] {
        var stream = streamSearcher()
        var out: [Match] = []
        for chunk in chunks { stream.feed(chunk) { out.append($0) } }
        stream.finish { out.append($0) }
        return out
    }
}

extension LiteralStreamSearcher {
    /// Drives a `read` loop: calls `read` with one reused buffer of `bufferSize` bytes
    /// until it returns 0 (end of input), reporting every match with absolute offsets,
    /// then finishes the stream.
    ///
    /// ```swift
    /// var stream = ac.streamSearcher()
    /// try stream.run(bufferSize: 64 << 10, read: { buffer in
    ///     try fileHandle.read(into: buffer)     // bytes read, 0 at end of input
    /// }) { match in print(match) }
    /// ```
    /// - Complexity: O(n + reads × longest pattern); memory O(bufferSize + longest pattern).
    public mutating func run<E: Error>(
        bufferSize: Int = 64 << 10,
        read: (UnsafeMutableBufferPointer<UInt8>) throws(E) -> Int,
        _ body: (Match) -> Void
    ) throws(E) {
        let buffer = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: max(1, bufferSize))
        defer { buffer.deallocate() }
        while true {
            let n = try read(buffer)
            if n <= 0 { break }
            feed(UnsafeBufferPointer(rebasing: buffer[0..<min(n, buffer.count)]), body)
        }
        finish(body)
    }
}
