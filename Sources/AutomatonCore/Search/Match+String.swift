// A match over a String haystack in the string's own terms: matches are UTF-8 byte
// offsets (what every search loop produces), and these turn them into indices.

extension Match {
    /// The match as a range of `string`'s indices (the haystack it was found in).
    ///
    /// ```swift
    /// let text = "naïve free text"
    /// let m = try AhoCorasick(["free"]).firstMatch(in: text)!
    /// text[m.range(in: text)]   // "free"
    /// ```
    /// - Precondition: the match lies within the string's UTF-8.
    /// - Complexity: O(1) for native strings.
    public func range(in string: String) -> Range<String.Index> { indexRange(in: string.utf8) }

    /// The match as a range of `substring`'s indices (offsets from its start).
    public func range(in substring: Substring) -> Range<String.Index> { indexRange(in: substring.utf8) }

    /// The matched text of `string`. Offsets that fall inside a scalar (a bytes-mode
    /// regex can match part of one) are rounded down to a scalar boundary.
    ///
    /// ```swift
    /// ac.matches(in: text).map { $0.substring(in: text) }   // ["free", "prize"]
    /// ```
    public func substring(in string: String) -> Substring { string[range(in: string)] }

    /// The matched text of `substring` (offsets from its start).
    public func substring(in substring: Substring) -> Substring { substring[range(in: substring)] }

    private func indexRange<View: BidirectionalCollection<UInt8>>(in view: View) -> Range<String.Index>
    where View.Index == String.Index {
        precondition(start >= 0 && start <= end, "match offsets out of order")
        let lower = view.index(view.startIndex, offsetBy: start)
        let upper = view.index(lower, offsetBy: end - start)
        return lower..<upper
    }
}
