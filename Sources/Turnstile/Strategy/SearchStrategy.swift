// SearchStrategy: how a Matcher searches, chosen once, in one place
// (SearchStrategy+Choice.swift), and named, so that `compile --stats` and
// `--debug-strategy` say which path ran. The automata decide *what* matches; the
// strategy decides *how fast* (regex-automata's `meta::Strategy` is the model). Every
// search primitive switches on the strategy's engine here, in Strategy/, and nowhere
// else: SearchStrategy+Search.swift (matches), +Records.swift (which records hold a
// match), +WholeWords.swift (grep's -w rule over any engine).

import AutomatonCore
import LiteralAutomata
import RegexAutomata

/// The strategy a ``Matcher`` chose: an engine, the wrappers around it (grep's `-w`
/// and `-x`) and the accelerations it searches with (line candidates, every record).
///
/// ```swift
/// var options = Matcher.Options()
/// options.lineRecords = true
/// try Matcher(patterns: ["[A-Z][a-z]+ing"], options: options).strategy.name   // .requiredLiteralLines
/// try Matcher(patterns: ["free|win"], options: .init()).strategy.name           // .literalAlternation
/// ```
public struct SearchStrategy: Sendable {
    /// The named strategies, in the order the chooser considers them.
    public enum Name: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
        /// No patterns: nothing matches.
        case empty = "empty"
        /// One literal: a rare-byte pair prefilter (SIMD memmem) verified by KMP.
        case singleLiteral = "single-literal"
        /// Several literals: Aho-Corasick behind a start-byte, memmem or Teddy prefilter.
        case literalSet = "literal-set"
        /// Literals under `-i` with letters beyond ASCII: every Unicode case variant of
        /// each word in one Aho-Corasick automaton (ASCII letters folded by the
        /// automaton), each variant reporting its word's id.
        case foldedLiteralSet = "folded-literal-set"
        /// A regex that is exactly an alternation of literals (`free|win`,
        /// `(?i)congratulations`): served by a literal engine.
        case literalAlternation = "literal-alternation"
        /// A pattern that matches the empty string anywhere: every record is selected
        /// at its start, no search (line selection only).
        case everyRecord = "every-record"
        /// Line records: a SIMD search for a literal every match must hold, widened
        /// to its line, which the forward DFA alone decides (`^#`, `Holmes$`, `-w`,
        /// `-x`, `[A-Z][a-z]+ing`).
        case requiredLiteralLines = "required-literal-lines"
        /// A regex `P L S` whose inner literal L is rarer than its prefixes and occurs
        /// once in every match (`https?://[a-z0-9.-]+`): memmem finds L, the reverse
        /// DFA of P the match start, the forward DFA anchored there its end.
        case reverseInner = "reverse-inner"
        /// The same with nothing after the literal (`[a-q][^u-z]{13}x`).
        case reverseSuffix = "reverse-suffix"
        /// The dense DFA whose forward scan jumps between occurrences of the regex's
        /// literal prefixes.
        case prefixPrefilterDFA = "prefix-prefilter-dfa"
        /// The full (dense) DFA, forward then reverse.
        case denseDFA = "dense-dfa"
        /// The lazy DFA, built during the search in a bounded cache (the full DFA did
        /// not fit its limits).
        case lazyDFA = "lazy-dfa"

        public var description: String { rawValue }
    }

    /// A rule applied around the engine's matches.
    public enum Wrapper: String, Sendable, Hashable, CustomStringConvertible {
        /// grep's `-w`: no word character on either side.
        case wholeWord = "whole-word"
        /// grep's `-x`: the match is the whole line (or haystack).
        case wholeLine = "whole-line"

        public var description: String { rawValue }
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

    /// The strategy's name (the main path; see ``description`` for the whole of it).
    public let name: Name
    /// The wrapper around the engine, if any.
    public let wrapper: Wrapper?
    let engine: Engine
    /// The options the matcher was built with.
    let options: Matcher.Options
    /// The patterns as the caller gave them, by id.
    let patterns: [[UInt8]]
    /// The literals the literal engine searches (``patterns``, or their case variants
    /// under ``Name/foldedLiteralSet``), by the engine's pattern id.
    let searchedLiterals: [[UInt8]]
    /// 256 flags: byte b can be part of a literal match.
    let literalBytes: [Bool]
    /// For regexes: 256 flags (byte b may occur in a match) and whether a match may
    /// depend on where a record starts or ends (see ``canSearchAcross(delimiter:)``).
    var regexShape: RegexShape? = nil
    /// For a regex over line records: the required literals that lead a line-oriented
    /// search to the lines worth running the DFA on (``forEachRecordMatch(in:delimiter:_:)``).
    var lineCandidates: LineCandidates? = nil
    /// Some regex pattern matches the empty string with no assertion (`''`, `a*`): then
    /// every record holds a match, and selecting records needs no search.
    var matchesEveryRecord = false
    /// The engine's pattern id → the caller's pattern id, when they differ: literals the
    /// regex automaton searches in another order (`-F -w` under leftmost-longest), or
    /// the case variants of ``Name/foldedLiteralSet``.
    var patternOf: [Int]? = nil
    /// The literal engine reports words that may fail grep's `-w` rule (overlapping
    /// matches of words that are not word-bounded): ``forEachWholeWordMatch`` filters.
    var literalWordsFiltered = false

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

    /// Whether matches go through grep's `-w` rule here (`-x` wins over `-w`): the
    /// automata decide the ASCII rule alone, except for literals they report in
    /// another order or unfiltered.
    let checksWholeWords: Bool

    init(engine: Engine, options: Matcher.Options, patterns: [[UInt8]], searchedLiterals: [[UInt8]]? = nil,
         regexShape: RegexShape? = nil, lineCandidates: LineCandidates? = nil, matchesEveryRecord: Bool = false,
         patternOf: [Int]? = nil, literalWordsFiltered: Bool = false) {
        let literals = searchedLiterals ?? patterns
        self.engine = engine
        self.options = options
        self.patterns = patterns
        self.searchedLiterals = literals
        self.literalBytes = Self.literalBytes(of: literals, caseInsensitive: options.caseInsensitive)
        self.regexShape = regexShape
        self.lineCandidates = lineCandidates
        self.matchesEveryRecord = matchesEveryRecord
        self.patternOf = patternOf
        self.literalWordsFiltered = literalWordsFiltered
        self.wrapper = options.wholeLine ? .wholeLine : options.wholeWord ? .wholeWord : nil
        self.checksWholeWords = options.wholeWord && !options.wholeLine
            && ((options.unicodeWords && !options.bytesMode) || (patternOf != nil && Self.isRegex(engine))
                || literalWordsFiltered)
        self.name = matchesEveryRecord ? .everyRecord : lineCandidates != nil ? .requiredLiteralLines
            : Self.engineName(engine, patternOf: patternOf)
    }

    private static func isRegex(_ engine: Engine) -> Bool {
        if case .regex = engine { return true }
        return false
    }

    /// 256 flags: byte b occurs in some pattern (either case when case-insensitive).
    static func literalBytes(of patterns: [[UInt8]], caseInsensitive: Bool) -> [Bool] {
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

    /// The engine under the accelerations: what searches for match positions.
    public var engineName: Name { Self.engineName(engine, patternOf: patternOf) }

    private static func engineName(_ engine: Engine, patternOf: [Int]?) -> Name {
        switch engine {
        case .empty: return .empty
        case .kmp: return .singleLiteral
        case .ahoCorasick: return patternOf == nil ? .literalSet : .foldedLiteralSet
        case .regexLiterals: return .literalAlternation
        case .regex(let r):
            if let inner = r.reverseInner { return inner.isSuffix ? .reverseSuffix : .reverseInner }
            if r.engineKind == .lazy { return .lazyDFA }
            return r.prefilter != nil ? .prefixPrefilterDFA : .denseDFA
        }
    }

    /// The whole strategy in one line, for `--debug-strategy` and `compile --stats`:
    /// the wrapper, the line strategy and the engine with its kernel, e.g.
    /// `whole-word(required-literal-lines ["Holmes"] → dense-dfa)`.
    public var description: String {
        var inner = engineName.rawValue
        switch engine {
        case .kmp(let s): if let k = s.prefilterKernel { inner += " (\(k))" }
        case .ahoCorasick(let ac): if let k = ac.prefilterKernel { inner += " (\(k))" }
        case .regex(let r):
            if let ri = r.reverseInner {
                // "start-bounded": the scans back are bounded (regex-automata's min_start).
                let bound = ri.exactness == .uniqueStart ? ", start-bounded" : ""
                inner += " (\(ri.kernel) \"\(String(decoding: ri.literal, as: UTF8.self))\", \(r.engineKind == .lazy ? "lazy" : "dense")\(bound))"
            } else if let k = r.prefilterKernel { inner += " (\(k))" }
        case .regexLiterals(let l, _): inner += " (\(l.literals.count) literal\(l.literals.count == 1 ? "" : "s"))"
        case .empty: break
        }
        if matchesEveryRecord {
            inner = "\(Name.everyRecord) → \(inner)"
        } else if let lines = lineCandidates {
            let shown = lines.findsEmptyLines ? ["\"\\n\\n\""]
                : lines.literals.literals.prefix(3).map { "\"\(String(decoding: $0, as: UTF8.self))\"" }
            let more = lines.literals.literals.count > 3 ? ", …" : ""
            // `^#`, `Holmes$`: the literal's line edges are checked in place, no DFA runs.
            let edges = lines.edges.map { e in
                " at the line's " + (e.atStart && e.atEnd ? "start and end" : e.atStart ? "start" : "end")
            } ?? ""
            inner = "\(Name.requiredLiteralLines) [\(shown.joined(separator: ", "))\(more)]\(edges) → \(inner)"
        }
        return wrapper.map { "\($0)(\(inner))" } ?? inner
    }
}
