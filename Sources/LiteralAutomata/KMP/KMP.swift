// Knuth–Morris–Pratt: one pattern, compiled into the core's dense DFA.
//
// Source: D. E. Knuth, J. H. Morris, V. R. Pratt, "Fast pattern matching in strings",
// SIAM J. Comput. 6(2), 1977. The failure function π(j) — the length of the longest
// proper border of p[0..<j] — is turned into the full automaton the paper describes
// (state j = "the last j bytes read equal p[0..<j]"): δ(j, c) = j + 1 when p[j] = c,
// else δ(π(j), c), else 0. Rows are over the pattern's byte classes (one class per
// distinct byte, ASCII letters folded together when case-insensitive, one for the
// rest), so the table is (m + 2) × classes entries.
//
// For the overlapping kind the match state m continues with δ(π(m), c), so every
// occurrence is found; for the leftmost kinds the match state's row is dead, so a
// forward scan stops at the first occurrence, and the search restarts at its end.
// Known limits: the empty pattern and whole-word matching use the overlapping
// automaton plus the shared selection pass (see LiteralEngine).

import AutomatonCore

/// A single-pattern searcher built with the Knuth–Morris–Pratt failure function,
/// sharing the search vocabulary (and the search loops) of ``AhoCorasick``.
///
/// ```swift
/// let kmp = try KMP("abab")
/// kmp.matches(in: "abababab").map(\.range)                 // [0..<4, 4..<8]
/// try KMP("abab", matchKind: .overlapping).matches(in: "ababab").count   // 2
/// ```
///
/// - Complexity: build O(m × byte classes) (m = pattern length); search O(n), one
///   table load per byte.
public struct KMP: Sendable {
    let engine: LiteralEngine
    /// The pattern.
    public let pattern: [UInt8]

    /// Builds the automaton for `pattern`.
    ///
    /// - Parameters:
    ///   - matchKind: ``MatchKind/overlapping`` finds every occurrence; the leftmost
    ///     kinds (identical for one pattern) find the leftmost-first non-overlapping sequence.
    ///   - asciiCaseInsensitive: fold ASCII letters.
    ///   - wholeWord: require `\b` on both sides, as PCRE2's `\bpattern\b`.
    ///   - prefilter: skip to the pattern's first byte with `memchr`.
    /// - Throws: ``AutomatonError`` when the table would exceed `limits`.
    public init(_ pattern: [UInt8], matchKind: MatchKind = .leftmostFirst, asciiCaseInsensitive: Bool = false,
                wholeWord: Bool = false, prefilter: Bool = true, limits: Limits = Limits()) throws(AutomatonError) {
        self.pattern = pattern
        let shape = LiteralEngine.shape(for: matchKind, wholeWord: wholeWord, hasEmpty: pattern.isEmpty)
        let dfa = try Self.dfa(pattern, asciiCaseInsensitive: asciiCaseInsensitive,
                               overlapping: shape == .overlapping, limits: limits)
        engine = LiteralEngine(matchKind: matchKind, asciiCaseInsensitive: asciiCaseInsensitive,
                               wholeWord: wholeWord, lengths: [pattern.count], shape: shape,
                               storage: .dense(dfa), prefilterEnabled: prefilter)
    }

    /// Builds the automaton for the UTF-8 of `pattern`.
    public init(_ pattern: String, matchKind: MatchKind = .leftmostFirst, asciiCaseInsensitive: Bool = false,
                wholeWord: Bool = false, prefilter: Bool = true, limits: Limits = Limits()) throws(AutomatonError) {
        try self.init(Array(pattern.utf8), matchKind: matchKind, asciiCaseInsensitive: asciiCaseInsensitive,
                      wholeWord: wholeWord, prefilter: prefilter, limits: limits)
    }

    init(pattern: [UInt8], engine: LiteralEngine) {
        self.pattern = pattern
        self.engine = engine
    }

    /// The failure function: `π[j]` is the length of the longest proper border of
    /// `p[0..<j]`, for j in 0...m (π[0] = π[1] = 0).
    ///
    /// ```swift
    /// KMP.failureFunction(Array("abab".utf8))  // [0, 0, 0, 1, 2]
    /// ```
    /// - Complexity: O(m).
    public static func failureFunction(_ p: [UInt8]) -> [Int] {
        var pi = [Int](repeating: 0, count: p.count + 1)
        var k = 0
        if p.count >= 2 {
            for j in 1..<p.count {
                while k > 0 && p[k] != p[j] { k = pi[k] }
                if p[k] == p[j] { k += 1 }
                pi[j + 1] = k
            }
        }
        return pi
    }

    /// The KMP automaton as a dense DFA: states 1...m+1 stand for "j bytes of the
    /// pattern seen" (j = 0...m); state j = m reports pattern 0.
    static func dfa(_ pattern: [UInt8], asciiCaseInsensitive: Bool, overlapping: Bool,
                    limits: Limits) throws(AutomatonError) -> DenseDFA {
        let classes = LiteralByteClasses.make([pattern], asciiCaseInsensitive: asciiCaseInsensitive)
        let p = pattern.map { classes[$0] }   // the pattern over classes
        let pi = failureFunction(p)
        let m = p.count
        let width = classes.count
        var b = DenseDFABuilder(byteClasses: classes, patternCount: 1)
        if m + 2 > limits.maxStates { throw AutomatonError(.tooManyStates(limit: limits.maxStates)) }
        for j in 0...m { b.addState(patterns: j == m ? [0] : []) }   // state j has index j + 1
        try b.checkSize(against: limits)
        // δ rows in order of j, so δ(π(j), ·) (π(j) < j) is already filled.
        var row = [[Int]](repeating: [], count: m + 1)
        for j in 0...m {
            var r = [Int](repeating: 0, count: width)
            if j == m && !overlapping {
                r = [Int](repeating: -1, count: width)   // dead
            } else {
                for c in 0..<width {
                    if j < m && Int(p[j]) == c { r[c] = j + 1 }
                    else if j == 0 { r[c] = 0 }
                    else { r[c] = row[pi[j]][c] }
                }
            }
            row[j] = r
            for c in 0..<width { b.setTransition(from: j + 1, class: c, to: r[c] + 1) }
        }
        b.setStart(1)
        return try b.build(matchTiming: .immediate, limits: limits)
    }

    /// The match kind.
    public var matchKind: MatchKind { engine.matchKind }
    /// Representation, state count, byte classes and memory (always the dense DFA).
    public var statistics: LiteralStatistics { engine.statistics }
    /// The dense DFA (low-level access; see ``AhoCorasick/denseDFA``).
    public var denseDFA: DenseDFA {
        guard case .dense(let dfa) = engine.storage else { preconditionFailure("KMP is always dense") }
        return dfa
    }

    /// `true` when the pattern occurs.
    /// - Complexity: O(n).
    public func isMatch(in haystack: [UInt8]) -> Bool { haystack.withUnsafeBufferPointer { engine.isMatch($0) } }
    /// `true` when the pattern occurs in the string's UTF-8.
    public func isMatch(in haystack: String) -> Bool { withUTF8(haystack) { engine.isMatch($0) } }
    /// The first match.
    /// - Complexity: O(n).
    public func firstMatch(in haystack: [UInt8]) -> Match? { haystack.withUnsafeBufferPointer { engine.firstMatch($0) } }
    /// The first match in the string's UTF-8.
    public func firstMatch(in haystack: String) -> Match? { withUTF8(haystack) { engine.firstMatch($0) } }
    /// Every match under the match kind (all occurrences for ``MatchKind/overlapping``).
    /// - Complexity: O(n + matches).
    @_disfavoredOverload
    public func matches(in haystack: [UInt8]) -> [Match] { haystack.withUnsafeBufferPointer { engine.allMatches($0) } }
    /// Every match in the string's UTF-8.
    @_disfavoredOverload
    public func matches(in haystack: String) -> [Match] { withUTF8(haystack) { engine.allMatches($0) } }
    /// Every occurrence (requires ``MatchKind/overlapping``).
    public func overlappingMatches(in haystack: [UInt8]) -> [Match] {
        precondition(matchKind == .overlapping, "overlappingMatches needs a KMP built with .overlapping")
        return matches(in: haystack)
    }
    /// A stream searcher over chunks; see ``LiteralStreamSearcher``.
    public func streamSearcher() -> LiteralStreamSearcher { LiteralStreamSearcher(engine: engine) }
}
