// The lazy `matches(in:)`: an iterator that asks its searcher for a few matches at a
// time through the resumable forEachMatch(after:), so no array of all matches is
// ever built and a loop that breaks early stops the scan where it is.

/// The matches of a searcher in a haystack, found as they are iterated.
///
/// Returned by `matches(in:)` on every ``MatchSearcher``. It holds the haystack (a
/// copy-on-write reference for arrays and strings) and searches only as far as the
/// iteration goes: `for m in ac.matches(in: text) { … break }` scans up to that match.
/// Iterating twice searches twice. Collect with `Array(…)` when you want an array.
///
/// ```swift
/// let ac = try AhoCorasick(["free", "prize"])
/// for m in ac.matches(in: "a free prize") { print(m) }   // 0:[2,6) then 1:[7,12)
/// let all = Array(ac.matches(in: bytes))                 // an array, when asked for
/// ```
///
/// The iterator fetches matches in batches (1, 2, 4, … up to 512), so a loop that
/// stops after the first match scans no further than it, while a long iteration pays
/// for resuming the search only once per 512 matches.
///
/// - Complexity: iterating all matches costs what `forEachMatch(in:_:)` costs, plus
///   O(longest pattern) per batch for overlapping literal matches; memory is O(1)
///   beyond a 512-match buffer (and one copy of a non-contiguous haystack).
public struct LazyMatchSequence<Searcher: MatchSearcher, Haystack: Collection<UInt8>>: Sequence {
    /// The searcher.
    public let searcher: Searcher
    /// The haystack, as given.
    public let haystack: Haystack

    @inlinable
    public init(searcher: Searcher, haystack: Haystack) {
        self.searcher = searcher
        self.haystack = haystack
    }

    @inlinable
    public func makeIterator() -> Iterator { Iterator(searcher: searcher, haystack: haystack) }

    /// An iterator over the matches, in the searcher's order.
    ///
    /// `next()` is inlinable so a `for` loop in another module is specialized for the
    /// searcher and haystack: handing out a buffered match is an index check and a
    /// load; the searcher runs (through `refill`) once per batch.
    // PERF: Benchmarks/Benchmarks/EngineSearch 'Lazy vs callback'.
    public struct Iterator: IteratorProtocol {
        @usableFromInline let searcher: Searcher
        @usableFromInline let haystack: Haystack
        /// The bytes of a haystack without contiguous storage, copied on first use.
        @usableFromInline var copy: [UInt8]? = nil
        @usableFromInline var cursor: Searcher.MatchCursor
        /// The current batch: `storage.base[index..<count]` are still to hand out.
        /// (A raw buffer rather than an array: appending and reading back cost no
        /// uniqueness or capacity checks per match.)
        @usableFromInline let storage: MatchBatchStorage
        @usableFromInline var count = 0
        @usableFromInline var index = 0
        /// The next batch's size: doubles up to `MatchBatchStorage.capacity`.
        @usableFromInline var batch = 1
        /// `true` once a batch came back short: the search has no more matches.
        @usableFromInline var exhausted = false

        @inlinable
        init(searcher: Searcher, haystack: Haystack) {
            self.searcher = searcher
            self.haystack = haystack
            self.cursor = searcher.makeMatchCursor()
            self.storage = MatchBatchStorage()
        }

        @inlinable
        public mutating func next() -> Match? {
            if index < count {
                // SAFETY: index < count <= capacity, and storage keeps the memory alive.
                let m = storage.base[index]
                index &+= 1
                return m
            }
            if exhausted { return nil }
            refill()
            guard count > 0 else { return nil }
            index = 1
            return storage.base[0]
        }

        /// Fetches the next batch of matches (once per batch, so it need not be specialized).
        @usableFromInline
        mutating func refill() {
            var cursor = self.cursor
            let limit = batch
            let searcher = self.searcher
            let base = storage.base
            var k = 0
            if copy == nil {
                let searched: Void? = haystack.withContiguousStorageIfAvailable { bytes in
                    searcher.forEachMatch(in: bytes, after: &cursor) { m in
                        // SAFETY: k < limit <= capacity (the search stops at limit).
                        base[k] = m
                        k &+= 1
                        return k < limit
                    }
                }
                if searched == nil { copy = Array(haystack) }
            }
            if let copy {
                copy.withUnsafeBufferPointer { bytes in
                    searcher.forEachMatch(in: bytes, after: &cursor) { m in
                        base[k] = m
                        k &+= 1
                        return k < limit
                    }
                }
            }
            self.cursor = cursor
            exhausted = k < limit
            count = k
            index = 0
            if batch < MatchBatchStorage.capacity { batch &*= 2 }
        }
    }
}

/// The memory of one batch of matches, owned by a lazy iterator (a copy of an iterator
/// shares it; as with any iterator, advance only one of the copies).
@usableFromInline
final class MatchBatchStorage {
    /// The most matches fetched per batch.
    @usableFromInline static var capacity: Int { 512 }
    /// `capacity` matches, uninitialized until written (Match is trivial).
    @usableFromInline let base: UnsafeMutablePointer<Match>

    @usableFromInline
    init() { base = .allocate(capacity: Self.capacity) }

    deinit { base.deallocate() }
}

extension LazyMatchSequence: Sendable where Searcher: Sendable, Haystack: Sendable {}

extension LazyMatchSequence {
    /// The first match, or nil: searches only up to it.
    public var first: Match? {
        var it = makeIterator()
        return it.next()
    }

    /// `true` when there is no match: searches only up to the first one.
    public var isEmpty: Bool { first == nil }

    /// The number of matches (a full search, nothing stored).
    public var count: Int {
        var n = 0
        withHaystackBytes(haystack) { bytes in searcher.forEachMatch(in: bytes) { _ in n &+= 1; return true } }
        return n
    }
}
