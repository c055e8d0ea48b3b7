import AutomatonCore
import LiteralAutomata
import RegexAutomata

/// How overlapping candidates become the reported matches (the literal engines' kinds:
/// leftmost-first, leftmost-longest, overlapping). Regexes are always leftmost-first.
public typealias MatchKind = LiteralAutomata.MatchKind

/// One matcher for a list of patterns: it picks the engine once, when it is built —
/// KMP for one literal word, Aho-Corasick for several, the regex DFA for regex
/// patterns — and every search switches on that choice outside the byte loop.
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
    }

    /// Indirect: a copy of the engine (each `switch` that binds a payload) is one retain,
    /// not a field-by-field copy of the automata (PERF: `match -c the` spent 35 % of its
    /// instructions copying a `RegexAutomaton` per matching line).
    indirect enum Engine: Sendable {
        case empty
        case kmp(SingleLiteralSearcher)
        case ahoCorasick(AhoCorasick)
        case regex(RegexAutomaton)
        /// A regex that is an alternation of literals: the literal engine searches,
        /// the regex automaton is kept for export and statistics.
        case regexLiterals(RegexLiterals, RegexAutomaton)
    }

    let engine: Engine
    /// The options the matcher was built with.
    public let options: Options
    /// The patterns, by id.
    public let patterns: [[UInt8]]
    /// 256 flags: byte b can be part of a literal match.
    private let literalBytes: [Bool]
    /// For regexes: 256 flags (byte b may occur in a match) and whether a match may
    /// depend on where a record starts or ends (see ``canSearchAcross(delimiter:)``).
    private var regexShape: RegexShape? = nil

    struct RegexShape: Sendable {
        var bytes: [Bool]
        /// `^`/`$` without `m`, `\A`, `\z`: never across records.
        var needsRecordEdges: Bool
        /// An empty match: across line records only (the reader drops the one after
        /// a block's last delimiter).
        var canMatchEmpty: Bool
        /// `(?m)^`/`$`: across `\n`-delimited records only.
        var usesLineAnchors: Bool

        /// The shape of the patterns `hirs` (as written, before `-w` wraps them).
        init(_ hirs: [Hir], canMatchEmpty: Bool) {
            bytes = [Bool](repeating: false, count: 256)
            needsRecordEdges = false
            self.canMatchEmpty = canMatchEmpty
            usesLineAnchors = false
            for hir in hirs {
                let (used, looks) = hir.bytesAndLooks
                for b in 0..<256 where used[b] { bytes[b] = true }
                if looks.contains(.textStart) || looks.contains(.textEnd) { needsRecordEdges = true }
                if looks.contains(.lineStart) || looks.contains(.lineEnd) { usesLineAnchors = true }
            }
        }
    }

    /// For a regex over line records: the required literals that lead a line-oriented
    /// search to the lines worth running the DFA on (``forEachRecordMatch(in:delimiter:_:)``).
    private(set) var lineCandidates: LineCandidates? = nil
    /// Some regex pattern matches the empty string with no assertion (`''`, `a*`): then
    /// every record holds a match, and selecting records needs no search.
    private(set) var matchesEveryRecord = false

    /// Literals searched by the regex automaton in another order (see
    /// `compileLiterals`): the literal's index for each automaton pattern id; nil
    /// when they coincide.
    private(set) var literalWordOrder: [Int]? = nil
    /// The literal engine reports words that may fail grep's `-w` rule (overlapping
    /// matches of words that are not word-bounded): ``forEachWholeWordMatch`` filters.
    private(set) var literalWordsFiltered = false

    /// Builds a matcher for `patterns` (UTF-8 strings).
    public init(patterns: [String], options: Options) throws(TurnstileError) {
        try self.init(bytePatterns: patterns.map { Array($0.utf8) }, options: options)
    }

    /// A word matcher around an Aho-Corasick automaton loaded from a saved rule set,
    /// which was checked to be built from `patterns` with `options`.
    init(patterns: [[UInt8]], options: Options, loaded automaton: AhoCorasick) {
        self.options = options
        self.patterns = patterns
        self.literalBytes = Self.literalBytes(of: patterns, caseInsensitive: options.caseInsensitive)
        literalWordsFiltered = options.wholeWord && !automaton.isWholeWord
        engine = .ahoCorasick(automaton)
    }

    /// 256 flags: byte b occurs in some pattern (either case when case-insensitive).
    private static func literalBytes(of patterns: [[UInt8]], caseInsensitive: Bool) -> [Bool] {
        var bytes = [Bool](repeating: false, count: 256)
        for p in patterns {
            for b in p {
                bytes[Int(b)] = true
                if caseInsensitive, isASCIILetter(b) {
                    bytes[Int(b | 0x20)] = true
                    bytes[Int(b & ~0x20)] = true
                }
            }
        }
        return bytes
    }

    /// Builds a matcher for `patterns` given as raw bytes (for `-f` files that are not UTF-8).
    ///
    /// - Throws: ``TurnstileError`` for a regex syntax error (with the pattern and
    ///   offset), a size limit, or a match kind regexes do not have.
    public init(bytePatterns patterns: [[UInt8]], options: Options) throws(TurnstileError) {
        self.options = options
        self.patterns = patterns
        self.literalBytes = Self.literalBytes(of: patterns, caseInsensitive: options.caseInsensitive)
        if patterns.isEmpty {
            engine = .empty
            return
        }
        switch options.syntax {
        case .regex:
            if options.matchKind != .leftmostFirst {
                throw TurnstileError(.invalidOptions(
                    "--match-kind \(options.matchKind) needs literal patterns (-F); regexes are leftmost-first"))
            }
            let (regex, hirs, searched) = try Self.compileRegex(patterns, options: options)
            regexShape = RegexShape(searched, canMatchEmpty: regex.canMatchEmpty)
            do {
                if !options.wholeLine,
                   let literals = try RegexLiterals(hirs: hirs, prefilter: options.prefilter, wholeWord: options.wholeWord) {
                    engine = .regexLiterals(literals, regex)
                    return
                }
            } catch {
                throw TurnstileError(.automaton(error))
            }
            engine = .regex(regex)
            lineCandidates = Self.lineCandidates(searched, options: options)
            matchesEveryRecord = searched.contains { $0.minimumLength == 0 && $0.bytesAndLooks.looks.isEmpty }
        case .literal:
            if options.wholeLine, options.matchKind == .overlapping {
                throw TurnstileError(.invalidOptions("whole-line matching (-x) needs leftmost matches, not --match-kind overlapping"))
            }
            if options.matchKind != .overlapping,
               options.wholeLine || (options.wholeWord && !patterns.allSatisfy(Self.isWordBounded)) {
                // Whole lines, or words that start or end with a non-word byte (`=`,
                // `-foo`, `@x@`, the empty word, where grep's rule is not `\b…\b`): the
                // regex automaton searches the literals between the anchors.
                let (regex, order, searched) = try Self.compileLiterals(patterns, options: options)
                regexShape = RegexShape(searched, canMatchEmpty: regex.canMatchEmpty)
                literalWordOrder = order
                engine = .regex(regex)
                lineCandidates = Self.lineCandidates(searched, options: options)
                return
            }
            // The engines' whole-word filter is `\b`, grep's rule only for word-bounded
            // words; overlapping matches of other words are filtered afterwards.
            var engineOptions = options
            engineOptions.wholeWord = Self.engineWholeWord(patterns, options: options)
            literalWordsFiltered = options.wholeWord && !engineOptions.wholeWord
            do {
                if patterns.count == 1 {
                    engine = .kmp(try SingleLiteralSearcher(
                        patterns[0], asciiCaseInsensitive: options.caseInsensitive, wholeWord: engineOptions.wholeWord,
                        leftmost: options.matchKind.isLeftmost, prefilter: options.prefilter,
                        limits: options.effectiveLimits))
                } else {
                    engine = .ahoCorasick(try AhoCorasick.Builder()
                        .matchKind(options.matchKind)
                        .prefilter(options.prefilter)
                        .asciiCaseInsensitive(options.caseInsensitive)
                        .wholeWord(engineOptions.wholeWord)
                        .limits(options.effectiveLimits)
                        .build(patterns))
                }
            } catch {
                throw TurnstileError(.automaton(error))
            }
        }
    }

    /// The line-candidate strategy for the regex patterns `hirs`, when records are lines
    /// and prefilters are on.
    private static func lineCandidates(_ hirs: [Hir], options: Options) -> LineCandidates? {
        guard options.lineRecords, options.prefilter else { return nil }
        return LineCandidates(hirs: hirs)
    }

    /// The regex automaton, the parsed patterns (for line records without `\n`; before
    /// `-w` or `-x` wraps them) and the patterns it searches.
    private static func compileRegex(_ patterns: [[UInt8]], options: Options) throws(TurnstileError)
        -> (RegexAutomaton, [Hir], [Hir]) {
        let compiler = RegexCompiler()
            .limits(options.effectiveLimits)
            .caseInsensitive(options.caseInsensitive)
            .multiLine(options.lineRecords)
            .bytes(options.bytesMode)
            .ucp(options.ucp)
            .prefilter(options.prefilter)
        var hirs: [Hir] = []
        var parsed: [Hir] = []
        for (index, pattern) in patterns.enumerated() {
            do {
                let hir = try RegexSyntax.parse(pattern, options: compiler.syntax)
                let line = options.lineRecords ? hir.withoutNewline() : hir
                parsed.append(line)
                hirs.append(anchored(line, options: options))
            } catch {
                throw TurnstileError(.regexSyntax(error, patternIndex: index))
            }
        }
        do {
            return (try compiler.compile(hirs: hirs), parsed, hirs)
        } catch {
            throw TurnstileError(.regex(error))
        }
    }

    /// `hir` as `-x` or `-w` asks: between line (or haystack) edges, or between
    /// grep's half word boundaries.
    private static func anchored(_ hir: Hir, options: Options) -> Hir {
        if options.wholeLine {
            return .concat([.look(options.lineRecords ? .lineStart : .textStart), hir,
                            .look(options.lineRecords ? .lineEnd : .textEnd)])
        }
        return options.wholeWord ? wordRuleHir(hir) : hir
    }

    /// `hir` between grep's half word boundaries: no word byte before the match, none
    /// after it. Unlike `\b…\b` this also holds for a match that starts or ends with a
    /// non-word byte (`-w '='` matches `x = 1`), and a match that fails it gives way to
    /// a shorter one at the same start, then to later starts, as in grep.
    private static func wordRuleHir(_ hir: Hir) -> Hir {
        .concat([.look(.wordStartHalf), hir, .look(.wordEndHalf)])
    }

    /// Whether a `-w` literal starts and ends with an ASCII word byte, where `\b` and
    /// grep's rule agree (the literal engines' whole-word filter is `\b`).
    private static func isWordBounded(_ pattern: [UInt8]) -> Bool {
        guard let first = pattern.first, let last = pattern.last else { return false }
        return isASCIIWordByte(first) && isASCIIWordByte(last)
    }

    /// Whether the literal engines filter whole words themselves (`\b`, which is
    /// grep's rule when every word is word-bounded); otherwise ``forEachWholeWordMatch``
    /// filters their overlapping matches.
    static func engineWholeWord(_ patterns: [[UInt8]], options: Options) -> Bool {
        options.wholeWord && !options.wholeLine && patterns.allSatisfy(isWordBounded)
    }

    /// A literal as a Hir (ASCII letters in both cases when case-insensitive).
    private static func literalHir(_ pattern: [UInt8], options: Options) -> Hir {
        guard options.caseInsensitive else { return .literal(pattern) }
        return .concat(pattern.map { b in
            isASCIILetter(b) ? .byteClass([(b & ~0x20)...(b & ~0x20), (b | 0x20)...(b | 0x20)]) : .literal([b])
        })
    }

    /// `-F -x` lines, or `-F -w` words that are not all word-bounded, as one regex
    /// automaton: each literal between the anchors, longest first under
    /// leftmost-longest (grep -F -o; with -x every match is the whole line). Returns
    /// the automaton, for each of its pattern ids the literal's index (nil when they
    /// coincide), and the patterns it searches.
    private static func compileLiterals(_ patterns: [[UInt8]], options: Options) throws(TurnstileError)
        -> (RegexAutomaton, [Int]?, [Hir]) {
        var order = Array(patterns.indices)
        if options.matchKind == .leftmostLongest && !options.wholeLine {
            order.sort { patterns[$0].count > patterns[$1].count || (patterns[$0].count == patterns[$1].count && $0 < $1) }
        }
        let compiler = RegexCompiler().limits(options.effectiveLimits).multiLine(options.lineRecords)
            .bytes(options.bytesMode).prefilter(options.prefilter)
        let hirs = order.map { i in
            let literal = literalHir(patterns[i], options: options)
            return anchored(options.lineRecords ? literal.withoutNewline() : literal, options: options)
        }
        do {
            return (try compiler.compile(hirs: hirs), order == Array(patterns.indices) ? nil : order, hirs)
        } catch {
            throw TurnstileError(.regex(error))
        }
    }

    /// Number of patterns (ids are 0..<patternCount).
    public var patternCount: Int { patterns.count }

    /// The engine chosen.
    public var representation: Representation {
        switch engine {
        case .empty: return .empty
        case .kmp: return .kmp
        case .ahoCorasick: return .ahoCorasick
        case .regex, .regexLiterals: return .regex
        }
    }

    /// Size and shape of the automaton.
    public var statistics: Statistics {
        switch engine {
        case .empty:
            return Statistics(representation: .empty, storage: "none", patterns: 0, states: 1, byteClasses: 1, memoryBytes: 0)
        case .kmp(let s):
            let st = s.kmp.statistics
            return Statistics(representation: .kmp, storage: st.representation.description, patterns: 1,
                              states: st.stateCount, byteClasses: st.byteClassCount, memoryBytes: st.memoryBytes)
        case .ahoCorasick(let ac):
            let st = ac.statistics
            return Statistics(representation: .ahoCorasick, storage: st.representation.description,
                              patterns: st.patternCount, states: st.stateCount, byteClasses: st.byteClassCount,
                              memoryBytes: st.memoryBytes)
        case .regex(let r), .regexLiterals(_, let r):
            if let f = r.forwardDFA {
                let memory = f.memoryBytes + (r.reverseDFA?.memoryBytes ?? 0)
                return Statistics(representation: .regex, storage: "dense DFA (forward + reverse)",
                                  patterns: r.patternCount, states: f.stateCount, byteClasses: f.byteClasses.count,
                                  memoryBytes: memory)
            }
            return Statistics(representation: .regex, storage: "lazy DFA", patterns: r.patternCount,
                              states: 0, byteClasses: 0, memoryBytes: 0)
        }
    }

    /// The main dense automaton, when there is one (for DOT export and saving): the
    /// KMP or Aho-Corasick table, or the regex's forward DFA.
    public var denseDFA: DenseDFA? {
        switch engine {
        case .empty: return nil
        case .kmp(let s): return s.dfa
        case .ahoCorasick(let ac): return ac.denseDFA
        case .regex(let r), .regexLiterals(_, let r): return r.forwardDFA
        }
    }

    /// Appends every match in `haystack` to `matches`, offsets relative to
    /// `haystack`, in the order the match kind defines (by start for the leftmost
    /// kinds, by end for overlapping). The haystack's edges are text start and end
    /// (for whole words and anchors).
    ///
    /// - Complexity: O(haystack bytes + matches).
    public func appendMatches(in haystack: UnsafeBufferPointer<UInt8>, to matches: inout [Match]) {
        if checksWholeWords {
            return forEachWholeWordMatch(in: haystack, from: 0) { matches.append($0); return true }
        }
        switch engine {
        case .empty:
            return
        case .kmp(let s):
            s.appendMatches(in: haystack, to: &matches)
        case .ahoCorasick(let ac):
            ac.forEachMatch(in: haystack) { m in
                matches.append(m)
                return true
            }
        case .regex(let r):
            matches.append(contentsOf: r.matches(in: haystack))
        case .regexLiterals(let l, _):
            l.forEachMatch(in: haystack, from: 0) { m in
                matches.append(m)
                return true
            }
        }
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
        if checksWholeWords { return forEachWholeWordMatch(in: haystack, from: from, body) }
        // A regex's matches are those of the whole-haystack search: it starts at 0,
        // unless no match can hold the byte before `from` (a record delimiter of a
        // block searched across records) — then a search begun at `from` finds the same.
        // (Asked of the regex engine only: the question costs a literal engine time.)
        var regexStart = 0
        if case .regex = engine, from > 0, canSearchAcross(delimiter: haystack[from - 1]) { regexStart = from }
        forEachEngineMatch(in: haystack, from: from, regexStart: regexStart, body)
    }

    /// The one dispatch over the engines: the chosen engine's matches that start at or
    /// after `from`, in order, pattern ids as the caller gave them. Literal engines
    /// search from `from`; a regex searches from `regexStart` (<= `from`) and its
    /// matches before `from` are skipped. `body` returns `false` to stop.
    @inline(__always)
    func forEachEngineMatch(
        in haystack: UnsafeBufferPointer<UInt8>, from: Int, regexStart: Int, _ body: (Match) -> Bool
    ) {
        switch engine {
        case .empty:
            return
        case .kmp(let s):
            s.forEachMatch(in: haystack, from: from, body)
        case .ahoCorasick(let ac):
            ac.forEachMatch(in: haystack, from: from, body)
        case .regex(let r):
            var cursor = r.makeMatchCursor(from: regexStart)
            guard let order = literalWordOrder else {
                return r.forEachMatch(in: haystack, after: &cursor) { m in m.start < from || body(m) }
            }
            // Whole words compiled as one regex: ids back in the order given.
            r.forEachMatch(in: haystack, after: &cursor) { m in
                m.start < from || body(Match(pattern: order[m.pattern], start: m.start, end: m.end))
            }
        case .regexLiterals(let l, _):
            l.forEachMatch(in: haystack, from: from, body)
        }
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
        if checksWholeWords { return haystack.withUnsafeBufferPointer { firstMatch(in: $0) } }
        switch engine {
        case .empty: return nil
        case .ahoCorasick(let ac): return ac.firstMatch(in: haystack)
        case .regex(let r): return r.firstMatch(in: haystack)
        case .kmp, .regexLiterals: return matches(in: haystack).first
        }
    }

    /// The first match in the string's UTF-8, or nil.
    public func firstMatch(in haystack: String) -> Match? { firstMatch(in: Array(haystack.utf8)) }

    /// `true` when some pattern matches in `haystack`.
    ///
    /// - Complexity: O(haystack bytes); stops at the first match where the engine can.
    public func isMatch(in haystack: [UInt8]) -> Bool {
        if checksWholeWords { return firstMatch(in: haystack) != nil }
        switch engine {
        case .empty: return false
        case .ahoCorasick(let ac): return ac.isMatch(in: haystack)
        case .regex(let r): return r.isMatch(in: haystack)
        case .kmp, .regexLiterals: return !matches(in: haystack).isEmpty
        }
    }

    /// `true` when some pattern matches in the string's UTF-8.
    public func isMatch(in haystack: String) -> Bool { isMatch(in: Array(haystack.utf8)) }

    /// `true` when a haystack of many records split on `byte` can be searched in one
    /// pass with each match attributed to the record around it: no match can contain
    /// `byte`, and nothing depends on where the haystack starts (literals only; a
    /// delimiter is a non-word byte, so whole-word boundaries are unchanged). An empty
    /// pattern rules it out: it would also match after the final delimiter, a position
    /// that belongs to no record.
    public func canSearchAcross(delimiter byte: UInt8) -> Bool {
        switch engine {
        case .empty: return true
        case .kmp, .ahoCorasick:
            return !literalBytes[Int(byte)] && !isASCIIWordByte(byte) && !patterns.contains(where: \.isEmpty)
        case .regexLiterals(let l, _): return l.cannotContain(byte)
        case .regex:
            // The regex DFA over a block finds each record's matches when no match can
            // hold the delimiter and nothing depends on the record's edges (a
            // delimiter is a non-word byte, so `\b` sees what it saw in the record).
            // PERF: regex_throughput.py 'https?://[a-z0-9.-]+'.
            guard let shape = regexShape else { return false }
            return !shape.bytes[Int(byte)] && !isASCIIWordByte(byte) && !shape.needsRecordEdges
                && (!shape.usesLineAnchors || byte == 0x0A)
                && (!shape.canMatchEmpty || (options.lineRecords && byte == 0x0A))
        }
    }
}
