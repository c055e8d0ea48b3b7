// Matcher in the package's one search vocabulary (MatchSearcher): the lazy
// `matches(in:)`, `count(in:)` and every haystack type come from the protocol's
// extensions; each primitive here switches on the chosen engine once, outside the loop.

import AutomatonCore
import LiteralAutomata
import RegexAutomata

extension Matcher: MatchSearcher {
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
        case .ahoCorasick(let ac): return ac.firstMatch(in: haystack)
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
    ///
    /// ```swift
    /// matcher.forEachMatch(in: "a free prize") { m in print(m); return true }
    /// ```
    /// - Complexity: O(n + matches); no allocation for literal patterns.
    public func forEachMatch(in haystack: UnsafeBufferPointer<UInt8>, _ body: (Match) -> Bool) {
        if checksWholeWords { return forEachWholeWordMatch(in: haystack, from: 0, body) }
        switch engine {
        case .empty: return
        case .kmp(let s): s.forEachMatch(in: haystack, from: 0, body)
        case .ahoCorasick(let ac): ac.forEachMatch(in: haystack, body)
        case .regex(let r): r.forEachMatch(in: haystack, body)
        case .regexLiterals(let l, _): l.forEachMatch(in: haystack, from: 0, body)
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
            ac.forEachMatch(in: haystack, after: &cursor.literal, body)
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
}
