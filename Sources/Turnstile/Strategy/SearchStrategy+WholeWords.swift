// grep's `-w` over every engine: the automata decide the ASCII half of the rule (the
// regex DFA with half word boundaries, the literal engines with `\b` on words that
// start and end with a word byte, where the two agree); this file adds what one byte
// of look-around cannot see — a letter beyond ASCII next to the match — and grep's
// retry when a match fails the rule: a shorter match at the same start, then the
// search starts over one character later (GNU grep's EGexecute and Fexecute).

import AutomatonCore
import LiteralAutomata
import RegexAutomata

extension SearchStrategy {
    /// Calls `body` for each whole-word match starting at or after `from`, in order,
    /// with pattern ids as given; `body` returns false to stop.
    ///
    /// - Complexity: O(n + matches) when no candidate fails the rule; a failed
    ///   candidate costs an anchored scan per shorter match tried.
    func forEachWholeWordMatch(in haystack: UnsafeBufferPointer<UInt8>, from start: Int, _ body: (Match) -> Bool) {
        let unicode = options.unicodeWords && !options.bytesMode
        if options.matchKind == .overlapping {
            // Every occurrence is reported: those that fail the rule hide nothing.
            return forEachCandidate(in: haystack, from: start) { m in
                isWholeWord(m, in: haystack, unicode: unicode) ? body(m) : true
            }
        }
        var position = start
        while position <= haystack.count {
            var rejected: Match? = nil
            var stopped = false
            forEachCandidate(in: haystack, from: position) { m in
                if isWholeWord(m, in: haystack, unicode: unicode) {
                    if !body(m) { stopped = true; return false }
                    return true
                }
                rejected = m
                return false
            }
            guard !stopped, let m = rejected else { return }
            if let shorter = shorterWholeWord(than: m, in: haystack, unicode: unicode) {
                if !body(shorter) { return }
                position = shorter.isEmpty ? shorter.end + 1 : shorter.end
            } else {
                position = m.start + 1
                if unicode { while position < haystack.count, haystack[position] & 0xC0 == 0x80 { position += 1 } }
            }
        }
    }

    func isWholeWord(_ m: Match, in haystack: UnsafeBufferPointer<UInt8>, unicode: Bool) -> Bool {
        if unicode { return WordCharacters.isWholeWord(m.range, in: haystack) }
        return !(m.start > 0 && isASCIIWordByte(haystack[m.start - 1]))
            && !(m.end < haystack.count && isASCIIWordByte(haystack[m.end]))
    }

    /// The engine's own matches from `from` on (a search that begins there), pattern
    /// ids as given.
    @inline(__always)
    private func forEachCandidate(in haystack: UnsafeBufferPointer<UInt8>, from: Int, _ body: (Match) -> Bool) {
        forEachEngineMatch(in: haystack, from: from, regexStart: from, body)
    }

    /// grep's retry at the start of a match that failed the rule: the longest shorter
    /// match there that passes it, or nil.
    private func shorterWholeWord(than m: Match, in haystack: UnsafeBufferPointer<UInt8>, unicode: Bool) -> Match? {
        switch engine {
        case .empty, .regexLiterals:
            return nil
        case .regex(let r):
            // The regex anchored at the start on the haystack cut before the end of the
            // last try (so it must match shorter), checked against the real neighbours.
            var limit = m.end
            while limit > m.start {
                limit -= 1
                guard let shorter = r.anchoredMatch(in: UnsafeBufferPointer(rebasing: haystack[..<limit]), at: m.start)
                else { return nil }
                let found = callerMatch(shorter)
                if isWholeWord(found, in: haystack, unicode: unicode) { return found }
                limit = shorter.end
            }
            return nil
        case .kmp, .ahoCorasick:
            // Another word that is a prefix of the match: the longest that passes.
            var best: Match? = nil
            for (id, word) in searchedLiterals.enumerated()
            where word.count < m.end - m.start && word.count > (best.map { $0.end - $0.start } ?? -1) {
                let candidate = Match(pattern: patternOf?[id] ?? id, start: m.start, end: m.start + word.count)
                if hasPrefix(word, at: m.start, in: haystack), isWholeWord(candidate, in: haystack, unicode: unicode) {
                    best = candidate
                }
            }
            return best
        }
    }

    private func hasPrefix(_ word: [UInt8], at offset: Int, in haystack: UnsafeBufferPointer<UInt8>) -> Bool {
        guard offset + word.count <= haystack.count else { return false }
        for (i, b) in word.enumerated() {
            let h = haystack[offset + i]
            if h == b { continue }
            if options.caseInsensitive, isASCIILetter(b), h | 0x20 == b | 0x20 { continue }
            return false
        }
        return true
    }
}
