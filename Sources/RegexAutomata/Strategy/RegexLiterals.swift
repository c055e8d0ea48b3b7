// The literal-alternation strategy: a regex that is nothing but an alternation of
// literals (a LiteralSet with `isExact`, e.g. `free|win|winner` or
// `(?i)congratulations`) is served by a literal engine — the rare-byte/KMP searcher
// for one literal, Aho-Corasick (leftmost-first) for several — which finds exactly the
// regex DFA's matches: at the leftmost start the first literal in priority order
// wins, as in PCRE2. Chosen once, when a Matcher is built (Turnstile's facade only
// chooses); the regex automaton is still built (for DOT export, saving and statistics).
//
// Not used with whole words (`-w` wraps the regex in `\b(?:…)\b`, which a literal
// engine's whole-word filter does not reproduce under leftmost-first priority: at one
// start `win` would be tried before `winner`), nor when prefilters are off (the
// option that forces the plain DFA).

import AutomatonCore
import LiteralAutomata

/// A regex (or regex list) served by a literal engine.
package struct RegexLiterals: Sendable {
    package enum Searcher: Sendable {
        case single(SingleLiteralSearcher)
        case ahoCorasick(AhoCorasick)
    }

    package let searcher: Searcher
    /// The literals, in priority order (ASCII letters lowercased when case-insensitive).
    package let literals: [[UInt8]]
    /// Literal id → regex pattern id; nil when they coincide.
    package let patternOf: [Int]?
    package let caseInsensitive: Bool

    /// The literal engine for `hirs`, or nil when some pattern is not exactly an
    /// alternation of non-empty literals, or the patterns disagree on case folding
    /// (and always without prefilters, or for whole words).
    package init?(hirs: [Hir], prefilter: Bool, wholeWord: Bool) throws(AutomatonError) {
        guard prefilter, !wholeWord, !hirs.isEmpty else { return nil }
        var literals: [[UInt8]] = []
        var patternOf: [Int] = []
        var seen = Set<[UInt8]>()
        var folded: Bool? = nil
        for (id, hir) in hirs.enumerated() {
            guard let set = LiteralSet.prefixes(of: hir), set.isExact else { return nil }
            if let folded, folded != set.isASCIICaseInsensitive { return nil }
            folded = set.isASCIICaseInsensitive
            // A literal seen before can never win (same start, lower priority).
            for lit in set.literals where seen.insert(lit).inserted {
                literals.append(lit)
                patternOf.append(id)
            }
        }
        let caseInsensitive = folded ?? false
        if literals.count == 1 {
            searcher = .single(try SingleLiteralSearcher(literals[0], asciiCaseInsensitive: caseInsensitive,
                                                         wholeWord: false, leftmost: true, prefilter: true,
                                                         limits: Limits()))
        } else {
            searcher = .ahoCorasick(try AhoCorasick.Builder()
                .matchKind(.leftmostFirst)
                .asciiCaseInsensitive(caseInsensitive)
                .build(literals))
        }
        self.literals = literals
        self.patternOf = patternOf.enumerated().allSatisfy { $0.offset == $0.element } ? nil : patternOf
        self.caseInsensitive = caseInsensitive
    }

    /// Calls `body` for each match starting at or after `from`, pattern ids those of
    /// the regexes; `body` returns false to stop.
    @inline(__always)
    package func forEachMatch(in haystack: UnsafeBufferPointer<UInt8>, from: Int, _ body: (Match) -> Bool) {
        switch searcher {
        case .single(let s):
            guard let patternOf else { return s.forEachMatch(in: haystack, from: from, body) }
            s.forEachMatch(in: haystack, from: from) { m in body(Match(pattern: patternOf[m.pattern], start: m.start, end: m.end)) }
        case .ahoCorasick(let ac):
            guard let patternOf else { return ac.forEachMatch(in: haystack, from: from, body) }
            ac.forEachMatch(in: haystack, from: from) { m in body(Match(pattern: patternOf[m.pattern], start: m.start, end: m.end)) }
        }
    }

    /// The single-literal line search (``SingleLiteralSearcher/forEachRecordWithOccurrence(in:from:delimiter:_:)``)
    /// when this is one literal: nil when done, else where the caller goes on.
    package func forEachRecordWithOccurrence(
        in h: UnsafeBufferPointer<UInt8>, from: Int, delimiter: UInt8, _ body: (Match) -> Bool
    ) -> Int? {
        guard case .single(let s) = searcher, patternOf == nil else { return from }
        return s.forEachRecordWithOccurrence(in: h, from: from, delimiter: delimiter, body)
    }

    /// `true` when no match can contain `byte`, a non-word byte (see
    /// Turnstile's `Matcher.canSearchAcross(delimiter:)`).
    package func cannotContain(_ byte: UInt8) -> Bool {
        if isASCIIWordByte(byte) { return false }
        return !literals.contains { lit in
            lit.contains { b in b == byte || (caseInsensitive && isASCIILetter(b) && (b & ~0x20) == byte) }
        }
    }
}
