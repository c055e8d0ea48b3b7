// AhoCorasick in the package's one search vocabulary (MatchSearcher): the lazy
// `matches(in:)`, `count(in:)` and every haystack type come from the protocol's
// extensions; this file adds the resumable primitive and one-step construction.

import AutomatonCore

extension AhoCorasick: MatchSearcher {
    /// Where a search stopped (see ``MatchSearcher``).
    public typealias MatchCursor = LiteralMatchCursor

    public func makeMatchCursor() -> LiteralMatchCursor { LiteralMatchCursor() }

    public func forEachMatch(in haystack: UnsafeBufferPointer<UInt8>, after cursor: inout LiteralMatchCursor,
                             _ body: (Match) -> Bool) {
        engine.forEachMatch(haystack, after: &cursor, body)
    }

    /// Builds the automaton for the UTF-8 of `patterns` in one step (pattern id =
    /// index); ``Builder`` offers every other option.
    ///
    /// ```swift
    /// let ac = try AhoCorasick(["free", "prize"], asciiCaseInsensitive: true)
    /// ac.matches(in: "FREE PRIZE").map(\.pattern)   // [0, 1]
    /// ```
    /// - Parameters: the options of ``Builder`` with the same names as ``KMP``'s.
    /// - Throws: ``AutomatonError`` when the automaton exceeds `limits`.
    /// - Complexity: see ``Builder/build(_:)-([String])``.
    public init(_ patterns: [String], matchKind: MatchKind = .leftmostFirst, asciiCaseInsensitive: Bool = false,
                wholeWord: Bool = false, limits: Limits = Limits()) throws(AutomatonError) {
        self = try Builder().matchKind(matchKind).asciiCaseInsensitive(asciiCaseInsensitive)
            .wholeWord(wholeWord).limits(limits).build(patterns)
    }

    /// Builds the automaton for byte-string `patterns` in one step (pattern id = index).
    public init(_ patterns: [[UInt8]], matchKind: MatchKind = .leftmostFirst, asciiCaseInsensitive: Bool = false,
                wholeWord: Bool = false, limits: Limits = Limits()) throws(AutomatonError) {
        self = try Builder().matchKind(matchKind).asciiCaseInsensitive(asciiCaseInsensitive)
            .wholeWord(wholeWord).limits(limits).build(patterns)
    }
}
