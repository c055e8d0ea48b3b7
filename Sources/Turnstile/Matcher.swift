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
        /// Only matches with a word boundary (`\b`) at both ends count.
        public var wholeWord = false
        /// Regex bytes mode (every construct consumes one byte) instead of UTF-8.
        public var bytesMode = false
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

    enum Engine: Sendable {
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
        /// `^`/`$` without `m`, `\A`, `\z`, or an empty match: never across records.
        var needsRecordEdges: Bool
        /// `(?m)^`/`$`: across `\n`-delimited records only.
        var usesLineAnchors: Bool
    }

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
            let (regex, hirs) = try Self.compileRegex(patterns, options: options)
            var shape = RegexShape(bytes: [Bool](repeating: false, count: 256), needsRecordEdges: regex.canMatchEmpty,
                                   usesLineAnchors: false)
            for hir in hirs {
                let (bytes, looks) = hir.bytesAndLooks
                for b in 0..<256 where bytes[b] { shape.bytes[b] = true }
                if looks.contains(.textStart) || looks.contains(.textEnd) { shape.needsRecordEdges = true }
                if looks.contains(.lineStart) || looks.contains(.lineEnd) { shape.usesLineAnchors = true }
            }
            regexShape = shape
            do {
                if let literals = try RegexLiterals(hirs: hirs, prefilter: options.prefilter, wholeWord: options.wholeWord) {
                    engine = .regexLiterals(literals, regex)
                    return
                }
            } catch {
                throw TurnstileError(.automaton(error))
            }
            engine = .regex(regex)
        case .literal:
            do {
                if patterns.count == 1 {
                    engine = .kmp(try SingleLiteralSearcher(
                        patterns[0], asciiCaseInsensitive: options.caseInsensitive, wholeWord: options.wholeWord,
                        leftmost: options.matchKind.isLeftmost, prefilter: options.prefilter,
                        limits: options.effectiveLimits))
                } else {
                    engine = .ahoCorasick(try AhoCorasick.Builder()
                        .matchKind(options.matchKind)
                        .prefilter(options.prefilter)
                        .asciiCaseInsensitive(options.caseInsensitive)
                        .wholeWord(options.wholeWord)
                        .limits(options.effectiveLimits)
                        .build(patterns))
                }
            } catch {
                throw TurnstileError(.automaton(error))
            }
        }
    }

    /// The regex automaton and the parsed patterns (before `-w` wraps them).
    private static func compileRegex(_ patterns: [[UInt8]], options: Options) throws(TurnstileError) -> (RegexAutomaton, [Hir]) {
        let compiler = RegexCompiler()
            .limits(options.effectiveLimits)
            .caseInsensitive(options.caseInsensitive)
            .bytes(options.bytesMode)
            .prefilter(options.prefilter)
        var hirs: [Hir] = []
        var asWritten: [Hir] = []
        for (index, pattern) in patterns.enumerated() {
            do {
                // Parse the pattern as written first, so error offsets point into it.
                var hir = try RegexSyntax.parse(pattern, options: compiler.syntax)
                asWritten.append(hir)
                if options.wholeWord {
                    hir = try RegexSyntax.parse(Array("\\b(?:".utf8) + pattern + Array(")\\b".utf8), options: compiler.syntax)
                }
                hirs.append(hir)
            } catch {
                throw TurnstileError(.regexSyntax(error, patternIndex: index))
            }
        }
        do {
            return (try compiler.compile(hirs: hirs), asWritten)
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
        switch engine {
        case .empty:
            return
        case .kmp(let s):
            s.forEachMatch(in: haystack, from: from, body)
        case .ahoCorasick(let ac):
            ac.forEachMatch(in: haystack, from: from, body)
        case .regex(let r):
            // No match can hold the byte before `from` (a record delimiter of a block
            // searched across records): the whole search's matches from `from` on are
            // those of a search begun there, so skip the bytes before it.
            let start = from > 0 && canSearchAcross(delimiter: haystack[from - 1]) ? from : 0
            for m in r.matches(in: haystack, from: start) where m.start >= from {
                if !body(m) { return }
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
        }
    }
}
