// The prefilter interface of the search loops, and the one rule that switches a
// prefilter off when it does not pay.
//
// A prefilter answers one question for a loop that is back in its start state with no
// match under way: "where may the next match start?" (aho-corasick's
// util/prefilter.rs; regex-automata's dfa/search.rs asks it the same way). The loops
// are generic over the prefilter's type, so each kernel is specialized into its own
// copy of the loop and `NoPrefilter` compiles to the plain loop.
//
// A prefilter that reports a candidate every few bytes costs more than it saves: each
// call has a fixed cost and the automaton runs from every candidate anyway. So a
// search counts the calls and the bytes they skipped, and once it has seen 40 calls
// whose average skip is under twice the longest literal (at least 2 bytes), it stops
// calling the prefilter for the rest of that search; results never change.

/// Where the next match may start: the skip-ahead a search loop calls from its start
/// state.
///
/// ```swift
/// struct NextX: SearchPrefilter {
///     var longestLiteral: Int { 1 }
///     func find(_ h: UnsafeBufferPointer<UInt8>, from: Int, end: Int) -> Int {
///         var i = from
///         while i < end && h[i] != UInt8(ascii: "x") { i += 1 }
///         return i
///     }
/// }
/// ```
///
/// - Complexity: a conforming type's `find` should be O(bytes skipped).
public protocol SearchPrefilter {
    /// The first position in `from..<end` where a match may start, or `end` when none
    /// can. Never before `from`.
    func find(_ haystack: UnsafeBufferPointer<UInt8>, from: Int, end: Int) -> Int

    /// The longest literal the prefilter looks for: the yardstick of
    /// ``PrefilterEffectiveness``.
    var longestLiteral: Int { get }
}

/// The absent prefilter: a loop specialized for it is the plain automaton loop.
public struct NoPrefilter: SearchPrefilter {
    @inlinable public init() {}
    @inlinable public func find(_ haystack: UnsafeBufferPointer<UInt8>, from: Int, end: Int) -> Int { from }
    @inlinable public var longestLiteral: Int { 0 }
}

/// Per-search bookkeeping that switches an ineffective prefilter off: the one rule
/// every loop with a prefilter follows (see the file comment).
///
/// Kept across the scans of one search (a `matches(in:)` call resumes the loop once
/// per match), so a haystack that defeats the prefilter pays for it only 40 times.
public struct PrefilterEffectiveness: Sendable {
    @usableFromInline var calls = 0
    @usableFromInline var skipped = 0
    @usableFromInline var off = false

    /// `true` once the prefilter stopped paying off; never cleared within a search.
    @inlinable public var isOff: Bool { off }

    /// Calls observed before judging; fewer say little about the haystack.
    public static let minimumCalls = 40

    @inlinable public init() {}

    /// Records one call that moved from `from` to `to`; switches the prefilter off
    /// once ``minimumCalls`` calls skipped less than `max(2, 2 × longest)` bytes on
    /// average.
    @inlinable @inline(__always)
    public mutating func record(from: Int, to: Int, longest: Int) {
        record(from: from, to: to, minimumAverageSkip: Self.minimumAverageSkip(longest: longest))
    }

    /// The average skip below which the prefilter does not pay: `max(2, 2 × longest)`.
    @inlinable @inline(__always)
    public static func minimumAverageSkip(longest: Int) -> Int { max(2, 2 &* longest) }

    /// ``record(from:to:longest:)`` with the threshold computed once per search loop.
    @inlinable @inline(__always)
    public mutating func record(from: Int, to: Int, minimumAverageSkip: Int) {
        calls &+= 1
        skipped &+= to &- from
        if calls >= Self.minimumCalls && skipped < minimumAverageSkip &* calls { off = true }
    }
}
