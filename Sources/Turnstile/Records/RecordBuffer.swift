// The read loop's storage: bytes read from an input and not yet handed on, in one
// buffer that read(2) fills directly. `RecordReader` searches records in place in it;
// under `--threads` a buffer of complete records is handed to a worker whole (no copy),
// and the reader goes on in another from a `RecordBufferPool`.

import AutomatonCore

/// One heap buffer of bytes: what read(2) fills and what a record search reads.
///
/// A class so that a full buffer can change hands — the reader fills it, one worker
/// searches it, the pool takes it back — without copying its bytes.
///
/// ```swift
/// let buffer = RecordBuffer(capacity: 1 << 20)
/// buffer.grow(to: 2 << 20, keeping: 0)
/// ```
///
/// - Complexity: O(1) to make; ``grow(to:keeping:)`` copies the kept bytes once.
public final class RecordBuffer: @unchecked Sendable {
    // @unchecked: one thread at a time owns a buffer — the reader while it fills it,
    // then the one worker it is handed to, until it goes back to the pool.
    /// The bytes: `base[0..<capacity]`, allocated and owned by this object.
    private(set) var base: UnsafeMutablePointer<UInt8>
    /// Bytes allocated at `base`; never shrinks.
    private(set) var capacity: Int

    init(capacity: Int) {
        self.capacity = max(1, capacity)
        base = .allocate(capacity: self.capacity)
    }

    deinit { base.deallocate() }

    /// Grows to at least `minimum` bytes, keeping the first `keeping`.
    func grow(to minimum: Int, keeping: Int) {
        guard minimum > capacity else { return }
        let bigger = UnsafeMutablePointer<UInt8>.allocate(capacity: minimum)
        // SAFETY: keeping <= capacity < minimum; distinct allocations.
        bigger.update(from: base, count: keeping)
        base.deallocate()
        base = bigger
        capacity = minimum
    }

    /// `base[range]` as a buffer pointer, valid while the buffer lives and does not grow.
    func bytes(_ range: Range<Int>) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(start: base + range.lowerBound, count: range.count)
    }
}

/// Buffers given back by the workers of a threaded run for the reader to fill again.
///
/// Why: a fresh 1 MiB allocation per chunk comes back from `malloc` as untouched
/// pages, so every 4 KiB of input cost a page fault — 56,772 faults for 256 MiB at
/// `-j 2` against 1,519 at `-j 1`, and about a fifth more CPU time. Recycled, the pages
/// stay mapped.
///
/// - Complexity: O(1) per take and give; holds at most the buffers in use at once,
///   which the run's window bounds.
public final class RecordBufferPool: Sendable {
    private let free = LockedValue<[RecordBuffer]>([])

    public init() {}

    /// A buffer of at least `capacity` bytes (contents undefined).
    public func take(capacity: Int) -> RecordBuffer {
        if let buffer = free.withLock({ $0.popLast() }) {
            buffer.grow(to: capacity, keeping: 0)
            return buffer
        }
        return RecordBuffer(capacity: capacity)
    }

    /// Keeps `buffer` for a later ``take(capacity:)``.
    public func give(_ buffer: RecordBuffer) {
        free.withLock { $0.append(buffer) }
    }
}

/// Where the read loop stands in one input: the bytes read and not yet handed on are
/// `buffer.base[start..<end]`, and `buffer.base[0]` is at input offset `base`.
///
/// The one read loop of the library: ``RecordReader/read(fd:into:prefix:base:)``
/// hands records on in place, ``RecordReader/nextChunk(from:chunkBytes:countingRecords:pool:)``
/// hands the complete records of a buffer away whole; both keep the unfinished record
/// and read more through ``refill(from:readSize:maxRead:maxRecordBytes:)``.
struct ReadCursor {
    var buffer: RecordBuffer
    var start = 0
    var end = 0
    /// The input offset of `buffer.base[0]`.
    var base = 0
    /// `[start, open)` is known to hold no record end: a record that arrives in many
    /// small reads (a pipe gives 64 KiB at a time) is searched for its end once per
    /// read on the new bytes only, not from its start again (that was quadratic:
    /// 16 MiB of zeros through a pipe took 2.1 s, 64 MiB 27 s).
    var open = 0
    /// read(2) returned 0: no more bytes will come.
    var atEnd = false
    /// The input is a regular file read through mapped windows (MappedInput.swift):
    /// the bytes are the current window's, `buffer` is not used, and `base` is the input
    /// offset of the window's first byte.
    var mapped: MappedInput?

    /// The bytes read so far: `buffer.base[0..<end]`, or the mapped window's. Rebuilt
    /// after every read, since the buffer may move when it grows.
    var view: UnsafeBufferPointer<UInt8> {
        if let mapped {
            return UnsafeBufferPointer(start: mapped.window, count: mapped.window == nil ? 0 : end)
        }
        return buffer.bytes(0..<end)
    }

    /// The file offset of input offset `offset` when the input is mapped.
    func fileOffset(ofInput offset: Int) -> Int? {
        mapped.map { $0.fileDelta + offset }
    }

    /// Maps the next window of a mapped input: the unfinished bytes stay (the window
    /// starts at their page), and at least ``MappedInput/windowBytes`` more come into
    /// view. Returns the new bytes' count as ``refill(from:readSize:maxRead:maxRecordBytes:)``
    /// does (0 at the end of the file, -1 when the map fails).
    private mutating func refillMapped() -> Int {
        guard var input = mapped else { return 0 }
        let viewStart = input.fileDelta + base
        let oldEnd = viewStart + end
        switch input.remap(keepFrom: viewStart + start, oldEnd: oldEnd) {
        case .failed:
            mapped = input
            return -1
        case .atEnd:
            mapped = input
            atEnd = true
            return 0
        case .mapped:
            let shift = input.windowOffset - viewStart
            base += shift
            start -= shift
            open = max(start, open - shift)
            end = input.windowLength
            mapped = input
            return input.windowOffset + input.windowLength - oldEnd
        }
    }

    /// Gives a mapped input's window back and leaves the file offset where the bytes
    /// looked at end, as read(2) would have (a redirected standard input is shared with
    /// whoever reads it next).
    mutating func endMapping() {
        guard var input = mapped else { return }
        if input.window != nil { setOffset(input.fd, input.windowOffset + end) }
        input.unmap()
        mapped = nil
    }

    /// Starts with `prefix` (bytes of the input already read) in the buffer.
    mutating func load(_ prefix: UnsafeBufferPointer<UInt8>, readSize: Int) {
        guard let prefixStart = prefix.baseAddress, prefix.count > 0 else { return }
        if prefix.count + readSize > buffer.capacity { buffer.grow(to: prefix.count + 2 * readSize, keeping: 0) }
        // SAFETY: prefix.count < capacity (made so above); distinct allocations.
        buffer.base.update(from: prefixStart, count: prefix.count)
        end = prefix.count
    }

    /// Keeps the unfinished bytes (moved to the front), makes room, and reads at most
    /// `maxRead` bytes: returns read(2)'s count (0 at the end of the input, which sets
    /// `atEnd`; -1 on failure, with the error in `lastErrno`).
    mutating func refill(from fd: Int32, readSize: Int, maxRead: Int, maxRecordBytes: Int) -> Int {
        if mapped != nil { return refillMapped() }
        if start > 0 {
            // SAFETY: 0 <= start <= end <= capacity; moveBytes allows the overlap.
            if end > start { moveBytes(buffer.base, from: buffer.base + start, count: end - start) }
            base += start
            end -= start
            open = max(0, open - start)
            start = 0
        }
        if buffer.capacity - end < readSize / 2 {
            // Double, but never much past what the longest record may need.
            buffer.grow(to: max(end + readSize, min(buffer.capacity * 2, maxRecordBytes + 2 * readSize)), keeping: end)
        }
        // SAFETY: end < capacity (room was made above), and at most capacity - end bytes are read.
        let n = readSome(fd, buffer.base + end, min(buffer.capacity - end, maxRead))
        if n == 0 { atEnd = true } else if n > 0 { end += n }
        return n
    }
}
