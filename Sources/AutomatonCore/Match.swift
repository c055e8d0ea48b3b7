/// Identifies one pattern of a multi-pattern automaton: its 0-based position in the
/// list the automaton was built from. Lower ids have priority under leftmost-first.
public typealias PatternID = Int

/// One match: which pattern matched and where, as half-open byte offsets
/// `start..<end` into the haystack.
///
/// ```swift
/// let m = Match(pattern: 0, start: 4, end: 9)
/// m.range  // 4..<9
/// ```
public struct Match: Hashable, Sendable, CustomStringConvertible {
    /// The pattern that matched.
    public var pattern: PatternID
    /// Byte offset of the first byte of the match.
    public var start: Int
    /// Byte offset one past the last byte of the match (`start == end` for an empty match).
    public var end: Int

    @inlinable
    public init(pattern: PatternID, start: Int, end: Int) {
        self.pattern = pattern
        self.start = start
        self.end = end
    }

    /// The matched bytes as a range of offsets.
    @inlinable public var range: Range<Int> { start..<end }

    /// `true` for a match of zero bytes.
    @inlinable public var isEmpty: Bool { start == end }

    public var description: String { "\(pattern):[\(start),\(end))" }
}

/// A match end found by a forward scan, before its start is known.
public struct MatchEnd: Hashable, Sendable {
    /// The highest-priority pattern reported by the match state.
    public var pattern: PatternID
    /// Byte offset one past the last byte of the match.
    public var end: Int

    @inlinable
    public init(pattern: PatternID, end: Int) {
        self.pattern = pattern
        self.end = end
    }
}
