// The search vocabulary over every haystack type, written once for all searchers:
// each method reaches the searcher's UnsafeBufferPointer primitive through
// withHaystackBytes (in place when the bytes are contiguous, one copy otherwise).

extension MatchSearcher {
    // MARK: Any collection of bytes

    /// `true` when some match exists in `haystack`: `[UInt8]`, `ArraySlice<UInt8>`,
    /// `Data`, `UnsafeRawBufferPointer`, `String.UTF8View`, … Stops at the first match.
    ///
    /// ```swift
    /// try AhoCorasick(["spam"]).isMatch(in: bytes[10...])
    /// ```
    /// - Complexity: O(n), stopping at the first match.
    @inlinable
    public func isMatch<Haystack: Collection<UInt8>>(in haystack: Haystack) -> Bool {
        withHaystackBytes(haystack) { isMatch(in: $0) }
    }

    /// The first match in `haystack` (offsets from the collection's first byte), or nil.
    /// - Complexity: O(n).
    @inlinable
    public func firstMatch<Haystack: Collection<UInt8>>(in haystack: Haystack) -> Match? {
        withHaystackBytes(haystack) { firstMatch(in: $0) }
    }

    /// The matches in `haystack`, found lazily as they are iterated (no array unless
    /// you make one: `Array(searcher.matches(in: bytes))`).
    ///
    /// ```swift
    /// for m in ac.matches(in: data) { if m.pattern == 3 { break } }   // scans up to there
    /// ```
    /// - Complexity: O(1) to create; iterating costs what `forEachMatch(in:_:)` costs.
    @inlinable
    public func matches<Haystack: Collection<UInt8>>(in haystack: Haystack) -> LazyMatchSequence<Self, Haystack> {
        LazyMatchSequence(searcher: self, haystack: haystack)
    }

    /// Calls `body` with each match in `haystack`, in order; return `false` to stop early.
    ///
    /// ```swift
    /// ac.forEachMatch(in: bytes) { m in print(m); return m.pattern != 0 }
    /// ```
    /// - Complexity: O(n + matches), no allocation for contiguous haystacks.
    @inlinable
    public func forEachMatch<Haystack: Collection<UInt8>>(in haystack: Haystack, _ body: (Match) -> Bool) {
        withHaystackBytes(haystack) { forEachMatch(in: $0, body) }
    }

    /// The number of matches in `haystack` (nothing is stored).
    /// - Complexity: O(n + matches).
    @inlinable
    public func count<Haystack: Collection<UInt8>>(in haystack: Haystack) -> Int {
        var n = 0
        withHaystackBytes(haystack) { bytes in forEachMatch(in: bytes) { _ in n &+= 1; return true } }
        return n
    }

    // MARK: Strings (their UTF-8; offsets are UTF-8 offsets from the string's start)

    /// `true` when some match exists in the string's UTF-8.
    @inlinable
    public func isMatch(in haystack: String) -> Bool { isMatch(in: haystack.utf8) }
    /// `true` when some match exists in the substring's UTF-8.
    @inlinable
    public func isMatch(in haystack: Substring) -> Bool { isMatch(in: haystack.utf8) }

    /// The first match in the string's UTF-8; `Match.substring(in:)` gives its text.
    @inlinable
    public func firstMatch(in haystack: String) -> Match? { firstMatch(in: haystack.utf8) }
    /// The first match in the substring's UTF-8 (offsets from the substring's start).
    @inlinable
    public func firstMatch(in haystack: Substring) -> Match? { firstMatch(in: haystack.utf8) }

    /// The matches in the string's UTF-8, lazily.
    ///
    /// ```swift
    /// let text = "win a free prize"
    /// let words = ac.matches(in: text).map { $0.substring(in: text) }   // ["free", "prize"]
    /// ```
    @inlinable
    public func matches(in haystack: String) -> LazyMatchSequence<Self, String.UTF8View> { matches(in: haystack.utf8) }
    /// The matches in the substring's UTF-8 (offsets from the substring's start), lazily.
    @inlinable
    public func matches(in haystack: Substring) -> LazyMatchSequence<Self, Substring.UTF8View> {
        matches(in: haystack.utf8)
    }

    /// Calls `body` with each match in the string's UTF-8; return `false` to stop.
    @inlinable
    public func forEachMatch(in haystack: String, _ body: (Match) -> Bool) { forEachMatch(in: haystack.utf8, body) }
    /// Calls `body` with each match in the substring's UTF-8; return `false` to stop.
    @inlinable
    public func forEachMatch(in haystack: Substring, _ body: (Match) -> Bool) { forEachMatch(in: haystack.utf8, body) }

    /// The number of matches in the string's UTF-8.
    @inlinable
    public func count(in haystack: String) -> Int { count(in: haystack.utf8) }
    /// The number of matches in the substring's UTF-8.
    @inlinable
    public func count(in haystack: Substring) -> Int { count(in: haystack.utf8) }
}
