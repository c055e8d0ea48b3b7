import AutomatonCore

/// Byte arrays handed back and forth between the reader, the workers and the writer of
/// `--threads`, reused instead of allocated per chunk.
///
/// Why: a fresh 1 MiB array per chunk (input bytes, and again for the chunk's output)
/// comes back from `malloc` as untouched pages, so every 4 KiB of input cost a page
/// fault — 56,772 faults for 256 MiB at `-j 2` against 1,519 at `-j 1`, and about a
/// fifth more CPU time. With the arrays recycled, the pages stay mapped.
///
/// ```swift
/// let pool = BufferPool()
/// var bytes = pool.take(capacity: 1 << 20)   // empty, storage reused when possible
/// bytes.append(contentsOf: data)
/// pool.give(bytes)               // emptied, kept for the next take(capacity:)
/// ```
///
/// - Complexity: O(1) per take and give. Holds at most `limit` arrays; the number in
///   use at once is bounded by the scan's window, so the pool stays that small too.
final class BufferPool: Sendable {
    private let free = LockedValue<[[UInt8]]>([])
    private let limit: Int

    init(limit: Int = 64) { self.limit = limit }

    /// An empty array with room for at least `capacity` bytes, reusing the storage of
    /// one given back when there is one. Asking for the most a user will need keeps the
    /// arrays from growing (and faulting in new pages) while they are filled.
    func take(capacity: Int) -> [UInt8] {
        var bytes = free.withLock { $0.popLast() } ?? []
        // Emptied here, not in give(_:): by now the giver's references are gone, so the
        // storage is unique and is kept (emptying a shared array allocates a new one).
        bytes.removeAll(keepingCapacity: true)
        bytes.reserveCapacity(capacity)
        return bytes
    }

    /// Keeps `bytes`' storage for a later ``take(capacity:)``; its contents are dropped.
    func give(_ bytes: consuming [UInt8]) {
        guard bytes.capacity > 0 else { return }
        let kept = bytes
        free.withLock { list in
            if list.count < limit { list.append(kept) }
        }
    }
}

/// One chunk's input bytes: `read(2)` fills it directly, a worker searches
/// `bytes`, and it goes back to a ``ChunkBufferPool`` — no copy between the read and
/// the search (with arrays the reader read into a staging buffer and copied each chunk
/// out, about 3 % of the CPU time of `filter -j 2` with 1,000 words).
final class ChunkBuffer: @unchecked Sendable {
    // @unchecked: one thread at a time owns a buffer — the reader until it is pushed
    // as a chunk, then one worker until it gives it back to the pool.
    private(set) var base: UnsafeMutablePointer<UInt8>
    private(set) var capacity: Int
    /// The bytes of the chunk: `base[0..<count]`.
    var count = 0

    init(capacity: Int) {
        self.capacity = capacity
        base = .allocate(capacity: capacity)
    }

    deinit { base.deallocate() }

    var bytes: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: base, count: count) }

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
}

/// Chunk buffers handed back by the workers for the reader to fill again.
final class ChunkBufferPool: Sendable {
    private let free = LockedValue<[ChunkBuffer]>([])

    /// A buffer of at least `capacity` bytes (contents undefined).
    func take(capacity: Int) -> ChunkBuffer {
        if let buffer = free.withLock({ $0.popLast() }) {
            buffer.grow(to: capacity, keeping: 0)
            return buffer
        }
        return ChunkBuffer(capacity: capacity)
    }

    func give(_ buffer: ChunkBuffer) {
        buffer.count = 0
        free.withLock { $0.append(buffer) }
    }
}
