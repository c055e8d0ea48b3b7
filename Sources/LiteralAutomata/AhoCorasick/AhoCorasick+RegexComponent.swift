// AhoCorasick as a component of Swift's Regex: an anchored match at an index, so
// `text.ranges(of: ac)`, `firstMatch(of:)`, `replacing(_:with:)`, `split(separator:)`
// and Regex builders accept the automaton. A match starting at an index is at most the
// longest pattern long, so each call searches a window of that length (plus one byte of
// context for whole words), never the rest of the text.

import AutomatonCore

extension AhoCorasick {
    /// The match that starts exactly at `offset`, or nil: under the leftmost kinds the
    /// one the automaton prefers there, under ``MatchKind/overlapping`` the one that
    /// ends first. Bytes before `offset` are context (whole-word boundaries).
    ///
    /// ```swift
    /// try AhoCorasick(["free", "freedom"]).anchoredMatch(in: buffer, at: 4)
    /// ```
    /// - Precondition: `0 <= offset <= haystack.count`.
    /// - Complexity: O(longest pattern).
    public func anchoredMatch(in haystack: UnsafeBufferPointer<UInt8>, at offset: Int) -> Match? {
        precondition(offset >= 0 && offset <= haystack.count, "offset outside the haystack")
        // The window: every match starting at `offset`, and the byte after it.
        let end = min(haystack.count, offset &+ maxPatternLength &+ 1)
        let window = UnsafeBufferPointer(rebasing: haystack[0..<end])
        var found: Match? = nil
        engine.forEachMatch(window, from: offset) { m in
            if m.start == offset, m.end < end || end == haystack.count {
                found = m
                return false
            }
            // Leftmost kinds: a match starting later means none starts at `offset`.
            return matchKind == .overlapping && m.end <= offset &+ maxPatternLength
        }
        return found
    }
}

extension AhoCorasick: CustomConsumingRegexComponent {
    /// What a Regex match of the automaton captures: the matched text.
    public typealias RegexOutput = Substring

    /// The anchored match at `index` within `bounds` (the bounds are the haystack:
    /// whole-word boundaries look no further), for Swift's `Regex` algorithms. A
    /// whole-word automaton matches as Swift's `\b(?:w1|w2|…)\b` does with
    /// `.asciiOnlyWordCharacters().wordBoundaryKind(.simple)` (not Swift's default
    /// Unicode word boundaries).
    ///
    /// ```swift
    /// let ac = try AhoCorasick(["free", "prize"])
    /// "a free prize".ranges(of: ac).count            // 2
    /// "a free prize".replacing(ac, with: "***")       // "a *** ***"
    /// ```
    /// - Complexity: O(longest pattern) per call.
    public func consuming(_ input: String, startingAt index: String.Index,
                          in bounds: Range<String.Index>) throws -> (upperBound: String.Index, output: Substring)? {
        consumeAnchored(input, startingAt: index, in: bounds) { anchoredMatch(in: $0, at: $1) }
    }
}
