// RegexAutomaton in the package's one search vocabulary (MatchSearcher): PCRE2's
// global loop (GlobalLoop.run) as a resumable cursor, so `matches(in:)` is lazy and
// `forEachMatch` can stop early; plus one-step construction.

import AutomatonCore

extension RegexAutomaton: MatchSearcher {
    /// Where a search stopped (see ``MatchSearcher``): the global loop's position and
    /// retry flag, and the per-search lazy caches. An opaque value.
    public struct MatchCursor {
        var searcher: Searcher
        var position = 0
        /// The last match was empty at `position`: look for a non-empty match anchored there.
        var retry = false
        var done = false
    }

    public func makeMatchCursor() -> MatchCursor { MatchCursor(searcher: Searcher(self)) }

    /// Ends a search: the lazy DFA's forward cache goes back to this automaton, so the
    /// next search (the next block of lines) starts with the states built so far.
    /// The cursor stays usable; it builds or takes a cache again if searched with.
    public func recycle(_ cursor: inout MatchCursor) { cursor.searcher.recycle() }

    /// The end of the earliest-ending match of a search that begins at `offset`, or
    /// nil: enough to know whether a line holds a match, without the reverse scan that
    /// finds where it starts. Uses (and keeps) `cursor`'s caches; its position is
    /// left alone.
    ///
    /// - Complexity: O(bytes scanned until the first match state).
    public func earliestMatchEnd(in haystack: UnsafeBufferPointer<UInt8>, from offset: Int,
                                 cursor: inout MatchCursor) -> Int? {
        cursor.searcher.earliestEnd(haystack, from: offset)
    }

    /// grep's line question: calls `body` with the end of the earliest match in each line
    /// of `haystack` that holds one (lines end with `delimiter`, which no match can
    /// hold), in order; `body` returns false to stop. Uses `cursor`'s caches.
    ///
    /// - Complexity: O(bytes scanned): each line is scanned up to its first match.
    public func forEachLineWithMatch(in haystack: UnsafeBufferPointer<UInt8>, delimiter: UInt8,
                                     cursor: inout MatchCursor, _ body: (Int) -> Bool) {
        cursor.searcher.forEachLineEarliestEnd(haystack, delimiter: delimiter, body)
    }

    /// A cursor for a search that begins at `offset` (the bytes before it only decide
    /// look-behind, as in PCRE2's start offset): grep's `-w` starts over one character
    /// after a rejected match.
    public func makeMatchCursor(from offset: Int) -> MatchCursor {
        MatchCursor(searcher: Searcher(self), position: offset)
    }

    /// Calls `body` for each match by PCRE2's global loop, in order; return `false`
    /// to stop early.
    ///
    /// ```swift
    /// try RegexAutomaton("b+").forEachMatch(in: "abba") { m in print(m); return true }   // 0:[1,3)
    /// ```
    /// - Complexity: see ``RegexAutomaton``.
    public func forEachMatch(in haystack: UnsafeBufferPointer<UInt8>, _ body: (Match) -> Bool) {
        var cursor = makeMatchCursor()
        forEachMatch(in: haystack, after: &cursor, body)
    }

    /// PCRE2's global loop (`GlobalLoop.run`), one match at a time.
    public func forEachMatch(in haystack: UnsafeBufferPointer<UInt8>, after cursor: inout MatchCursor,
                             _ body: (Match) -> Bool) {
        let n = haystack.count
        while !cursor.done && cursor.position <= n {
            if cursor.retry {
                if let m = cursor.searcher.find(haystack, from: cursor.position, retry: true) {
                    cursor.position = m.end
                    cursor.retry = false
                    if !body(m) { return }
                    continue
                }
                if cursor.position >= n { break }
                cursor.position = GlobalLoop.nextBoundary(after: cursor.position, in: haystack, utf8: isUTF8)
                cursor.retry = false
            }
            guard var m = cursor.searcher.find(haystack, from: cursor.position, retry: false) else { break }
            var lost = false
            while isUTF8, m.isEmpty, !GlobalLoop.isBoundary(m.start, in: haystack) {
                // PCRE2 in UTF mode never starts inside a scalar: search again after it.
                let q = GlobalLoop.nextBoundary(after: m.start, in: haystack, utf8: true)
                guard let again = cursor.searcher.find(haystack, from: q, retry: false) else { lost = true; break }
                m = again
            }
            if lost { break }
            cursor.position = m.end
            cursor.retry = m.isEmpty
            if !body(m) { return }
        }
        cursor.done = true
    }

    /// Compiles `pattern` with the default options in one step (as Rust's `Regex::new`);
    /// ``RegexCompiler`` offers the rest.
    ///
    /// ```swift
    /// let url = try RegexAutomaton("https?://[a-z.]+")
    /// url.firstMatch(in: "see https://example.org")   // 0:[4,23)
    /// ```
    /// - Throws: ``RegexError`` for a syntax error or a pattern over the limits.
    /// - Complexity: see ``RegexCompiler``.
    public init(_ pattern: String, caseInsensitive: Bool = false) throws(RegexError) {
        self = try RegexCompiler().caseInsensitive(caseInsensitive).compile(pattern)
    }

    /// Compiles several patterns into one automaton in one step (a match reports the
    /// index of its pattern; at the same start the earlier pattern wins).
    public init(patterns: [String], caseInsensitive: Bool = false) throws(RegexError) {
        self = try RegexCompiler().caseInsensitive(caseInsensitive).compile(patterns: patterns)
    }
}
