// The chosen strategy's matches, in the package's one search vocabulary
// (MatchSearcher): each primitive switches on the engine once, outside the loop, and
// maps the engine's pattern ids back to the caller's (``SearchStrategy/patternOf``).

import AutomatonCore
import LiteralAutomata
import RegexAutomata

extension SearchStrategy: MatchSearcher {
    /// Where a search stopped (see ``MatchSearcher``): an opaque value.
    public struct MatchCursor {
        var literal = LiteralMatchCursor()
        var regex: RegexAutomaton.MatchCursor?
        /// One literal: the next search starts here; `done` once it found nothing more.
        var position = 0
        var done = false
    }

    public func makeMatchCursor() -> MatchCursor {
        if checksWholeWords && options.matchKind != .overlapping { return MatchCursor() }
        switch engine {
        case .regex(let r): return MatchCursor(regex: r.makeMatchCursor())
        case .regexLiterals(let l, let r) where l.literals.contains(where: \.isEmpty):
            return MatchCursor(regex: r.makeMatchCursor())
        default: return MatchCursor()
        }
    }

    /// A match with the caller's pattern id.
    @inline(__always)
    func callerMatch(_ m: Match) -> Match {
        guard let patternOf else { return m }
        return Match(pattern: patternOf[m.pattern], start: m.start, end: m.end)
    }

    /// `true` when some pattern matches.
    /// - Complexity: O(n), stopping at the first match.
    public func isMatch(in haystack: UnsafeBufferPointer<UInt8>) -> Bool {
        if checksWholeWords { return firstMatch(in: haystack) != nil }
        switch engine {
        case .empty: return false
        case .ahoCorasick(let ac): return ac.isMatch(in: haystack)
        case .regex(let r): return r.isMatch(in: haystack)
        case .kmp, .regexLiterals: return firstMatch(in: haystack) != nil
        }
    }

    /// The first match, or nil.
    /// - Complexity: O(n).
    public func firstMatch(in haystack: UnsafeBufferPointer<UInt8>) -> Match? {
        if checksWholeWords {
            var first: Match? = nil
            forEachWholeWordMatch(in: haystack, from: 0) { first = $0; return false }
            return first
        }
        switch engine {
        case .empty: return nil
        case .ahoCorasick(let ac): return ac.firstMatch(in: haystack).map(callerMatch)
        case .regex(let r): return r.firstMatch(in: haystack)
        case .kmp(let s):
            var first: Match? = nil
            s.forEachMatch(in: haystack, from: 0) { first = $0; return false }
            return first
        case .regexLiterals(let l, _):
            var first: Match? = nil
            l.forEachMatch(in: haystack, from: 0) { first = $0; return false }
            return first
        }
    }

    /// Calls `body` for each match in order; return `false` to stop early.
    /// - Complexity: O(n + matches); no allocation for literal patterns.
    public func forEachMatch(in haystack: UnsafeBufferPointer<UInt8>, _ body: (Match) -> Bool) {
        if checksWholeWords { return forEachWholeWordMatch(in: haystack, from: 0, body) }
        switch engine {
        case .empty: return
        case .kmp(let s): s.forEachMatch(in: haystack, from: 0, body)
        case .ahoCorasick(let ac):
            guard patternOf != nil else { return ac.forEachMatch(in: haystack, body) }
            ac.forEachMatch(in: haystack) { body(callerMatch($0)) }
        case .regex(let r): r.forEachMatch(in: haystack, body)
        case .regexLiterals(let l, _): l.forEachMatch(in: haystack, from: 0, body)
        }
    }

    /// Calls `body` for each match that starts at or after `from`, in order, as if the
    /// search began there (the bytes before `from` decide whole-word boundaries). With
    /// regexes, the matches of the whole-haystack search that start at or after `from`.
    func forEachMatch(in haystack: UnsafeBufferPointer<UInt8>, from: Int, _ body: (Match) -> Bool) {
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
            guard patternOf != nil else { return ac.forEachMatch(in: haystack, from: from, body) }
            ac.forEachMatch(in: haystack, from: from) { body(callerMatch($0)) }
        case .regex(let r):
            var cursor = r.makeMatchCursor(from: regexStart)
            guard patternOf != nil else {
                return r.forEachMatch(in: haystack, after: &cursor) { m in m.start < from || body(m) }
            }
            // Whole words compiled as one regex: ids back in the order given.
            r.forEachMatch(in: haystack, after: &cursor) { m in m.start < from || body(callerMatch(m)) }
        case .regexLiterals(let l, _):
            l.forEachMatch(in: haystack, from: from, body)
        }
    }

    public func forEachMatch(in haystack: UnsafeBufferPointer<UInt8>, after cursor: inout MatchCursor,
                             _ body: (Match) -> Bool) {
        if checksWholeWords && options.matchKind == .overlapping {
            // Every occurrence is reported: the engine's cursor resumes, and those that
            // fail grep's rule are left out.
            let unicode = options.unicodeWords && !options.bytesMode
            return forEachEngineMatch(in: haystack, after: &cursor) { m in
                isWholeWord(m, in: haystack, unicode: unicode) ? body(m) : true
            }
        }
        if checksWholeWords {
            // grep's -w rule: the search resumes at the last end (one past an empty match).
            guard !cursor.done, cursor.position <= haystack.count else { return }
            var stopped = false
            forEachWholeWordMatch(in: haystack, from: cursor.position) { m in
                cursor.position = m.isEmpty ? m.end + 1 : m.end
                if !body(m) { stopped = true; return false }
                return true
            }
            if !stopped { cursor.done = true }
            return
        }
        forEachEngineMatch(in: haystack, after: &cursor, body)
    }

    /// The engine's own matches after `cursor` (see ``forEachMatch(in:after:_:)``).
    private func forEachEngineMatch(in haystack: UnsafeBufferPointer<UInt8>, after cursor: inout MatchCursor,
                                    _ body: (Match) -> Bool) {
        switch engine {
        case .empty:
            return
        case .ahoCorasick(let ac):
            guard patternOf != nil else { return ac.forEachMatch(in: haystack, after: &cursor.literal, body) }
            ac.forEachMatch(in: haystack, after: &cursor.literal) { body(callerMatch($0)) }
        case .regex(let r):
            guard var c = cursor.regex else { return }
            r.forEachMatch(in: haystack, after: &c, body)
            cursor.regex = c
        case .regexLiterals(let l, let r):
            // Leftmost-first literals: the search resumes at the last match's end. An
            // empty literal would need PCRE2's rule after an empty match, which the
            // regex automaton's cursor (same matches) keeps.
            if var c = cursor.regex {
                r.forEachMatch(in: haystack, after: &c, body)
                cursor.regex = c
                return
            }
            guard !cursor.done, cursor.position <= haystack.count else { return }
            var stopped = false
            l.forEachMatch(in: haystack, from: cursor.position) { m in
                cursor.position = m.end
                if !body(m) { stopped = true; return false }
                return true
            }
            if !stopped { cursor.done = true }
        case .kmp(let s):
            // One pattern: overlapping occurrences come in start order, one per start,
            // so the search resumes one byte after the last start; leftmost ones resume
            // at the last end (one past it after an empty match).
            guard !cursor.done, cursor.position <= haystack.count else { return }
            var stopped = false
            s.forEachMatch(in: haystack, from: cursor.position) { m in
                cursor.position = s.leftmost && !m.isEmpty ? m.end : m.start + 1
                if !body(m) { stopped = true; return false }
                return true
            }
            if !stopped { cursor.done = true }
        }
    }

    /// `true` when a haystack of many records split on `byte` can be searched in one
    /// pass with each match attributed to the record around it (see
    /// ``Matcher/canSearchAcross(delimiter:)``).
    func canSearchAcross(delimiter byte: UInt8) -> Bool {
        switch engine {
        case .empty: return true
        case .kmp, .ahoCorasick:
            // PERF: a closure, not a key path (`\.isEmpty`: 1.5 M instructions over the built-in list).
            return !literalBytes[Int(byte)] && !isASCIIWordByte(byte) && !searchedLiterals.contains(where: { $0.isEmpty })
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

    // MARK: What was built

    /// The engine's kind, as ``Matcher/representation`` reports it.
    var representation: Matcher.Representation {
        switch engine {
        case .empty: return .empty
        case .kmp: return .kmp
        case .ahoCorasick: return .ahoCorasick
        case .regex, .regexLiterals: return .regex
        }
    }

    /// Size and shape of the automaton.
    var statistics: Matcher.Statistics {
        var stats: Matcher.Statistics
        switch engine {
        case .empty:
            stats = Matcher.Statistics(representation: .empty, storage: "none", patterns: 0, states: 1, byteClasses: 1,
                                       memoryBytes: 0)
        case .kmp(let s):
            let st = s.kmp.statistics
            stats = Matcher.Statistics(representation: .kmp, storage: st.representation.description, patterns: 1,
                                       states: st.stateCount, byteClasses: st.byteClassCount, memoryBytes: st.memoryBytes)
        case .ahoCorasick(let ac):
            let st = ac.statistics
            stats = Matcher.Statistics(representation: .ahoCorasick, storage: st.representation.description,
                                       patterns: patterns.count, states: st.stateCount, byteClasses: st.byteClassCount,
                                       memoryBytes: st.memoryBytes)
        case .regex(let r), .regexLiterals(_, let r):
            if let f = r.forwardDFA {
                let memory = f.memoryBytes + (r.reverseDFA?.memoryBytes ?? 0)
                stats = Matcher.Statistics(representation: .regex, storage: "dense DFA (forward + reverse)",
                                           patterns: r.patternCount, states: f.stateCount,
                                           byteClasses: f.byteClasses.count, memoryBytes: memory)
            } else {
                stats = Matcher.Statistics(representation: .regex, storage: "lazy DFA", patterns: r.patternCount,
                                           states: 0, byteClasses: 0, memoryBytes: 0)
            }
        }
        stats.strategy = description
        return stats
    }

    /// The main dense automaton, when there is one (for DOT export and saving): the
    /// KMP or Aho-Corasick table, or the regex's forward DFA.
    var denseDFA: DenseDFA? {
        switch engine {
        case .empty: return nil
        case .kmp(let s): return s.dfa
        case .ahoCorasick(let ac): return ac.denseDFA
        case .regex(let r), .regexLiterals(_, let r): return r.forwardDFA
        }
    }
}
