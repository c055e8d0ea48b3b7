// LazyCachePool: forward lazy-DFA caches kept between searches of one automaton, so a
// search that starts again on every block of input (grep's line loop over 1 MiB
// blocks) finds the states it built before instead of determinizing its working set
// anew each time (regex-automata's meta strategy keeps its caches in a pool for the
// same reason). A cache is used by one search at a time: it is taken out of the pool
// for the search and given back when the search's cursor is recycled.

import AutomatonCore

/// Forward lazy-DFA caches waiting to be reused, behind a lock.
final class LazyCachePool: Sendable {
    /// At most this many caches wait (one per thread that searched at once, up to 8);
    /// each is bounded by the automaton's `maxCacheBytes`.
    static let capacity = 8

    // SAFETY: a cache in `idle` belongs to no search; `take` hands it to exactly one.
    private let idle = LockedValue<[UncheckedCache]>([])

    /// A cache no search is using, or nil.
    func take() -> LazyDFA.Cache? { idle.withLock { $0.popLast()?.cache } }

    /// Gives `cache` back for another search (dropped when the pool is full).
    func give(_ cache: LazyDFA.Cache) {
        idle.withLock { if $0.count < Self.capacity { $0.append(UncheckedCache(cache: cache)) } }
    }

    /// A cache moved between threads only through the pool's lock.
    private struct UncheckedCache: @unchecked Sendable { let cache: LazyDFA.Cache }
}
