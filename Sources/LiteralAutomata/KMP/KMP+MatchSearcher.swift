// KMP in the package's one search vocabulary (MatchSearcher): the lazy
// `matches(in:)`, `forEachMatch`, `count(in:)` and every haystack type come from the
// protocol's extensions over these primitives.

import AutomatonCore

extension KMP: MatchSearcher {
    /// Where a search stopped (see ``MatchSearcher``).
    public typealias MatchCursor = LiteralMatchCursor

    public func makeMatchCursor() -> LiteralMatchCursor { LiteralMatchCursor() }

    /// `true` when the pattern occurs.
    /// - Complexity: O(n), stopping at the first occurrence.
    public func isMatch(in haystack: UnsafeBufferPointer<UInt8>) -> Bool { engine.isMatch(haystack) }

    /// The first match, or nil.
    /// - Complexity: O(n).
    public func firstMatch(in haystack: UnsafeBufferPointer<UInt8>) -> Match? { engine.firstMatch(haystack) }

    /// Calls `body` for each match in order; return `false` to stop early.
    ///
    /// ```swift
    /// var n = 0
    /// try KMP("ab").forEachMatch(in: "abab") { _ in n += 1; return true }   // n == 2
    /// ```
    /// - Complexity: O(n + matches), no allocation.
    public func forEachMatch(in haystack: UnsafeBufferPointer<UInt8>, _ body: (Match) -> Bool) {
        engine.forEachMatch(haystack, from: 0, body)
    }

    public func forEachMatch(in haystack: UnsafeBufferPointer<UInt8>, after cursor: inout LiteralMatchCursor,
                             _ body: (Match) -> Bool) {
        engine.forEachMatch(haystack, after: &cursor, body)
    }
}
