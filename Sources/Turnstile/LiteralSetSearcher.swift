// A literal-set searcher: an Aho-Corasick automaton (Aho & Corasick 1975) compiled to
// a full ``DenseDFA`` with overlapping (standard) semantics, plus a selection pass
// that turns the overlapping candidates into leftmost-first or leftmost-longest
// non-overlapping matches and applies the whole-word test.
//
// STAND-IN: this exists so that the `Turnstile` module and the CLI work before the
// `LiteralAutomata` target (KMP, Aho-Corasick with native leftmost automata) lands;
// `Matcher` switches to those engines when they are available. Known limits: the
// selection pass sorts the candidates of each search call, so a haystack with very
// many overlapping candidates costs O(k log k) extra; whole-word filtering happens
// after candidate generation (a whole-word match of a lower-priority pattern at the
// same start still wins, as `grep -w` behaves).

/// How overlapping candidates become the reported matches.
public enum MatchKind: String, Sendable, Hashable, CaseIterable {
    /// At the leftmost start, the pattern listed first wins (Perl/PCRE order).
    case leftmostFirst = "leftmost-first"
    /// At the leftmost start, the longest pattern wins.
    case leftmostLongest = "leftmost-longest"
    /// Every occurrence of every pattern, in order of end offset.
    case overlapping = "overlapping"
}

/// An Aho-Corasick DFA over a set of literal byte strings.
struct LiteralSetSearcher: Sendable {
    let dfa: DenseDFA
    /// Byte length of each pattern, indexed by pattern id.
    let lengths: [Int]
    let matchKind: MatchKind
    let wholeWord: Bool
    /// 256 flags: byte b occurs in some pattern (in either case when folding).
    let patternBytes: [Bool]

    init(patterns: [[UInt8]], caseInsensitive: Bool, wholeWord: Bool, matchKind: MatchKind, limits: Limits)
        throws(AutomatonError)
    {
        @inline(__always) func fold(_ b: UInt8) -> UInt8 {
            caseInsensitive && b >= 0x41 && b <= 0x5A ? b | 0x20 : b
        }
        // The trie, over folded bytes. Node 0 is the root.
        var children: [[UInt8: Int]] = [[:]]
        var own: [[Int]] = [[]]
        var classSet = ByteClassSet()
        var patternBytes = [Bool](repeating: false, count: 256)
        for (id, pattern) in patterns.enumerated() {
            var node = 0
            for raw in pattern {
                let b = fold(raw)
                classSet.add(b)
                patternBytes[Int(b)] = true
                if caseInsensitive, b >= 0x61, b <= 0x7A {
                    classSet.add(b & ~0x20)
                    patternBytes[Int(b & ~0x20)] = true
                }
                if let next = children[node][b] {
                    node = next
                } else {
                    children.append([:])
                    own.append([])
                    children[node][b] = children.count - 1
                    node = children.count - 1
                }
            }
            own[node].append(id)
            if children.count > limits.maxStates { throw AutomatonError(.tooManyStates(limit: limits.maxStates)) }
        }
        let classes = classSet.byteClasses()
        let representatives = classes.representatives
        let n = children.count

        // Breadth-first: failure links, outputs (own + failure's), full transitions.
        var fail = [Int](repeating: 0, count: n)
        var outputs = own
        var delta = [[Int]](repeating: [], count: n)   // by class
        var order: [Int] = [0]
        delta[0] = representatives.map { children[0][fold($0)] ?? 0 }
        for (_, child) in children[0] where !order.contains(child) { order.append(child) }
        var head = 1   // the root's row is done; its children fail to the root
        while head < order.count {
            let node = order[head]
            head += 1
            let f = fail[node]
            outputs[node] = (own[node] + outputs[f]).sorted()
            delta[node] = representatives.enumerated().map { c, rep in
                children[node][fold(rep)] ?? delta[f][c]
            }
            for (b, child) in children[node] {
                // fail(child) = δ(fail(node), b), computed from the parent's failure row.
                fail[child] = delta[f][Int(classes[b])]
                order.append(child)
            }
        }
        outputs[0] = own[0].sorted()

        var builder = DenseDFABuilder(byteClasses: classes, patternCount: patterns.count)
        for node in 0..<n { builder.addState(patterns: outputs[node]) }   // index = node + 1
        try builder.checkSize(against: limits)
        for node in 0..<n {
            for c in 0..<classes.count { builder.setTransition(from: node + 1, class: c, to: delta[node][c] + 1) }
            builder.setEOITransition(from: node + 1, to: 1)
        }
        builder.setStart(1)
        self.dfa = try builder.build(matchTiming: .immediate, limits: limits)
        self.lengths = patterns.map(\.count)
        self.matchKind = matchKind
        self.wholeWord = wholeWord
        self.patternBytes = patternBytes
    }

    @inline(__always)
    private func isWholeWord(_ haystack: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int) -> Bool {
        (start == 0 || !isASCIIWordByte(haystack[start - 1]))
            && (end == haystack.count || !isASCIIWordByte(haystack[end]))
    }

    /// Appends the matches in `haystack` to `out` (offsets relative to `haystack`).
    func appendMatches(in haystack: UnsafeBufferPointer<UInt8>, to out: inout [Match]) {
        let first = out.count
        let lengths = self.lengths
        let wholeWord = self.wholeWord
        dfa.forEachMatchEnd(haystack, in: 0..<haystack.count) { end, patterns in
            for p in patterns {
                let start = end - lengths[Int(p)]
                if wholeWord, !isWholeWord(haystack, start, end) { continue }
                out.append(Match(pattern: Int(p), start: start, end: end))
            }
            return true
        }
        guard matchKind != .overlapping, out.count - first > 1 else { return }
        // Leftmost selection over the candidates just appended.
        let longest = matchKind == .leftmostLongest
        out[first...].sort { a, b in
            if a.start != b.start { return a.start < b.start }
            if longest, a.end != b.end { return a.end > b.end }
            return a.pattern < b.pattern
        }
        var write = first
        var position = 0
        var emptyAllowed = true
        for read in first..<out.count {
            let m = out[read]
            guard m.start >= position else { continue }
            if m.isEmpty, m.start == position, !emptyAllowed { continue }
            out[write] = m
            write += 1
            position = m.end
            emptyAllowed = !m.isEmpty
        }
        out.removeSubrange(write...)
    }

    /// `true` when some match may contain `byte` (so records split on it must be
    /// searched one by one).
    func mayMatch(byte: UInt8) -> Bool { patternBytes[Int(byte)] }
}
