import AutomatonCore
import LiteralAutomata
import RegexAutomata

/// How overlapping candidates become the reported matches (the literal engines' kinds:
/// leftmost-first, leftmost-longest, overlapping). Regexes are always leftmost-first.
public typealias MatchKind = LiteralAutomata.MatchKind

/// One matcher for a list of patterns: it picks a ``SearchStrategy`` once, when it is
/// built — KMP for one literal word, Aho-Corasick for several, a literal engine for a
/// regex that is only literals, the regex DFA with its prefilters for the rest — and
/// every search goes through that strategy, which switches on its engine outside the
/// byte loop.
///
/// ```swift
/// var options = Matcher.Options()
/// options.syntax = .literal
/// options.caseInsensitive = true
/// let matcher = try Matcher(patterns: ["winner", "free entry"], options: options)
/// matcher.matches(in: "You are a WINNER!")   // [0:[10,16)]
/// matcher.representation                    // .ahoCorasick
/// ```
///
/// - Complexity: building is the chosen engine's build (O(total pattern bytes × byte
///   classes) for literals; up to O(DFA states × byte classes × NFA size) for regexes,
///   bounded by ``Options/limits``); searching is O(haystack bytes + matches).
public struct Matcher: Sendable {
    /// How patterns are read.
    public enum Syntax: String, Sendable, Hashable {
        /// Each pattern is a literal byte string (`grep -F`).
        case literal
        /// Each pattern is a regular expression.
        case regex
    }

    /// The engine a matcher chose.
    public enum Representation: String, Sendable, Hashable {
        /// No patterns: nothing ever matches.
        case empty = "empty"
        /// One literal: Knuth–Morris–Pratt.
        case kmp = "kmp"
        /// Several literals: Aho-Corasick.
        case ahoCorasick = "aho-corasick"
        /// Regular expressions: the regex DFA (full, or lazy past its limits).
        case regex = "regex"
    }

    /// Build options. The defaults are regex syntax, case-sensitive, leftmost-first.
    public struct Options: Sendable, Hashable {
        public var syntax: Syntax = .regex
        /// ASCII case folding.
        public var caseInsensitive = false
        /// grep's `-w`: only matches with no word character on either side count (a
        /// letter beyond ASCII is one unless ``bytesMode``); a match that fails gives
        /// way to a shorter one at the same start, then to later starts.
        public var wholeWord = false
        /// With ``wholeWord``: letters and digits beyond ASCII count as word characters
        /// too (grep's `-w` in UTF-8 text), unless ``bytesMode``. Off for the built-in
        /// and trained lists, whose words were counted between ASCII boundaries.
        public var unicodeWords = false
        /// grep's `-x`: only matches that span the whole haystack (the whole line with
        /// ``lineRecords``) count. Wins over ``wholeWord``.
        public var wholeLine = false
        /// Haystacks are lines or blocks of whole lines (grep's reading): `^` and `$`
        /// anchor at line edges and no match holds `\n`, which changes no line's
        /// matches and lets a block of lines be searched in one pass.
        public var lineRecords = false
        /// Regex bytes mode (every construct consumes one byte) instead of UTF-8.
        public var bytesMode = false
        /// PCRE2_UCP for regexes (as a leading `(*UCP)`): `\d \s \w` and the POSIX classes
        /// are Unicode properties.
        public var ucp = false
        /// Which matches are reported; ``MatchKind/overlapping`` and
        /// ``MatchKind/leftmostLongest`` need literal syntax.
        public var matchKind: MatchKind = .leftmostFirst
        /// Size limits for the automaton, literal or regex; `nil` gives each engine its
        /// defaults (``defaultLimits(for:)``). Past a regex's limits its full DFA gives
        /// way to the lazy one; past a literal list's, or a regex NFA's, building fails
        /// with a typed error naming the limit. Building work is bounded by them.
        public var limits: Limits? = nil
        /// Literal prefilters (rare-byte `memchr` for one literal, start-byte skips for
        /// several). They never change a result; off is for testing that.
        public var prefilter = true
        /// Strategies the chooser must pass over (SearchStrategy+Choice.swift): it takes
        /// the next that fits. They never change a result; tests run each strategy on
        /// and off against PCRE2 with it. The regex DFAs are the last resort: with
        /// ``SearchStrategy/Name/denseDFA`` disabled the lazy DFA runs.
        public var disabledStrategies: Set<SearchStrategy.Name> = []

        public init() {}

        /// Each engine's default limits: literal lists up to 4,000,000 states and a
        /// 256 MiB table (past a memory budget they switch to a compact NFA first);
        /// regexes a full DFA up to ``RegexCompiler/defaultLimits`` (10,000 states,
        /// 4 MiB), the lazy DFA beyond.
        public static func defaultLimits(for syntax: Syntax) -> Limits {
            syntax == .literal ? Limits() : RegexCompiler.defaultLimits
        }

        /// The limits a build uses: ``limits``, or the engine's defaults.
        var effectiveLimits: Limits { limits ?? Self.defaultLimits(for: syntax) }
    }

    /// Size and shape of the built automaton, for `turnstile compile --stats`.
    public struct Statistics: Sendable, Hashable {
        /// The engine.
        public var representation: Representation
        /// How it is stored ("dense DFA", "compact NFA", "lazy DFA").
        public var storage: String
        public var patterns: Int
        /// States of the main automaton, including the dead state.
        public var states: Int
        public var byteClasses: Int
        /// Bytes held by the automaton's tables.
        public var memoryBytes: Int
        /// The search strategy in one line (``SearchStrategy/description``).
        public var strategy: String = ""
    }

    /// The strategy chosen when the matcher was built (SearchStrategy+Choice.swift, the
    /// only place that chooses): its name, wrapper and engine; every search goes
    /// through it.
    public var strategy: SearchStrategy { parts.strategy }
    /// The options the matcher was built with.
    public var options: Options { parts.options }
    /// The patterns, by id.
    public var patterns: [[UInt8]] { parts.patterns }

    /// What a matcher is, behind one reference.
    ///
    /// Why: a reader, a sink and each worker hold a matcher, and a copy of the three as
    /// stored properties retained every reference the strategy holds (about 300
    /// instructions; callgrind, `grep -r -l GPL /usr/share/doc`: 8,648 copies, 2.7 M
    /// instructions). A copy is now one retain; the parts are immutable, so a search
    /// reads them in place.
    private final class Parts: Sendable {
        let strategy: SearchStrategy
        let options: Options
        let patterns: [[UInt8]]

        init(strategy: SearchStrategy, options: Options, patterns: [[UInt8]]) {
            self.strategy = strategy
            self.options = options
            self.patterns = patterns
        }
    }
    private let parts: Parts

    /// The strategy's engine (tests and saved rule sets look at it).
    var engine: SearchStrategy.Engine { strategy.engine }
    /// For a regex over line records: the required literals that lead a line-oriented search.
    var lineCandidates: LineCandidates? { strategy.lineCandidates }
    /// Every record holds a match: selecting records needs no search.
    var matchesEveryRecord: Bool { strategy.matchesEveryRecord }

    /// Builds a matcher for `patterns` (UTF-8 strings).
    public init(patterns: [String], options: Options) throws(TurnstileError) {
        try self.init(bytePatterns: patterns.map { Array($0.utf8) }, options: options)
    }

    /// A word matcher around an Aho-Corasick automaton loaded from a saved rule set,
    /// which was checked to be built from `patterns` with `options`.
    init(patterns: [[UInt8]], options: Options, loaded automaton: AhoCorasick) {
        parts = Parts(strategy: SearchStrategy(patterns: patterns, options: options, loaded: automaton),
                      options: options, patterns: patterns)
    }

    /// Builds a matcher for `patterns` given as raw bytes (for `-f` files that are not UTF-8).
    ///
    /// - Throws: ``TurnstileError`` for a regex syntax error (with the pattern and
    ///   offset), a size limit, or a match kind regexes do not have.
    public init(bytePatterns patterns: [[UInt8]], options: Options) throws(TurnstileError) {
        parts = Parts(strategy: try SearchStrategy(choosingFor: patterns, options: options),
                      options: options, patterns: patterns)
    }

    /// Whether the literal engines filter whole words themselves (see SearchStrategy+Choice.swift).
    static func engineWholeWord(_ patterns: [[UInt8]], options: Options) -> Bool {
        SearchStrategy.engineWholeWord(patterns, options: options)
    }

    /// Number of patterns (ids are 0..<patternCount).
    public var patternCount: Int { patterns.count }

    /// The engine chosen.
    public var representation: Representation { strategy.representation }

    /// Size and shape of the automaton, and the strategy's name.
    public var statistics: Statistics { strategy.statistics }

    /// The main dense automaton, when there is one (for DOT export and saving): the
    /// KMP or Aho-Corasick table, or the regex's forward DFA.
    public var denseDFA: DenseDFA? { strategy.denseDFA }

    /// Appends every match in `haystack` to `matches`, offsets relative to
    /// `haystack`, in the order the match kind defines (by start for the leftmost
    /// kinds, by end for overlapping). The haystack's edges are text start and end
    /// (for whole words and anchors).
    ///
    /// - Complexity: O(haystack bytes + matches).
    public func appendMatches(in haystack: UnsafeBufferPointer<UInt8>, to matches: inout [Match]) {
        strategy.forEachMatch(in: haystack) { matches.append($0); return true }
    }

    /// Calls `body` for each match that starts at or after `from`, in order, as if the
    /// search began there (the bytes before `from` decide whole-word boundaries);
    /// `body` returns `false` to stop. With regexes, the matches of the whole-haystack
    /// search that start at or after `from`.
    ///
    /// ```swift
    /// matcher.forEachMatch(in: buffer, from: 0) { m in print(m); return true }
    /// ```
    /// - Precondition: `0 <= from <= haystack.count`.
    /// - Complexity: O(haystack bytes from `from` + matches), without allocating for literals.
    public func forEachMatch(in haystack: UnsafeBufferPointer<UInt8>, from: Int, _ body: (Match) -> Bool) {
        precondition(from >= 0 && from <= haystack.count, "search start outside the haystack")
        strategy.forEachMatch(in: haystack, from: from, body)
    }

    /// Every match in `haystack`.
    @_disfavoredOverload
    public func matches(in haystack: [UInt8]) -> [Match] {
        var result: [Match] = []
        haystack.withUnsafeBufferPointer { appendMatches(in: $0, to: &result) }
        return result
    }

    /// Every match in the string's UTF-8.
    @_disfavoredOverload
    public func matches(in haystack: String) -> [Match] { matches(in: Array(haystack.utf8)) }

    /// The first match (the leftmost under the leftmost kinds; the earliest-ending
    /// under ``MatchKind/overlapping``), or nil.
    ///
    /// - Complexity: O(haystack bytes).
    public func firstMatch(in haystack: [UInt8]) -> Match? {
        haystack.withUnsafeBufferPointer { strategy.firstMatch(in: $0) }
    }

    /// The first match in the string's UTF-8, or nil.
    public func firstMatch(in haystack: String) -> Match? { firstMatch(in: Array(haystack.utf8)) }

    /// `true` when some pattern matches in `haystack`.
    ///
    /// - Complexity: O(haystack bytes); stops at the first match where the engine can.
    public func isMatch(in haystack: [UInt8]) -> Bool {
        haystack.withUnsafeBufferPointer { strategy.isMatch(in: $0) }
    }

    /// `true` when some pattern matches in the string's UTF-8.
    public func isMatch(in haystack: String) -> Bool { isMatch(in: Array(haystack.utf8)) }

    /// `true` when a haystack of many records split on `byte` can be searched in one
    /// pass with each match attributed to the record around it: no match can contain
    /// `byte`, and nothing depends on where the haystack starts (literals only; a
    /// delimiter is a non-word byte, so whole-word boundaries are unchanged). An empty
    /// pattern rules it out: it would also match after the final delimiter, a position
    /// that belongs to no record.
    public func canSearchAcross(delimiter byte: UInt8) -> Bool { strategy.canSearchAcross(delimiter: byte) }

    /// Calls `body` with one match of each record of `region` that has one, in order
    /// (see ``SearchStrategy/forEachRecordMatch(in:delimiter:_:)``).
    ///
    /// ```swift
    /// matcher.forEachRecordMatch(in: block, delimiter: 0x0A) { m in selected += 1; return true }
    /// ```
    /// - Complexity: O(bytes up to each record's first match + records).
    @inline(__always)
    public func forEachRecordMatch(in region: UnsafeBufferPointer<UInt8>, delimiter byte: UInt8,
                                   _ body: (Match) -> Bool) {
        strategy.forEachRecordMatch(in: region, delimiter: byte, body)
    }
}
