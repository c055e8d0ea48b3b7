// A prefilter that reports a candidate every few bytes costs more than it saves: each
// call has a fixed cost and the automaton runs from every candidate anyway. Like
// aho-corasick's `PrefilterState`, a search counts the prefilter's calls and the bytes
// they skipped, and once it has seen enough calls whose average skip is under twice the
// longest pattern, it stops calling it for the rest of that search (the plain
// automaton loop takes over; results never change).

/// Per-search bookkeeping that turns an ineffective prefilter off.
struct PrefilterState {
    /// Calls made so far.
    var calls = 0
    /// Bytes the calls skipped in total.
    var skipped = 0
    /// Set once the prefilter stopped paying off; never cleared within a search.
    var inert = false
    /// Smallest average skip per call that keeps the prefilter on.
    let minimumAverageSkip: Int

    /// Calls observed before judging; fewer say little about the haystack.
    static let minimumCalls = 40

    init(longestPattern: Int) {
        minimumAverageSkip = max(2, 2 &* longestPattern)
    }

    /// Records one call that moved from `from` to `to`.
    @inline(__always)
    mutating func record(from: Int, to: Int) {
        calls &+= 1
        skipped &+= to &- from
        if calls >= Self.minimumCalls && skipped < minimumAverageSkip &* calls { inert = true }
    }
}
