// The one bridge from Swift's `CustomConsumingRegexComponent` to an automaton's
// anchored byte search, shared by AhoCorasick and RegexAutomaton.

/// Turns an anchored byte match at `index` within `bounds` of `input` into what
/// `CustomConsumingRegexComponent.consuming(_:startingAt:in:)` returns.
///
/// - Parameter anchoredMatch: the match that starts exactly at byte `offset` of
///   `haystack` (the bounds' UTF-8 bytes), or nil.
/// - Complexity: O(bytes before `bounds`) to find the offsets, plus the search.
package func consumeAnchored(
    _ input: String, startingAt index: String.Index, in bounds: Range<String.Index>,
    anchoredMatch: (_ haystack: UnsafeBufferPointer<UInt8>, _ offset: Int) -> Match?
) -> (upperBound: String.Index, output: Substring)? {
    let utf8 = input.utf8
    let lower = utf8.distance(from: utf8.startIndex, to: bounds.lowerBound)
    let offset = utf8.distance(from: bounds.lowerBound, to: index)
    let count = utf8.distance(from: bounds.lowerBound, to: bounds.upperBound)
    let match: Match? = withUTF8(input) { whole in
        anchoredMatch(UnsafeBufferPointer(rebasing: whole[lower..<(lower + count)]), offset)
    }
    guard let match else { return nil }
    let upper = utf8.index(index, offsetBy: match.end - match.start)
    return (upper, input[index..<upper])
}
