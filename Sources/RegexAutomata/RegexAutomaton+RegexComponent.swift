// RegexAutomaton as a component of Swift's Regex: an anchored match at an index, so
// `text.ranges(of: regex)`, `firstMatch(of:)`, `replacing(_:with:)`, `split(separator:)`
// and Regex builders accept it. The anchored scan runs the forward DFA from the index
// until it dies, so a position where no match starts costs a few bytes.

import AutomatonCore

extension RegexAutomaton {
    /// The leftmost-first match that starts exactly at `offset`, or nil. Bytes before
    /// `offset` are context (`\b`, `^` in multi-line mode).
    ///
    /// ```swift
    /// try RegexAutomaton("b+").anchoredMatch(in: buffer, at: 1)   // 0:[1,3) in "abba"
    /// ```
    /// - Precondition: `0 <= offset <= haystack.count`.
    /// - Complexity: O(bytes the anchored scan reads), at most O(n − offset).
    public func anchoredMatch(in haystack: UnsafeBufferPointer<UInt8>, at offset: Int) -> Match? {
        precondition(offset >= 0 && offset <= haystack.count, "offset outside the haystack")
        var steps = 0
        switch engine {
        case .dense(let forward, _):
            guard let e = forward.searchForward(haystack, in: offset..<haystack.count, anchored: true, earliest: false)
            else { return nil }
            return Match(pattern: e.pattern, start: offset, end: e.end)
        case .lazy(let forward, _):
            switch forward.searchForward(forward.makeCache(), haystack, from: offset, anchored: true,
                                         earliest: false, steps: &steps) {
            case .found(let e):
                guard let e else { return nil }
                return Match(pattern: e.pattern, start: offset, end: e.end)
            case .gaveUp:
                return PikeVM(nfa: forwardNFA).search(haystack, from: offset, anchored: true)
            }
        }
    }
}

extension RegexAutomaton: CustomConsumingRegexComponent {
    /// What a Regex match of the automaton captures: the matched text.
    public typealias RegexOutput = Substring

    /// The anchored match at `index` within `bounds` (the bounds are the haystack), for
    /// Swift's `Regex` algorithms.
    ///
    /// ```swift
    /// let url = try RegexAutomaton("https?://[a-z.]+")
    /// "see http://a.b".firstMatch(of: url)?.output   // "http://a.b"
    /// ```
    /// - Complexity: O(bytes the anchored scan reads) per call.
    public func consuming(_ input: String, startingAt index: String.Index,
                          in bounds: Range<String.Index>) throws -> (upperBound: String.Index, output: Substring)? {
        consumeAnchored(input, startingAt: index, in: bounds) { anchoredMatch(in: $0, at: $1) }
    }
}
