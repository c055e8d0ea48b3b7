// The one search vocabulary of the package's searchers (Aho-Corasick, KMP, the regex
// automaton, Turnstile's Matcher). A searcher implements four primitives over an
// UnsafeBufferPointer — isMatch, firstMatch, forEachMatch and a resumable
// forEachMatch(after:) — and this protocol's extensions (MatchSearcher+Haystacks.swift)
// give every haystack type the same names, so the engines hold no per-type copies.

/// A searcher that reports ``Match``es in a fixed order and can stop and resume: the
/// shared vocabulary of `AhoCorasick`, `KMP`, `RegexAutomaton` and `Matcher`.
///
/// You use the methods its extensions add — ``isMatch(in:)-(Collection<UInt8>)``,
/// ``firstMatch(in:)-(Collection<UInt8>)``, `matches(in:)` (a lazy sequence),
/// `forEachMatch(in:_:)` and `count(in:)` — over `String`, `Substring`, `[UInt8]`,
/// `ArraySlice<UInt8>`, `UnsafeBufferPointer<UInt8>`, `UnsafeRawBufferPointer`,
/// Foundation's `Data` or any other `Collection` of bytes:
///
/// ```swift
/// let ac = try AhoCorasick(["free", "prize"])
/// for m in ac.matches(in: text) { print(m.substring(in: text)) }   // lazy: no array
/// ac.count(in: bytes[1000...])                                       // an ArraySlice
/// ```
///
/// The requirements are the primitives each engine implements once, over contiguous
/// bytes; implementing them yourself is possible but not needed to use a searcher.
///
/// - Complexity: every search is O(n + matches) for the literal engines; see each
///   searcher for its own bound.
public protocol MatchSearcher: Sendable {
    /// Where a search stopped: enough state to find the next match exactly as an
    /// uninterrupted search would (an opaque value; ``makeMatchCursor()`` gives the start).
    associatedtype MatchCursor

    /// A cursor before the first match.
    func makeMatchCursor() -> MatchCursor

    /// `true` when some match exists; stops at the first position that proves one.
    func isMatch(in haystack: UnsafeBufferPointer<UInt8>) -> Bool

    /// The first match in the searcher's order, or nil.
    func firstMatch(in haystack: UnsafeBufferPointer<UInt8>) -> Match?

    /// Calls `body` with each match in order; `body` returns `false` to stop.
    func forEachMatch(in haystack: UnsafeBufferPointer<UInt8>, _ body: (Match) -> Bool)

    /// Calls `body` with each match after `cursor`, in order, moving `cursor` past
    /// each match before `body` sees it; `body` returns `false` to stop. Calling it
    /// again with the same cursor and the same bytes continues where it stopped, so
    /// the matches of all calls together are those of one ``forEachMatch(in:_:)``.
    /// This is what makes `matches(in:)` lazy.
    func forEachMatch(in haystack: UnsafeBufferPointer<UInt8>, after cursor: inout MatchCursor,
                      _ body: (Match) -> Bool)
}
