import AutomatonCore

/// A multi-pattern literal searcher — Aho–Corasick (1975) compiled into the core's
/// ``DenseDFA`` (trie → failure links → every transition resolved), or into a compact
/// NFA when the dense table would not fit the memory budget.
///
/// Build one with ``Builder``; the result is immutable and `Sendable`, so one
/// automaton can serve any number of threads.
///
/// ```swift
/// let stopWords = try AhoCorasick.Builder()
///     .matchKind(.leftmostFirst)
///     .asciiCaseInsensitive(true)
///     .wholeWord(true)
///     .build(["the", "a", "of"])
/// stopWords.matches(in: "The cat of a theme").map(\.range)   // [0..<3, 8..<10, 11..<12]
/// stopWords.isMatch(in: "cathedral")                          // false
/// ```
///
/// Semantics worth knowing (they follow the Rust `aho-corasick` crate and PCRE2):
/// - **Duplicate patterns** keep their own ids. Under ``MatchKind/overlapping`` every
///   duplicate is reported (by end, then id); under the leftmost kinds only the first of
///   equal patterns is ever reported (it wins every tie). The automaton holds each
///   distinct pattern once either way, so a list with many equal or empty lines costs
///   no more than its distinct words.
/// - **Empty patterns** match at every position. Under ``MatchKind/overlapping`` each
///   is reported at every offset 0...n. Under the leftmost kinds the matches are
///   PCRE2's for `(?:w1|w2|…)`: after an empty match at p, only a non-empty match
///   starting at p (or any match after p) may follow, so `["", "a"]` over `"a"` gives
///   `[0,0) [0,1) [1,1)`. (The crate differs here: it never reports `[0,1)`.)
/// - **Whole word** requires PCRE2's `\b` before and after the match, using ASCII word
///   bytes `[0-9A-Za-z_]`; a pattern that starts or ends with a non-word byte thus
///   needs a word byte on the other side of that boundary. A word that fails its
///   boundary never hides a later valid match.
/// - **Case-insensitive** folds ASCII letters only; other bytes match exactly.
///
/// - Complexity: build O(Σ|p| × byte classes) time and memory for the dense DFA
///   (O(Σ|p|) for the compact NFA); search O(n + matches), one table load per byte in
///   the dense DFA. Whole-word and empty-pattern searches also pay O(occurrences).
public struct AhoCorasick: Sendable {
    let engine: LiteralEngine

    init(engine: LiteralEngine) { self.engine = engine }

    /// The prefilter kernel in front of the automaton ("memchr", "teddy"), or nil when
    /// every byte goes through the automaton (for the search strategy's name).
    package var prefilterKernel: String? { engine.prefilter?.kernelName }

    /// The configuration of an ``AhoCorasick`` automaton: a value with chainable setters.
    ///
    /// ```swift
    /// let ac = try AhoCorasick.Builder()
    ///     .matchKind(.leftmostLongest)
    ///     .memoryBudget(16 << 20)
    ///     .build(["foo", "foobar"])
    /// ```
    /// - Complexity: the setters are O(1); see ``AhoCorasick`` for ``build(_:)-([String])``.
    public struct Builder: Sendable, Hashable {
        /// The match kind; default ``MatchKind/leftmostFirst`` (the PCRE2 order).
        public private(set) var matchKind: MatchKind = .leftmostFirst
        /// ASCII case-insensitive matching; default off.
        public private(set) var isASCIICaseInsensitive = false
        /// Whole-word matching (`\b` on both sides); default off.
        public private(set) var isWholeWord = false
        /// The start-byte prefilter; default on (it never changes a result).
        public private(set) var isPrefilterEnabled = true
        /// A representation to use regardless of the budget; nil chooses by budget.
        public private(set) var forcedRepresentation: LiteralRepresentation? = nil
        /// Most bytes the dense DFA may take before the compact NFA is chosen instead.
        public private(set) var memoryBudgetBytes = AhoCorasick.defaultMemoryBudget
        /// Hard limits: exceeding one in the chosen representation is an error.
        public private(set) var limits = Limits()
        /// The prefilter kernels' instruction family; default ``SIMDLevel/best``.
        public private(set) var simdLevel = SIMDLevel.best

        /// The default configuration: leftmost-first, case-sensitive, not whole-word,
        /// prefilter on, representation chosen by a 64 MiB budget, default ``Limits``.
        public init() {}

        /// Sets the match kind.
        public func matchKind(_ kind: MatchKind) -> Builder { var b = self; b.matchKind = kind; return b }
        /// Enables or disables ASCII case-insensitive matching.
        public func asciiCaseInsensitive(_ yes: Bool) -> Builder { var b = self; b.isASCIICaseInsensitive = yes; return b }
        /// Enables or disables whole-word matching (PCRE2's `\b(?:w1|w2|…)\b`).
        public func wholeWord(_ yes: Bool) -> Builder { var b = self; b.isWholeWord = yes; return b }
        /// Enables or disables the start-byte prefilter.
        public func prefilter(_ yes: Bool) -> Builder { var b = self; b.isPrefilterEnabled = yes; return b }
        /// Forces a representation (nil: choose by ``memoryBudget(_:)``).
        public func representation(_ r: LiteralRepresentation?) -> Builder { var b = self; b.forcedRepresentation = r; return b }
        /// The most bytes the dense DFA may take; larger automata use the compact NFA.
        public func memoryBudget(_ bytes: Int) -> Builder { var b = self; b.memoryBudgetBytes = bytes; return b }
        /// Hard size limits (``Limits/maxStates`` and ``Limits/maxTableBytes``).
        public func limits(_ limits: Limits) -> Builder { var b = self; b.limits = limits; return b }
        /// Runs the prefilter kernels with `level` (tests force ``SIMDLevel/portable``);
        /// a level this CPU lacks falls back to ``SIMDLevel/best``.
        public func simdLevel(_ level: SIMDLevel) -> Builder { var b = self; b.simdLevel = level; return b }

        /// Builds the automaton for byte-string patterns (pattern id = index).
        ///
        /// - Throws: ``AutomatonError`` (`tooManyStates`, `tableTooLarge`) when the chosen
        ///   representation exceeds ``limits(_:)``.
        /// - Complexity: O(Σ|p| × byte classes) for the dense DFA, O(Σ|p|) for the compact NFA.
        public func build(_ patterns: [[UInt8]]) throws(AutomatonError) -> AhoCorasick {
            AhoCorasick(engine: try LiteralEngine.build(
                patterns, matchKind: matchKind, asciiCaseInsensitive: isASCIICaseInsensitive,
                wholeWord: isWholeWord, prefilter: isPrefilterEnabled,
                representation: forcedRepresentation, memoryBudget: memoryBudgetBytes, limits: limits,
                simdLevel: simdLevel))
        }

        /// Builds the automaton for the UTF-8 of string patterns (pattern id = index).
        public func build(_ patterns: [String]) throws(AutomatonError) -> AhoCorasick {
            try build(patterns.map { Array($0.utf8) })
        }
    }

    /// Representation, state count, byte classes and memory of a built automaton.
    public typealias Statistics = LiteralStatistics

    /// The default memory budget for the dense DFA: 64 MiB.
    public static let defaultMemoryBudget = 64 << 20

    // MARK: Properties

    /// The match kind the automaton was built for.
    public var matchKind: MatchKind { engine.matchKind }
    /// Number of patterns (ids 0..<patternCount).
    public var patternCount: Int { engine.patternCount }
    /// `true` when built with ASCII case-insensitive matching.
    public var isASCIICaseInsensitive: Bool { engine.asciiCaseInsensitive }
    /// `true` when built with whole-word matching.
    public var isWholeWord: Bool { engine.wholeWord }
    /// The length of the longest pattern, in bytes.
    public var maxPatternLength: Int { engine.maxLength }
    /// The byte length of pattern `id`.
    public func patternLength(_ id: PatternID) -> Int { engine.lengths[id] }
    /// Representation, state count, byte classes and memory.
    public var statistics: LiteralStatistics { engine.statistics }
    /// Which representation was chosen.
    public var representation: LiteralRepresentation { engine.statistics.representation }

    /// Low-level access to the dense DFA (nil for the compact representation), for
    /// minimization, DOT export or callers driving their own loop.
    ///
    /// The DFA is for unanchored search: its anchored start states equal the
    /// unanchored ones. Its match states report pattern ids, one per distinct pattern
    /// (the first of equal patterns; under ``MatchKind/overlapping`` the searches report
    /// the others with it); a match starts at `end - patternLength(id)`. With the leftmost kinds, no empty pattern and no
    /// whole-word option it is a leftmost DFA (``DenseDFA/searchForward(_:in:anchored:earliest:)``
    /// with `earliest: false` gives the leftmost match end); otherwise it reports
    /// every occurrence and the leftmost choice and the `\b` checks happen outside it.
    public var denseDFA: DenseDFA? {
        if case .dense(let dfa) = engine.storage { return dfa }
        return nil
    }

    /// Low-level access to the compact NFA (nil for the dense representation).
    public var compactNFA: CompactNFA? {
        if case .compact(let nfa) = engine.storage { return nfa }
        return nil
    }
}

// MARK: - Search vocabulary

extension AhoCorasick {
    /// `true` when any pattern matches (respecting whole-word boundaries).
    ///
    /// ```swift
    /// try AhoCorasick.Builder().build(["spam"]).isMatch(in: "no spam here")  // true
    /// ```
    /// - Complexity: O(n), stopping at the first match.
    public func isMatch(in haystack: UnsafeBufferPointer<UInt8>) -> Bool { engine.isMatch(haystack) }
    /// `true` when any pattern matches the bytes.
    public func isMatch(in haystack: [UInt8]) -> Bool { haystack.withUnsafeBufferPointer { engine.isMatch($0) } }
    /// `true` when any pattern matches the string's UTF-8.
    public func isMatch(in haystack: String) -> Bool { withUTF8(haystack) { engine.isMatch($0) } }

    /// The first match under the match kind (for ``MatchKind/overlapping``: the one
    /// that ends first, then the lowest id).
    ///
    /// ```swift
    /// try AhoCorasick.Builder().build(["b", "abc"]).firstMatch(in: "abc")  // 1:[0,3)
    /// ```
    /// - Complexity: O(n).
    public func firstMatch(in haystack: UnsafeBufferPointer<UInt8>) -> Match? { engine.firstMatch(haystack) }
    /// The first match in the bytes.
    public func firstMatch(in haystack: [UInt8]) -> Match? { haystack.withUnsafeBufferPointer { engine.firstMatch($0) } }
    /// The first match in the string's UTF-8 (offsets are UTF-8 offsets).
    public func firstMatch(in haystack: String) -> Match? { withUTF8(haystack) { engine.firstMatch($0) } }

    /// Every match under the match kind, in order: non-overlapping for the leftmost
    /// kinds, every occurrence (by end, then id) for ``MatchKind/overlapping``.
    ///
    /// ```swift
    /// try AhoCorasick.Builder().build(["a", "ab"]).matches(in: "abab").count  // 2
    /// ```
    /// - Complexity: O(n + matches).
    @_disfavoredOverload
    public func matches(in haystack: UnsafeBufferPointer<UInt8>) -> [Match] { engine.allMatches(haystack) }
    /// Every match in the bytes.
    @_disfavoredOverload
    public func matches(in haystack: [UInt8]) -> [Match] { haystack.withUnsafeBufferPointer { engine.allMatches($0) } }
    /// Every match in the string's UTF-8 (offsets are UTF-8 offsets).
    @_disfavoredOverload
    public func matches(in haystack: String) -> [Match] { withUTF8(haystack) { engine.allMatches($0) } }

    /// Every occurrence of every pattern, including patterns inside other patterns.
    /// Requires ``MatchKind/overlapping`` (as the crate's `find_overlapping_iter`
    /// does); a leftmost automaton cannot report them and traps.
    ///
    /// ```swift
    /// try AhoCorasick.Builder().matchKind(.overlapping).build(["he", "she", "hers"])
    ///     .overlappingMatches(in: "ushers").map(\.description)  // ["0:[2,4)", "1:[1,4)", "2:[2,6)"]
    /// ```
    /// - Complexity: O(n + occurrences).
    public func overlappingMatches(in haystack: [UInt8]) -> [Match] {
        precondition(matchKind == .overlapping, "overlappingMatches needs an automaton built with .overlapping")
        return matches(in: haystack)
    }
    /// Every occurrence in the string's UTF-8. Requires ``MatchKind/overlapping``.
    public func overlappingMatches(in haystack: String) -> [Match] { overlappingMatches(in: Array(haystack.utf8)) }

    /// Calls `body` for each match in order; return `false` to stop early. This is the
    /// allocation-free form of ``matches(in:)-([UInt8])``.
    ///
    /// ```swift
    /// var n = 0
    /// ac.forEachMatch(in: buffer) { _ in n += 1; return true }
    /// ```
    /// - Complexity: O(n + matches).
    public func forEachMatch(in haystack: UnsafeBufferPointer<UInt8>, _ body: (Match) -> Bool) {
        engine.forEachMatch(haystack, from: 0, body)
    }

    /// Calls `body` for each match that starts at or after `from`, in order, as if the
    /// search began there (the bytes before `from` are context only: they decide
    /// whole-word boundaries). Return `false` to stop. Lets a caller skip ahead — a
    /// filter that has judged a record resumes at the next one.
    ///
    /// ```swift
    /// ac.forEachMatch(in: buffer, from: nextRecord) { m in print(m); return true }
    /// ```
    /// - Precondition: `0 <= from <= haystack.count`.
    /// - Complexity: O(n - from + matches).
    public func forEachMatch(in haystack: UnsafeBufferPointer<UInt8>, from: Int, _ body: (Match) -> Bool) {
        precondition(from >= 0 && from <= haystack.count, "search start outside the haystack")
        engine.forEachMatch(haystack, from: from, body)
    }
}
