// The output of one chunk of a threaded run: written by a worker's sink, held until
// the chunks before it are written, written, and its storage reused for a later chunk.

/// The bytes a worker's sink wrote for one chunk, in storage of their own.
///
/// Why storage that changes hands rather than `[UInt8]`: a sink writes a record, its
/// terminator, a prefix — many small writes — through its writer's buffer at the cost
/// of a copy each. Appending each write to an array cost per-call bookkeeping and
/// dynamic exclusivity checks (7.6 % more instructions at `filter -j 2` than at
/// `-j 1`); staging them in a buffer and appending that cost a second copy of all the
/// output (5.7 % at `filter -F -i -w -j 2`, whose output is most of its input). A
/// collecting writer instead writes into a growing buffer exactly as it writes into
/// its output buffer, and the filled buffer itself becomes the chunk's output
/// (``init(adopting:capacity:count:)``); an empty one's storage goes back to a writer
/// (``relinquishStorage()``).
///
/// ```swift
/// let output = ChunkOutput()
/// bytes.withUnsafeBufferPointer { output.append($0) }
/// write(fd, output.bytes.baseAddress, output.count)
/// ```
///
/// - Complexity: O(1) to adopt or relinquish storage; ``append(_:)`` is amortized
///   O(n) for n bytes.
public final class ChunkOutput: @unchecked Sendable {
    // @unchecked: one thread at a time owns it — the worker that fills it, then the
    // thread that writes it out, then the pool.
    /// `base[0..<count]` are the bytes; `base[0..<capacity]` is allocated and owned.
    public private(set) var base: UnsafeMutablePointer<UInt8>
    public private(set) var capacity: Int
    /// Bytes written so far.
    public private(set) var count: Int

    /// Takes ownership of `base` (allocated with `UnsafeMutablePointer.allocate`, room
    /// for `capacity` bytes), whose first `count` bytes are written.
    public init(adopting base: UnsafeMutablePointer<UInt8>, capacity: Int, count: Int) {
        self.base = base
        self.capacity = capacity
        self.count = count
    }

    /// Empty storage for at least `capacity` bytes.
    public convenience init(capacity: Int = 1 << 16) {
        let capacity = max(16, capacity)
        self.init(adopting: .allocate(capacity: capacity), capacity: capacity, count: 0)
    }

    deinit { base.deallocate() }

    /// The bytes written so far; valid until the next change.
    public var bytes: UnsafeBufferPointer<UInt8> { UnsafeBufferPointer(start: base, count: count) }

    /// Hands the storage (emptied) to the caller, who now owns it; this object keeps a
    /// small empty allocation of its own.
    public func relinquishStorage() -> (base: UnsafeMutablePointer<UInt8>, capacity: Int) {
        defer {
            base = .allocate(capacity: 16)
            capacity = 16
            count = 0
        }
        return (base, capacity)
    }

    /// Appends `bytes` (for sinks that collect without a writer of their own).
    public func append(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let source = bytes.baseAddress, bytes.count > 0 else { return }
        if count + bytes.count > capacity {
            let newCapacity = max(count + bytes.count, 2 * capacity)
            let bigger = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
            // SAFETY: count <= capacity < newCapacity; distinct allocations.
            bigger.update(from: base, count: count)
            base.deallocate()
            base = bigger
            capacity = newCapacity
        }
        // SAFETY: count + bytes.count <= capacity (made so above).
        (base + count).update(from: source, count: bytes.count)
        count += bytes.count
    }

    /// Empties it, keeping the storage.
    public func removeAll() { count = 0 }
}
