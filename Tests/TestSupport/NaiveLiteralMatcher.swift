import AutomatonCore

/// A deliberately simple reference for literal (multi-)pattern search: it compares
/// every pattern at every position, so it is obviously right and O(n · Σ|p|).
/// The literal automata (KMP, Aho-Corasick in every representation), the CLI and the
/// benchmarks are checked against it.
///
/// Semantics (the ones `LiteralAutomata` documents):
/// - **overlapping**: every (pattern, start, end) occurrence, ordered by end, then
///   pattern id. An empty pattern occurs at every position 0...n.
/// - **leftmost-first / leftmost-longest**: PCRE2's global loop over
///   `(?:w1|w2|…)` with every word escaped: the earliest start wins; at one start the
///   lowest pattern id wins (first) or the longest, then the lowest id (longest).
///   After a non-empty match the search resumes at its end; after an empty match at
///   p only a non-empty match starting at p or any match starting after p may follow.
/// - **whole word**: an occurrence counts only when `\b` holds at its start and at its
///   end (ASCII word bytes `[0-9A-Za-z_]`; outside the haystack is a non-word byte),
///   i.e. PCRE2's `\b(?:w1|w2|…)\b`; a failing word never hides a later valid one.
/// - **grep's whole word** (``WordRule/grep``, `Matcher`'s `-w`): no word byte
///   before the start nor after the end (grep's rule; a word that starts or ends with
///   a non-word byte, such as `=`, can be whole).
/// - **ASCII case-insensitive**: bytes are compared after folding `A-Z` to `a-z`.
public struct NaiveLiteralMatcher: Sendable {
    public enum Kind: String, Sendable, CaseIterable {
        case overlapping, leftmostFirst, leftmostLongest
    }

    public var patterns: [[UInt8]]
    public var kind: Kind
    public var caseInsensitive: Bool
    public var wholeWord: Bool
    public var wordRule: WordRule = .boundary

    /// What whole word means.
    public enum WordRule: Sendable {
        /// `\b` at both ends (PCRE2's `\b(?:…)\b`, the literal engines').
        case boundary
        /// No word byte on either side (grep's `-w`).
        case grep
    }

    public init(patterns: [[UInt8]], kind: Kind, caseInsensitive: Bool = false, wholeWord: Bool = false,
                wordRule: WordRule = .boundary) {
        self.patterns = patterns
        self.kind = kind
        self.caseInsensitive = caseInsensitive
        self.wholeWord = wholeWord
        self.wordRule = wordRule
    }

    public init(patterns: [String], kind: Kind, caseInsensitive: Bool = false, wholeWord: Bool = false) {
        self.init(patterns: patterns.map { Array($0.utf8) }, kind: kind,
                  caseInsensitive: caseInsensitive, wholeWord: wholeWord)
    }

    @inline(__always) static func fold(_ b: UInt8) -> UInt8 {
        (b >= 0x41 && b <= 0x5A) ? b | 0x20 : b
    }

    /// `true` when pattern `p` occurs at `start` (boundaries not checked).
    public func occurs(_ p: Int, at start: Int, in h: [UInt8]) -> Bool {
        let pat = patterns[p]
        guard start + pat.count <= h.count else { return false }
        for k in 0..<pat.count {
            let a = h[start + k], b = pat[k]
            if caseInsensitive ? Self.fold(a) != Self.fold(b) : a != b { return false }
        }
        return true
    }

    /// `\b` at `position`.
    public static func isBoundary(_ position: Int, in h: [UInt8]) -> Bool {
        let before = position > 0 && isWordByte(h[position - 1])
        let after = position < h.count && isWordByte(h[position])
        return before != after
    }

    /// `[0-9A-Za-z_]`, written out here: a reference does not borrow the library's
    /// predicate (and the Fuzz package, which shares this file, cannot see it).
    static func isWordByte(_ b: UInt8) -> Bool {
        (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == 0x5F
    }

    /// `true` when pattern `p` is a valid occurrence at `start` (boundaries included).
    public func valid(_ p: Int, at start: Int, in h: [UInt8]) -> Bool {
        guard occurs(p, at: start, in: h) else { return false }
        if wholeWord {
            let end = start + patterns[p].count
            if wordRule == .grep {
                return !(start > 0 && Self.isWordByte(h[start - 1])) && !(end < h.count && Self.isWordByte(h[end]))
            }
            return Self.isBoundary(start, in: h) && Self.isBoundary(end, in: h)
        }
        return true
    }

    /// Every match under ``kind``, in report order.
    public func matches(in h: [UInt8]) -> [Match] {
        switch kind {
        case .overlapping: return overlapping(in: h)
        case .leftmostFirst, .leftmostLongest: return leftmost(in: h)
        }
    }

    public func matches(in h: String) -> [Match] { matches(in: Array(h.utf8)) }

    private func overlapping(in h: [UInt8]) -> [Match] {
        var out: [Match] = []
        for end in 0...h.count {
            for p in patterns.indices {
                let start = end - patterns[p].count
                if start >= 0, valid(p, at: start, in: h) { out.append(Match(pattern: p, start: start, end: end)) }
            }
        }
        return out
    }

    /// The preferred valid match starting exactly at `start`, or nil.
    private func best(at start: Int, in h: [UInt8], nonEmpty: Bool) -> Match? {
        var best: Match? = nil
        for p in patterns.indices where valid(p, at: start, in: h) {
            let m = Match(pattern: p, start: start, end: start + patterns[p].count)
            if nonEmpty && m.isEmpty { continue }
            guard let b = best else { best = m; continue }
            if kind == .leftmostLongest && m.end > b.end { best = m }
            // leftmost-first: the lowest id, which is the first found.
        }
        return best
    }

    private func leftmost(in h: [UInt8]) -> [Match] {
        var out: [Match] = []
        var pos = 0
        var lastEmpty = false
        search: while pos <= h.count {
            for s in pos...h.count {
                let m = best(at: s, in: h, nonEmpty: lastEmpty && s == pos)
                if let m {
                    out.append(m)
                    pos = m.end
                    lastEmpty = m.isEmpty
                    continue search
                }
            }
            break
        }
        return out
    }
}
