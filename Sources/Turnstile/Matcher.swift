/// One matcher for a list of patterns: it picks the engine once, when it is built —
/// KMP for one literal word, Aho-Corasick for several, the regex DFA for regex
/// patterns — and every search switches on that choice outside the byte loop.
///
/// ```swift
/// var options = Matcher.Options()
/// options.syntax = .literal
/// options.caseInsensitive = true
/// let matcher = try Matcher(patterns: ["winner", "free entry"], options: options)
/// matcher.matches(in: Array("You are a WINNER!".utf8))   // [0:[10,16)]
/// ```
///
/// - Complexity: building is O(total pattern bytes × byte classes) for literals;
///   searching is O(haystack bytes + matches).
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
        /// Several literals: an Aho-Corasick DFA.
        case ahoCorasick = "aho-corasick"
        /// Regular expressions: a DFA from the regex compiler.
        case regexDFA = "regex-dfa"
    }

    /// Build options. The defaults are regex syntax, case-sensitive, leftmost-first.
    public struct Options: Sendable, Hashable {
        public var syntax: Syntax = .regex
        /// ASCII case folding.
        public var caseInsensitive = false
        /// Only matches bounded by non-word bytes (or the haystack's edges) count.
        public var wholeWord = false
        /// Regex bytes mode (`.` matches any byte) instead of UTF-8 mode.
        public var bytesMode = false
        /// Which matches are reported; ``MatchKind/overlapping`` and
        /// ``MatchKind/leftmostLongest`` need literal syntax.
        public var matchKind: MatchKind = .leftmostFirst
        /// Size limits for the automaton.
        public var limits = Limits()

        public init() {}
    }

    /// Size and shape of the built automaton, for `turnstile compile --stats`.
    public struct Statistics: Sendable, Hashable {
        public var representation: Representation
        public var patterns: Int
        public var states: Int
        public var byteClasses: Int
        public var memoryBytes: Int
    }

    enum Engine: Sendable {
        case empty
        /// The in-module Aho-Corasick stand-in; see `LiteralSetSearcher.swift`.
        case literals(LiteralSetSearcher)
    }

    let engine: Engine
    /// The options the matcher was built with.
    public let options: Options
    /// The patterns, by id.
    public let patterns: [[UInt8]]

    /// Builds a matcher for `patterns` (UTF-8 strings).
    public init(patterns: [String], options: Options) throws(TurnstileError) {
        try self.init(bytePatterns: patterns.map { Array($0.utf8) }, options: options)
    }

    /// Builds a matcher for `patterns` given as raw bytes (for `-f` files that are not UTF-8).
    ///
    /// - Throws: ``TurnstileError`` for a regex syntax error, a size limit, an
    ///   unsupported combination of options, or an engine this build does not have.
    public init(bytePatterns patterns: [[UInt8]], options: Options) throws(TurnstileError) {
        self.options = options
        self.patterns = patterns
        if patterns.isEmpty {
            engine = .empty
            return
        }
        switch options.syntax {
        case .regex:
            if options.matchKind != .leftmostFirst {
                throw TurnstileError(.invalidOptions(
                    "--match-kind \(options.matchKind.rawValue) needs literal patterns (-F)"))
            }
            throw TurnstileError(.unsupported("regex patterns are not yet supported; use -F"))
        case .literal:
            do {
                engine = .literals(try LiteralSetSearcher(
                    patterns: patterns, caseInsensitive: options.caseInsensitive,
                    wholeWord: options.wholeWord, matchKind: options.matchKind, limits: options.limits))
            } catch {
                throw TurnstileError(.automaton(error))
            }
        }
    }

    /// Number of patterns (ids are 0..<patternCount).
    public var patternCount: Int { patterns.count }

    /// The engine chosen.
    public var representation: Representation {
        switch engine {
        case .empty: return .empty
        case .literals: return patterns.count == 1 ? .kmp : .ahoCorasick
        }
    }

    /// Size and shape of the automaton.
    public var statistics: Statistics {
        switch engine {
        case .empty:
            return Statistics(representation: .empty, patterns: 0, states: 1, byteClasses: 1, memoryBytes: 0)
        case .literals(let s):
            return Statistics(
                representation: representation, patterns: patterns.count, states: s.dfa.stateCount,
                byteClasses: s.dfa.byteClasses.count, memoryBytes: s.dfa.memoryBytes)
        }
    }

    /// The underlying dense automaton, when there is one (for DOT export and saving).
    public var denseDFA: DenseDFA? {
        switch engine {
        case .empty: return nil
        case .literals(let s): return s.dfa
        }
    }

    /// Appends every match in `haystack` to `matches`, offsets relative to
    /// `haystack`, in the order the match kind defines. The haystack's edges count
    /// as text start and end (for whole words and anchors).
    ///
    /// - Complexity: O(haystack bytes + matches); no allocation beyond `matches`' growth.
    public func appendMatches(in haystack: UnsafeBufferPointer<UInt8>, to matches: inout [Match]) {
        switch engine {
        case .empty: return
        case .literals(let s): s.appendMatches(in: haystack, to: &matches)
        }
    }

    /// Every match in `haystack`.
    public func matches(in haystack: [UInt8]) -> [Match] {
        var result: [Match] = []
        haystack.withUnsafeBufferPointer { appendMatches(in: $0, to: &result) }
        return result
    }

    /// Every match in the string's UTF-8.
    public func matches(in haystack: String) -> [Match] { matches(in: Array(haystack.utf8)) }

    /// `true` when some pattern matches in `haystack`.
    public func isMatch(in haystack: [UInt8]) -> Bool { !matches(in: haystack).isEmpty }

    /// `true` when no match can contain `byte` and the matcher has no look-around, so
    /// a haystack of many records split on `byte` can be searched in one pass and each
    /// match attributed to the record around it.
    public func canSearchAcross(delimiter byte: UInt8) -> Bool {
        switch engine {
        case .empty: return true
        case .literals(let s): return !s.mayMatch(byte: byte)
        }
    }
}
