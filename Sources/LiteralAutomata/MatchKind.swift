import AutomatonCore

/// Which matches a literal automaton reports, named as users of the Rust
/// `aho-corasick` crate know them.
///
/// ```swift
/// let ac = try AhoCorasick.Builder().matchKind(.leftmostLongest).build(["Sam", "Samwise"])
/// ac.matches(in: "Samwise").map(\.range)   // [0..<7]
/// ```
public enum MatchKind: UInt8, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Every (pattern, end) occurrence, including patterns inside other patterns
    /// (the crate's `Standard` kind with overlapping search). Reported by end, then
    /// by pattern id.
    case overlapping = 0
    /// Non-overlapping; the earliest start wins and, at one start, the pattern given
    /// first. Exactly what PCRE2 reports for `(?:w1|w2|…)` with every word escaped.
    case leftmostFirst = 1
    /// Non-overlapping; the earliest start wins and, at one start, the longest
    /// pattern (then the one given first).
    case leftmostLongest = 2

    /// The crate's name for ``overlapping``.
    public static var standard: MatchKind { .overlapping }

    /// `true` for the two non-overlapping kinds.
    public var isLeftmost: Bool { self != .overlapping }

    public var description: String {
        switch self {
        case .overlapping: return "overlapping"
        case .leftmostFirst: return "leftmost-first"
        case .leftmostLongest: return "leftmost-longest"
        }
    }
}

/// How a literal automaton is stored.
public enum LiteralRepresentation: UInt8, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// The core's ``DenseDFA``: every transition resolved, one table load per byte.
    case dense = 0
    /// A compact Aho–Corasick NFA: sparse trie transitions, failure links and a
    /// dense root row. Still linear time (failure links are followed at most as many
    /// times as bytes were consumed), several times smaller than the dense table.
    case compact = 1

    public var description: String { self == .dense ? "dense DFA" : "compact NFA" }
}

/// Size and shape of a built literal automaton, for callers and `turnstile compile --stats`.
///
/// ```swift
/// let stats = try AhoCorasick.Builder().build(["he", "she"]).statistics
/// print(stats.representation, stats.stateCount, stats.memoryBytes)
/// ```
public struct LiteralStatistics: Sendable, Hashable, CustomStringConvertible {
    /// Which representation the builder chose (or was told to use).
    public var representation: LiteralRepresentation
    /// Number of states, including the dead state.
    public var stateCount: Int
    /// Number of byte classes (the alphabet without end-of-input).
    public var byteClassCount: Int
    /// Bytes held by the automaton's tables.
    public var memoryBytes: Int
    /// Number of patterns (ids 0..<patternCount), duplicates and empty ones included.
    public var patternCount: Int
    /// The match kind.
    public var matchKind: MatchKind
    /// `true` when a start-byte prefilter is active.
    public var hasPrefilter: Bool

    public var description: String {
        "\(representation), \(stateCount) states, \(byteClassCount) byte classes, \(memoryBytes) bytes, "
            + "\(patternCount) patterns, \(matchKind)\(hasPrefilter ? ", prefilter" : "")"
    }
}
