// RegexAutomaton: a compiled regex (or rule set) and its searches. The end of the
// leftmost-first match comes from a forward scan, its start from an anchored reverse
// scan from that end (as RE2 and regex-automata do); the global loop is PCRE2's.

import AutomatonCore
import LiteralAutomata

/// A compiled regex, or a set of regexes: immutable, `Sendable`, shareable across
/// threads. Build one with ``RegexCompiler``.
///
/// Matches are leftmost-first (Perl/PCRE2 priority, including lazy quantifiers) and
/// given as byte offsets. ``matches(in:)-([UInt8])`` follows PCRE2's global loop:
/// after an empty match at *p* it looks for a non-empty match anchored at *p*, and
/// otherwise steps one scalar (UTF-8 mode) or one byte.
///
/// ```swift
/// let regex = try RegexCompiler().compile("a*")
/// regex.matches(in: "ab")      // [0:[0,1), 0:[1,1), 0:[2,2)]
/// regex.engineKind             // .dense
/// regex.forwardDFA?.stateCount // the table behind it, for DOT or save/load
/// ```
///
/// Searching never throws and never fails. With the lazy engine each call creates
/// its own cache (up to ``Limits/maxCacheBytes`` per scan direction), so concurrent
/// searches share nothing mutable.
///
/// - Complexity: each forward or reverse scan is O(n) transitions; `matches(in:)` scans
///   forward from each match end to where the automaton dies, so it is O(n) for
///   typical patterns and O(n × matches) at worst, as in RE2 and PCRE2.
public struct RegexAutomaton: Sendable {
    /// Which automaton runs the searches.
    public enum EngineKind: Sendable, Hashable {
        /// Full DFAs built at compile time (``forwardDFA``, ``reverseDFA``).
        case dense
        /// DFAs determinized during each search into a bounded cache.
        case lazy
    }

    enum Engine: Sendable {
        case dense(forward: DenseDFA, reverse: DenseDFA)
        case lazy(forward: LazyDFA, reverse: LazyDFA)
    }

    /// Counters from one search call, for tests of linear time (no timing needed).
    public struct SearchStats: Sendable, Hashable {
        /// DFA transitions taken (bytes fed plus end-of-input symbols), all scans.
        public var transitions = 0
        /// Times a lazy cache was cleared because it was full.
        public var cacheClears = 0
        /// Lazy states built.
        public var lazyStatesBuilt = 0
        /// Scans handed to the PikeVM because a lazy cache thrashed.
        public var nfaFallbacks = 0
        public init() {}
    }

    let engine: Engine
    /// The global loop's retry after an empty match (non-empty, anchored), run lazily
    /// with either engine: it is rare and usually short.
    let nonEmpty: LazyDFA
    /// The forward NFA (all patterns, leftmost-first priority).
    public let forwardNFA: ThompsonNFA
    /// The reversed NFA used to find match starts.
    public let reverseNFA: ThompsonNFA
    /// `true` in UTF-8 mode (the global loop steps scalars), `false` in bytes mode.
    public let isUTF8: Bool
    /// `true` when some pattern can match the empty string.
    public let canMatchEmpty: Bool
    /// The prefix prefilter the forward scans jump with (dense engine only), or nil:
    /// see ``RegexCompiler/prefilter(_:)``.
    public let prefilter: RegexPrefilter?
    /// The inner (or suffix) literal the match searches start from, or nil: see
    /// ReverseInner.swift. Not used for line selection, whose line candidates do the same.
    public let reverseInner: ReverseInner?

    /// Forward lazy caches kept between searches (lazy engine only; see LazyCachePool.swift).
    let forwardCaches: LazyCachePool

    init(engine: Engine, nonEmpty: LazyDFA, forwardNFA: ThompsonNFA, reverseNFA: ThompsonNFA, isUTF8: Bool, canMatchEmpty: Bool,
         prefilter: RegexPrefilter? = nil, reverseInner: ReverseInner? = nil) {
        self.forwardCaches = LazyCachePool()
        self.engine = engine
        self.prefilter = prefilter
        self.reverseInner = reverseInner
        self.nonEmpty = nonEmpty
        self.forwardNFA = forwardNFA
        self.reverseNFA = reverseNFA
        self.isUTF8 = isUTF8
        self.canMatchEmpty = canMatchEmpty
    }

    /// The kernel of the prefix prefilter ("memmem", "memchr", "teddy"), or nil when
    /// the forward scan steps every byte.
    public var prefilterKernel: String? { prefilter?.prefixes.kernel }

    /// Which engine runs the searches.
    public var engineKind: EngineKind {
        if case .dense = engine { return .dense }
        return .lazy
    }

    /// Number of patterns compiled.
    public var patternCount: Int { forwardNFA.patternCount }

    /// The forward DFA (leftmost-first, delayed by one) with the dense engine.
    public var forwardDFA: DenseDFA? {
        if case .dense(let f, _) = engine { return f }
        return nil
    }

    /// The anchored reverse DFA (reports every match) with the dense engine.
    public var reverseDFA: DenseDFA? {
        if case .dense(_, let r) = engine { return r }
        return nil
    }

    // MARK: Searching

    /// `true` when the regex matches anywhere in `haystack`.
    ///
    /// ```swift
    /// try RegexCompiler().compile("b+").isMatch(in: "abba")  // true
    /// ```
    /// - Complexity: O(n); stops at the first position that proves a match.
    public func isMatch(in haystack: UnsafeBufferPointer<UInt8>) -> Bool {
        var searcher = Searcher(self)
        defer { searcher.recycle() }
        return searcher.isMatch(haystack)
    }

    /// The leftmost-first match, if any.
    ///
    /// ```swift
    /// try RegexCompiler().compile("b+").firstMatch(in: "abba")  // 0:[1,3)
    /// ```
    /// - Complexity: O(n) (a forward scan, then a reverse scan over the match).
    public func firstMatch(in haystack: UnsafeBufferPointer<UInt8>) -> Match? {
        var searcher = Searcher(self)
        defer { searcher.recycle() }
        return GlobalLoop.run(haystack, utf8: isUTF8, limit: 1) { pos, retry in
            searcher.find(haystack, from: pos, retry: retry)
        }.first
    }

    /// Every match, by PCRE2's global loop.
    ///
    /// ```swift
    /// try RegexCompiler().compile("|a").matches(in: "a")  // [0:[0,0), 0:[0,1), 0:[1,1)]
    /// ```
    /// - Complexity: see ``RegexAutomaton``.
    @_disfavoredOverload
    public func matches(in haystack: UnsafeBufferPointer<UInt8>) -> [Match] {
        matches(in: haystack, from: 0)
    }

    /// Every match of a search that begins at `from` (the bytes before it only decide
    /// look-behind, as in PCRE2's start offset).
    ///
    /// - Precondition: `0 <= from <= haystack.count`.
    public func matches(in haystack: UnsafeBufferPointer<UInt8>, from: Int) -> [Match] {
        precondition(from >= 0 && from <= haystack.count, "search start outside the haystack")
        var searcher = Searcher(self)
        defer { searcher.recycle() }
        return GlobalLoop.run(haystack, utf8: isUTF8, from: from) { pos, retry in
            searcher.find(haystack, from: pos, retry: retry)
        }
    }

    /// Every match, adding the work done to `stats`.
    public func matches(in haystack: UnsafeBufferPointer<UInt8>, stats: inout SearchStats) -> [Match] {
        var searcher = Searcher(self)
        let result = GlobalLoop.run(haystack, utf8: isUTF8) { pos, retry in
            searcher.find(haystack, from: pos, retry: retry)
        }
        searcher.finish(into: &stats)
        return result
    }

    /// `true` when the regex matches anywhere in the bytes.
    public func isMatch(in haystack: [UInt8]) -> Bool { haystack.withUnsafeBufferPointer { isMatch(in: $0) } }
    /// `true` when the regex matches anywhere in the string's UTF-8.
    public func isMatch(in haystack: String) -> Bool { withUTF8(haystack) { isMatch(in: $0) } }
    /// The leftmost-first match in the bytes.
    public func firstMatch(in haystack: [UInt8]) -> Match? { haystack.withUnsafeBufferPointer { firstMatch(in: $0) } }
    /// The leftmost-first match in the string's UTF-8 (offsets are UTF-8 offsets).
    public func firstMatch(in haystack: String) -> Match? { withUTF8(haystack) { firstMatch(in: $0) } }
    /// Every match in the bytes.
    @_disfavoredOverload
    public func matches(in haystack: [UInt8]) -> [Match] { haystack.withUnsafeBufferPointer { matches(in: $0) } }
    /// Every match in the string's UTF-8 (offsets are UTF-8 offsets).
    @_disfavoredOverload
    public func matches(in haystack: String) -> [Match] { withUTF8(haystack) { matches(in: $0) } }
    /// Every match in the bytes, adding the work done to `stats`.
    public func matches(in haystack: [UInt8], stats: inout SearchStats) -> [Match] {
        haystack.withUnsafeBufferPointer { matches(in: $0, stats: &stats) }
    }
}

/// The per-call search state: lazy caches (created on first use) and counters.
struct Searcher {
    let regex: RegexAutomaton
    var forwardCache: LazyDFA.Cache? = nil
    var reverseCache: LazyDFA.Cache? = nil
    var nonEmptyCache: LazyDFA.Cache? = nil
    /// The lazy cache of the reverse-inner prefix automaton, when it is lazy.
    var innerCache: LazyDFA.Cache? = nil
    /// The reverse-inner strategy gave way to the forward scan (its anchored forward
    /// scan failed once): the rest of this searcher's calls use the forward scan.
    var reverseInnerOff = false
    var stats = RegexAutomaton.SearchStats()
    /// Whether the prefix prefilter still pays off in this search.
    var prefilterEffectiveness = PrefilterEffectiveness()

    init(_ regex: RegexAutomaton) { self.regex = regex }

    /// Gives the forward lazy cache back to the automaton's pool for the next search
    /// (the search is over; this searcher builds a new one if used again). Every
    /// search call gives it back (the stats call excepted, whose counters would
    /// otherwise include earlier searches), and so does a recycled cursor.
    mutating func recycle() {
        if let cache = forwardCache {
            forwardCache = nil
            regex.forwardCaches.give(cache)
        }
    }

    mutating func finish(into total: inout RegexAutomaton.SearchStats) {
        for cache in [forwardCache, reverseCache, nonEmptyCache] {
            if let cache {
                stats.cacheClears += cache.clearCount
                stats.lazyStatesBuilt += cache.statesBuilt
            }
        }
        total.transitions += stats.transitions
        total.cacheClears += stats.cacheClears
        total.lazyStatesBuilt += stats.lazyStatesBuilt
        total.nfaFallbacks += stats.nfaFallbacks
    }

    mutating func isMatch(_ haystack: UnsafeBufferPointer<UInt8>) -> Bool {
        switch regex.engine {
        case .dense(let forward, _):
            return forward.searchForward(haystack, in: 0..<haystack.count, anchored: false, earliest: true,
                                         prefilter: regex.prefilter?.prefixes, effectiveness: &prefilterEffectiveness,
                                         steps: &stats.transitions) != nil
        case .lazy(let forward, _):
            let cache = forwardCache ?? regex.forwardCaches.take() ?? forward.makeCache()
            forwardCache = cache
            switch forward.searchForward(cache, haystack, from: 0, anchored: false, earliest: true, steps: &stats.transitions) {
            case .found(let end): return end != nil
            case .gaveUp:
                stats.nfaFallbacks += 1
                return PikeVM(nfa: regex.forwardNFA).search(haystack, from: 0) != nil
            }
        }
    }

    /// The end of the earliest-ending match from `from` (see
    /// ``RegexAutomaton/earliestMatchEnd(in:from:cursor:)``).
    mutating func earliestEnd(_ haystack: UnsafeBufferPointer<UInt8>, from: Int) -> Int? {
        switch regex.engine {
        case .dense(let forward, _):
            return forward.searchForward(haystack, in: from..<haystack.count, anchored: false, earliest: true,
                                         prefilter: regex.prefilter?.prefixes, effectiveness: &prefilterEffectiveness,
                                         steps: &stats.transitions)?.end
        case .lazy(let forward, _):
            let cache = forwardCache ?? regex.forwardCaches.take() ?? forward.makeCache()
            forwardCache = cache
            switch forward.searchForward(cache, haystack, from: from, anchored: false, earliest: true,
                                         steps: &stats.transitions) {
            case .found(let end): return end?.end
            case .gaveUp:
                stats.nfaFallbacks += 1
                return PikeVM(nfa: regex.forwardNFA).search(haystack, from: from)?.end
            }
        }
    }

    /// Calls `body` with the earliest match end in each line of `haystack` that holds a
    /// match (lines end with `byte`, which no match holds), in order; `body` returns
    /// false to stop. The engine and the prefilter are bound once for the whole block,
    /// so a line costs its bytes plus one restart, not a call through the cursor.
    mutating func forEachLineEarliestEnd(_ haystack: UnsafeBufferPointer<UInt8>, delimiter byte: UInt8,
                                         _ body: (Int) -> Bool) {
        let n = haystack.count
        var from = 0
        @inline(__always) func nextLine(after end: Int) -> Int? {
            Memchr.find(byte, in: haystack, from: end).map { $0 &+ 1 }
        }
        switch regex.engine {
        case .dense(let forward, _):
            let prefilter = regex.prefilter?.prefixes
            while from < n {
                guard let end = forward.searchForward(haystack, in: from..<n, anchored: false, earliest: true,
                                                      prefilter: prefilter, effectiveness: &prefilterEffectiveness,
                                                      steps: &stats.transitions)?.end,
                      body(end), let next = nextLine(after: end) else { return }
                from = next
            }
        case .lazy:
            while from < n {
                guard let end = earliestEnd(haystack, from: from), body(end), let next = nextLine(after: end) else { return }
                from = next
            }
        }
    }

    /// The leftmost-first match from `from`, or with `retry` the non-empty match
    /// anchored at `from`.
    mutating func find(_ haystack: UnsafeBufferPointer<UInt8>, from: Int, retry: Bool) -> Match? {
        find(haystack, from: from, retry: retry, byInnerLiteral: !reverseInnerOff)
    }

    /// ``find(_:from:retry:)``, by the inner literal or not.
    private mutating func find(_ haystack: UnsafeBufferPointer<UInt8>, from: Int, retry: Bool,
                               byInnerLiteral: Bool) -> Match? {
        if retry {
            let nonEmpty = regex.nonEmpty
            let cache = nonEmptyCache ?? nonEmpty.makeCache()
            nonEmptyCache = cache
            switch nonEmpty.searchForward(cache, haystack, from: from, anchored: true, earliest: false, steps: &stats.transitions) {
            case .found(let e):
                guard let e else { return nil }
                return Match(pattern: e.pattern, start: from, end: e.end)
            case .gaveUp:
                return pikeVM(haystack, from: from, retry: true)
            }
        }
        if byInnerLiteral, let inner = regex.reverseInner {
            switch findByInnerLiteral(inner, haystack, from: from) {
            case .found(let m): return m
            case .retry(let next):
                reverseInnerOff = true
                return next <= haystack.count ? find(haystack, from: next, retry: false) : nil
            case .fallback(let next):
                return find(haystack, from: next, retry: false, byInnerLiteral: false)
            }
        }
        switch regex.engine {
        case .dense(let forward, let reverse):
            guard let e = forward.searchForward(haystack, in: from..<haystack.count, anchored: false, earliest: false,
                                                prefilter: regex.prefilter?.prefixes, effectiveness: &prefilterEffectiveness,
                                                steps: &stats.transitions)
            else { return nil }
            if let s = reverse.searchReverse(haystack, in: from..<e.end, anchored: true, earliest: false,
                                             pattern: e.pattern, steps: &stats.transitions) {
                return Match(pattern: e.pattern, start: s.end, end: e.end)
            }
            return pikeVM(haystack, from: from, retry: false)
        case .lazy(let forward, let reverse):
            let fc = forwardCache ?? regex.forwardCaches.take() ?? forward.makeCache()
            forwardCache = fc
            let end: MatchEnd
            switch forward.searchForward(fc, haystack, from: from, anchored: false, earliest: false, steps: &stats.transitions) {
            case .found(let e):
                guard let e else { return nil }
                end = e
            case .gaveUp:
                return pikeVM(haystack, from: from, retry: false)
            }
            let rc = reverseCache ?? reverse.makeCache()
            reverseCache = rc
            switch reverse.searchReverse(rc, haystack, in: from..<end.end, pattern: end.pattern, steps: &stats.transitions) {
            case .found(let s):
                if let s { return Match(pattern: end.pattern, start: s.end, end: end.end) }
                return pikeVM(haystack, from: from, retry: false)
            case .gaveUp:
                return pikeVM(haystack, from: from, retry: false)
            }
        }
    }

    /// ``ReverseInner/find(_:from:reverseCache:steps:forwardAnchored:)`` with this
    /// searcher's forward automaton for the anchored scan from the start it finds.
    private mutating func findByInnerLiteral(_ inner: ReverseInner, _ haystack: UnsafeBufferPointer<UInt8>,
                                             from: Int) -> ReverseInner.Outcome {
        var steps = 0
        defer { stats.transitions &+= steps }
        switch regex.engine {
        case .dense(let forward, _):
            return inner.find(haystack, from: from, reverseCache: &innerCache, steps: &steps) { start in
                .some(forward.searchForward(haystack, in: start..<haystack.count, anchored: true, earliest: false))
            }
        case .lazy(let forward, _):
            let cache = forwardCache ?? regex.forwardCaches.take() ?? forward.makeCache()
            forwardCache = cache
            return inner.find(haystack, from: from, reverseCache: &innerCache, steps: &steps) { start in
                var s = 0
                switch forward.searchForward(cache, haystack, from: start, anchored: true, earliest: false, steps: &s) {
                case .found(let e): return .some(e)
                case .gaveUp: return .none
                }
            }
        }
    }

    private mutating func pikeVM(_ haystack: UnsafeBufferPointer<UInt8>, from: Int, retry: Bool) -> Match? {
        stats.nfaFallbacks += 1
        return PikeVM(nfa: regex.forwardNFA).search(haystack, from: from, anchored: retry, nonEmpty: retry)
    }
}
