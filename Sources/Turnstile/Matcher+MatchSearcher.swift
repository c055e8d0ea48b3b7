// Matcher in the package's one search vocabulary (MatchSearcher): the lazy
// `matches(in:)`, `count(in:)` and every haystack type come from the protocol's
// extensions; each primitive is the strategy's (SearchStrategy+Search.swift).

import AutomatonCore

extension Matcher: MatchSearcher {
    /// Where a search stopped (see ``MatchSearcher``): an opaque value.
    public typealias MatchCursor = SearchStrategy.MatchCursor

    public func makeMatchCursor() -> MatchCursor { strategy.makeMatchCursor() }

    /// `true` when some pattern matches.
    /// - Complexity: O(n), stopping at the first match.
    @inline(__always)
    public func isMatch(in haystack: UnsafeBufferPointer<UInt8>) -> Bool { strategy.isMatch(in: haystack) }

    /// The first match, or nil.
    /// - Complexity: O(n).
    @inline(__always)
    public func firstMatch(in haystack: UnsafeBufferPointer<UInt8>) -> Match? { strategy.firstMatch(in: haystack) }

    /// Calls `body` for each match in order; return `false` to stop early.
    ///
    /// ```swift
    /// matcher.forEachMatch(in: "a free prize") { m in print(m); return true }
    /// ```
    /// - Complexity: O(n + matches); no allocation for literal patterns.
    @inline(__always)
    public func forEachMatch(in haystack: UnsafeBufferPointer<UInt8>, _ body: (Match) -> Bool) {
        strategy.forEachMatch(in: haystack, body)
    }

    @inline(__always)
    public func forEachMatch(in haystack: UnsafeBufferPointer<UInt8>, after cursor: inout MatchCursor,
                             _ body: (Match) -> Bool) {
        strategy.forEachMatch(in: haystack, after: &cursor, body)
    }
}
