// The search layer shared by KMP and Aho-Corasick: one automaton (dense DFA or
// compact NFA), the pattern lengths that turn a match end into a match, and the
// match-kind semantics on top.
//
// Two shapes of automaton:
// - leftmost (the crate's leftmost construction): a forward scan that reports the
//   last match seen before the dead state gives the whole leftmost match, because a
//   literal match starts at `end - length(pattern)`. Used for leftmost kinds without
//   empty patterns and without whole-word matching — the fast path.
// - overlapping (standard Aho-Corasick): every (pattern, end) occurrence. Used for
//   the overlapping kind, and for leftmost kinds that need what the leftmost
//   construction cannot express — `\b` on both sides of a word (the right boundary
//   needs the byte after the match), and empty patterns with PCRE2's empty-match
//   rules. Then a selection pass keeps, among the valid occurrences, the one PCRE2
//   would report, committing a candidate as soon as no occurrence still to come can
//   start at or before it (its start is more than the longest pattern behind the scan).

import AutomatonCore

/// The automaton behind a literal searcher.
enum LiteralStorage: Sendable {
    case dense(DenseDFA)
    case compact(CompactNFA)
}

/// A built literal searcher: automaton + semantics. Immutable and `Sendable`.
struct LiteralEngine: Sendable {
    let matchKind: MatchKind
    let asciiCaseInsensitive: Bool
    let wholeWord: Bool
    /// Byte length of each pattern, by id.
    let lengths: [Int]
    /// The longest pattern some state reports: what the leftmost selector's ring and the
    /// stream carry must hold. Not the longest *declared* pattern — under leftmost-first
    /// a word that extends an earlier one is pruned from the trie but keeps its length,
    /// so `["a", <a 1 MB word>]` would otherwise size a million-slot ring per search
    /// (and a loaded file could declare any length for an unreported pattern).
    let maxLength: Int
    let hasEmpty: Bool
    let shape: LiteralTrie.Shape
    let storage: LiteralStorage
    /// Overlapping automata with equal patterns: the ids the automaton leaves out,
    /// reported with their representative (see ``DuplicatePatterns``). nil otherwise
    /// (and for files saved before the table existed, whose states list every id).
    let duplicates: DuplicatePatterns?
    let prefilter: LiteralPrefilter?
    let prefilterEnabled: Bool

    init(matchKind: MatchKind, asciiCaseInsensitive: Bool, wholeWord: Bool, lengths: [Int],
         shape: LiteralTrie.Shape, storage: LiteralStorage, duplicates: DuplicatePatterns? = nil,
         prefilterEnabled: Bool, simdLevel: SIMDLevel = .best, maxLength: Int? = nil) {
        self.matchKind = matchKind
        self.duplicates = matchKind == .overlapping ? duplicates : nil
        self.asciiCaseInsensitive = asciiCaseInsensitive
        self.wholeWord = wholeWord
        self.lengths = lengths
        // A loader that has walked the table already passes what it found.
        let longest = maxLength ?? Self.longestReported(storage, lengths: lengths)
        self.maxLength = longest
        self.hasEmpty = lengths.contains(0)
        self.shape = shape
        self.storage = storage
        self.prefilterEnabled = prefilterEnabled
        self.prefilter = prefilterEnabled
            ? Self.makePrefilter(storage, patternCount: lengths.count, shortest: lengths.min() ?? 0,
                                 level: simdLevel).map { LiteralPrefilter(kernel: $0, longestLiteral: longest) } : nil
    }

    /// The shape a kind and option set needs.
    static func shape(for kind: MatchKind, wholeWord: Bool, hasEmpty: Bool) -> LiteralTrie.Shape {
        kind.isLeftmost && !wholeWord && !hasEmpty ? .leftmost : .overlapping
    }

    /// The prefilter, chosen once: `memchr` when one byte leaves the start state; else
    /// Teddy for up to 64 patterns of 2+ bytes (dense automata); else memchr2 /
    /// memchr3 for two or three start bytes; else none.
    // PERF: Benchmarks/scripts/literal_throughput.py 'match 10 words', 'filter -i -w 10 words'.
    static func makePrefilter(_ storage: LiteralStorage, patternCount: Int, shortest: Int,
                              level: SIMDLevel) -> LiteralPrefilter.Kernel? {
        let startBytes = Self.startBytePrefilter(storage, level: level)
        if let startBytes, startBytes.bytes.count == 1 { return .startBytes(startBytes) }
        if case .dense(let dfa) = storage,
           let teddy = Teddy(dfa, patternCount: patternCount, shortest: shortest, level: level) {
            return .teddy(teddy)
        }
        return startBytes.map { .startBytes($0) }
    }

    /// Start bytes: bytes on which the start state does not loop to itself.
    static func startBytePrefilter(_ storage: LiteralStorage, level: SIMDLevel) -> StartBytePrefilter? {
        var bytes: [UInt8] = []
        switch storage {
        case .dense(let dfa):
            let s = dfa.startState()
            if dfa.isMatchState(s) { return nil }
            for b in 0...255 where dfa.next(s, UInt8(b)) != s {
                bytes.append(UInt8(b))
                if bytes.count > 3 { return nil }
            }
        case .compact(let nfa):
            if nfa.isMatchState(CompactNFA.root) { return nil }
            for b in 0...255 where nfa.next(CompactNFA.root, UInt8(b)) != CompactNFA.root {
                bytes.append(UInt8(b))
                if bytes.count > 3 { return nil }
            }
        }
        return StartBytePrefilter(startBytes: bytes, level: level)
    }

    var patternCount: Int { lengths.count }

    /// The longest of the patterns that some state of `storage` reports.
    static func longestReported(_ storage: LiteralStorage, lengths: [Int]) -> Int {
        var longest = 0
        switch storage {
        case .dense(let dfa):
            // Only states a search can reach count: a loaded file may hold others.
            // O(states × classes), about the cost of loading the table.
            var seen = [Bool](repeating: false, count: dfa.stateCount)
            var stack: [UInt32] = []
            func visit(_ state: UInt32) {
                let index = Int(state) >> dfa.strideShift
                if index < seen.count, !seen[index] { seen[index] = true; stack.append(state) }
            }
            for context in StartContext.allCases {
                for anchored in [false, true] { visit(dfa.startState(context, anchored: anchored)) }
            }
            let classes = dfa.byteClasses.alphabetLength
            while let state = stack.popLast() {
                for id in dfa.patterns(of: state) where Int(id) < lengths.count {
                    longest = max(longest, lengths[Int(id)])
                }
                for symbol in 0..<classes { visit(dfa.next(state, class: symbol)) }
            }
        case .compact(let nfa):
            for id in nfa.matchList where Int(id) < lengths.count {
                longest = max(longest, lengths[Int(id)])
            }
        }
        return longest
    }

    var statistics: LiteralStatistics {
        switch storage {
        case .dense(let dfa):
            return LiteralStatistics(representation: .dense, stateCount: dfa.stateCount,
                                     byteClassCount: dfa.byteClasses.count, memoryBytes: dfa.memoryBytes,
                                     patternCount: patternCount, matchKind: matchKind, hasPrefilter: prefilter != nil)
        case .compact(let nfa):
            return LiteralStatistics(representation: .compact, stateCount: nfa.stateCount,
                                     byteClassCount: nfa.byteClasses.count, memoryBytes: nfa.memoryBytes,
                                     patternCount: patternCount, matchKind: matchKind, hasPrefilter: prefilter != nil)
        }
    }

    // MARK: Building

    /// Builds the trie for `patterns` and converts it to the chosen representation.
    static func build(
        _ patterns: [[UInt8]], matchKind: MatchKind, asciiCaseInsensitive: Bool, wholeWord: Bool,
        prefilter: Bool, representation: LiteralRepresentation?, memoryBudget: Int, limits: Limits,
        simdLevel: SIMDLevel = .best
    ) throws(AutomatonError) -> LiteralEngine {
        let lengths = patterns.map(\.count)
        let shape = Self.shape(for: matchKind, wholeWord: wholeWord, hasEmpty: lengths.contains(0))
        let classes = LiteralByteClasses.make(patterns, asciiCaseInsensitive: asciiCaseInsensitive)
        var trie = LiteralTrie(classes: classes, shape: shape)
        // A pattern equal to an earlier one (after ASCII folding) is left out of the
        // trie: under the leftmost kinds it can never be reported (the earlier id wins
        // every tie), and under overlapping it is reported with the earlier one
        // (`DuplicatePatterns`). Otherwise every state would carry every duplicate of
        // the empty pattern in its match list: 10,000 empty lines in a word list made
        // the build O(states × 10,000) in time and memory.
        let duplicates = DuplicatePatterns(patterns, asciiCaseInsensitive: asciiCaseInsensitive)
        let repeats = duplicates?.isRepeat
        let inserted: [[UInt8]?] = patterns.indices.map { id in repeats?[id] == true ? nil : patterns[id] }
        try trie.insert(inserted,
                        leftmostFirst: matchKind == .leftmostFirst && shape == .leftmost, limits: limits)
        trie.finish()
        let n = trie.stateCount
        let stride = DenseDFABuilder.stride(for: classes).stride
        let matchEntries = trie.matches.reduce(0) { $0 + $1.count }
        let (tableBytes, overflow) = n.multipliedReportingOverflow(by: stride * 4)
        let denseEstimate = overflow ? Int.max : tableBytes + matchEntries * 4 + n * 4 + 320
        let chosen = representation ?? (denseEstimate <= memoryBudget ? .dense : .compact)
        let storage: LiteralStorage
        switch chosen {
        case .dense:
            storage = .dense(try denseDFA(from: trie, patternCount: patterns.count, limits: limits))
        case .compact:
            let nfa = CompactNFA(trie: trie, patternCount: patterns.count)
            if nfa.memoryBytes > limits.maxTableBytes {
                throw AutomatonError(.tableTooLarge(limit: limits.maxTableBytes))
            }
            storage = .compact(nfa)
        }
        return LiteralEngine(matchKind: matchKind, asciiCaseInsensitive: asciiCaseInsensitive,
                             wholeWord: wholeWord, lengths: lengths, shape: shape, storage: storage,
                             duplicates: duplicates, prefilterEnabled: prefilter, simdLevel: simdLevel)
    }

    /// Resolves every transition of the trie into the core's dense DFA.
    static func denseDFA(from trie: LiteralTrie, patternCount: Int, limits: Limits) throws(AutomatonError) -> DenseDFA {
        var b = DenseDFABuilder(byteClasses: trie.classes, patternCount: patternCount)
        b.reserveStates(trie.stateCount)
        for s in 1..<trie.stateCount {
            b.addState(patterns: trie.matches[s].map { Int($0) })
            if s & 0xFFF == 0 { try b.checkSize(against: limits) }
        }
        try b.checkSize(against: limits)
        // Resolve rows in breadth-first order straight into the builder: a state's
        // failure state is shallower, so its row is already final and is copied;
        // the state's own trie edges then override it.
        let width = trie.classes.count
        let root = Int(LiteralTrie.root)
        for s32 in trie.bfsOrder {
            let s = Int(s32)
            if s == root {
                for c in 0..<width { b.setTransition(from: s, class: c, to: root) }
            } else {
                let f = Int(trie.fail[s])
                if f != Int(LiteralTrie.dead) {
                    for c in 0..<width { b.setTransition(from: s, class: c, to: b.transition(from: f, class: c)) }
                }
            }
            for (c, n) in trie.edges[s] { b.setTransition(from: s, class: Int(c), to: Int(n)) }
        }
        b.setStart(Int(LiteralTrie.root))
        return try b.build(matchTiming: .immediate, limits: limits)
    }
}

// MARK: - Search

extension LiteralEngine {
    @inline(__always)
    static func isBoundary(_ h: UnsafeBufferPointer<UInt8>, _ x: Int) -> Bool {
        isASCIIWordBoundary(h, at: x)
    }

    /// The end of the leftmost match starting at or after `from` (leftmost shape only).
    func leftmostEnd(_ h: UnsafeBufferPointer<UInt8>, from: Int) -> MatchEnd? {
        switch storage {
        case .dense(let dfa):
            var effectiveness = PrefilterEffectiveness()
            var steps = 0
            guard let pf = prefilter else { return dfa.searchForward(h, in: from..<h.count, earliest: false) }
            // PERF: literal_throughput.py 'match 10 words' (the loop specialized for
            // the literal prefilter).
            return dfa.searchForward(h, in: from..<h.count, anchored: false, earliest: false, prefilter: pf,
                                     effectiveness: &effectiveness, steps: &steps)
        case .compact(let nfa):
            return Self.compactLeftmost(nfa, h, from, prefilter)
        }
    }

    /// Every automaton occurrence (end, pattern) with start ≥ `from`, by end then by
    /// the state's pattern order (overlapping shape only), each representative
    /// followed in id order by its duplicates when the kind reports them (see
    /// ``duplicates``). `body` returns false to stop.
    func scanOverlapping(_ h: UnsafeBufferPointer<UInt8>, from: Int, _ body: (Int, UInt32) -> Bool) {
        switch storage {
        case .dense(let dfa):
            Self.denseOverlapping(dfa, h, from, prefilter, wholeWord, duplicates, body)
        case .compact(let nfa):
            Self.compactOverlapping(nfa, h, from, prefilter, duplicates, body)
        }
    }

    /// Calls `body` with every match under the match kind, searching from `from`
    /// (`lastEmpty`: an empty match at `from` was just reported, so only a non-empty
    /// match may start there). `body` returns false to stop.
    func forEachMatch(_ h: UnsafeBufferPointer<UInt8>, from: Int, lastEmpty: Bool = false, _ body: (Match) -> Bool) {
        if matchKind == .overlapping {
            let ww = wholeWord
            lengths.withUnsafeBufferPointer { lengths in
                scanOverlapping(h, from: from) { end, p in
                    let start = end &- lengths[Int(p)]
                    if ww && !(Self.isBoundary(h, start) && Self.isBoundary(h, end)) { return true }
                    return body(Match(pattern: Int(p), start: start, end: end))
                }
            }
            return
        }
        if shape == .leftmost {
            var pos = from
            while pos <= h.count, let me = leftmostEnd(h, from: pos) {
                let m = Match(pattern: me.pattern, start: me.end - lengths[me.pattern], end: me.end)
                if !body(m) { return }
                pos = me.end
            }
            return
        }
        select(h, from: from, lastEmpty: lastEmpty, body)
    }

    /// Leftmost selection over overlapping occurrences (whole word, empty patterns).
    private func select(_ h: UnsafeBufferPointer<UInt8>, from: Int, lastEmpty: Bool, _ body: (Match) -> Bool) {
        var selector = LeftmostSelector(floor: from, blocked: lastEmpty, longest: matchKind == .leftmostLongest,
                                        maxLength: maxLength)
        let ww = wholeWord
        let maxLength = self.maxLength
        var stopped = false
        lengths.withUnsafeBufferPointer { lengths in
            scanOverlapping(h, from: from) { end, p in
                if selector.bestStart >= 0, !selector.commit(below: end &- maxLength, body) { stopped = true; return false }
                let start = end &- lengths[Int(p)]
                if !ww || (Self.isBoundary(h, start) && Self.isBoundary(h, end)) {
                    selector.offer(Match(pattern: Int(p), start: start, end: end))
                }
                return true
            }
        }
        if !stopped { _ = selector.commit(below: Int.max, body) }
    }

    func isMatch(_ h: UnsafeBufferPointer<UInt8>) -> Bool {
        if !wholeWord {
            if shape == .leftmost { return leftmostEnd(h, from: 0) != nil }
            var found = false
            scanOverlapping(h, from: 0) { _, _ in found = true; return false }
            return found
        }
        var found = false
        forEachMatch(h, from: 0) { _ in found = true; return false }
        return found
    }

    func firstMatch(_ h: UnsafeBufferPointer<UInt8>) -> Match? {
        var first: Match? = nil
        forEachMatch(h, from: 0) { first = $0; return false }
        return first
    }

    func allMatches(_ h: UnsafeBufferPointer<UInt8>) -> [Match] {
        var out: [Match] = []
        forEachMatch(h, from: 0) { out.append($0); return true }
        return out
    }
}

/// The candidates of a leftmost selection: valid occurrences not yet reported, and
/// the PCRE2 global-loop state (a match may start after `floor`, or at `floor` unless
/// it is empty and the previous match was an empty match there).
///
/// Only the preferred candidate per start matters (plus the preferred non-empty one,
/// which PCRE2 reports after an empty match at the same start), and every live
/// candidate starts within the longest pattern behind the scan, so candidates live
/// in a ring indexed by `start % (longest + 1)`: O(1) per occurrence, O(longest)
/// memory, O(longest) per reported match.
struct LeftmostSelector {
    var floor: Int
    var blocked: Bool
    let longest: Bool
    let width: Int
    var best: [Match]
    var bestNonEmpty: [Match]
    var hasBest: [Bool]
    var hasNonEmpty: [Bool]
    /// The smallest start holding a candidate, or -1 when there is none.
    var bestStart = -1
    /// The largest start offered so far.
    var maxStart = -1

    init(floor: Int, blocked: Bool, longest: Bool, maxLength: Int) {
        self.floor = floor
        self.blocked = blocked
        self.longest = longest
        self.width = maxLength &+ 1
        let none = Match(pattern: 0, start: -1, end: -1)
        best = [Match](repeating: none, count: width)
        bestNonEmpty = best
        hasBest = [Bool](repeating: false, count: width)
        hasNonEmpty = hasBest
    }

    @inline(__always)
    func allowed(_ m: Match) -> Bool {
        m.start > floor || (m.start == floor && !(blocked && m.isEmpty))
    }

    /// `a` is preferred over `b` (same start).
    @inline(__always)
    func better(_ a: Match, _ b: Match) -> Bool {
        if longest && a.end != b.end { return a.end > b.end }
        return a.pattern < b.pattern
    }

    /// Offers an occurrence (boundaries already checked). Callers commit everything
    /// below `end - longest` first, so live starts span at most `width` values.
    mutating func offer(_ m: Match) {
        guard allowed(m) else { return }
        let k = m.start % width
        if !hasBest[k] || best[k].start != m.start || better(m, best[k]) {
            if !hasBest[k] || best[k].start != m.start { hasNonEmpty[k] = false }
            best[k] = m
            hasBest[k] = true
        }
        if !m.isEmpty && (!hasNonEmpty[k] || better(m, bestNonEmpty[k])) {
            bestNonEmpty[k] = m
            hasNonEmpty[k] = true
        }
        if bestStart < 0 || m.start < bestStart { bestStart = m.start }
        if m.start > maxStart { maxStart = m.start }
    }

    /// Reports candidates that no later occurrence can beat (start < threshold);
    /// false when `body` asked to stop.
    mutating func commit(below threshold: Int, _ body: (Match) -> Bool) -> Bool {
        while bestStart >= 0 && bestStart < threshold {
            let k = bestStart % width
            let m = best[k]
            if !body(m) { return false }
            blocked = m.isEmpty
            if m.isEmpty {
                // Only a non-empty match may still start here.
                floor = m.start
                if hasNonEmpty[k] { best[k] = bestNonEmpty[k] } else { hasBest[k] = false }
                hasNonEmpty[k] = false
            } else {
                floor = m.end
                var s = m.start
                while s < m.end && s <= maxStart {
                    hasBest[s % width] = false
                    hasNonEmpty[s % width] = false
                    s &+= 1
                }
            }
            bestStart = -1
            var s = floor
            while s <= maxStart {
                let j = s % width
                if hasBest[j] && best[j].start == s && allowed(best[j]) { bestStart = s; break }
                s &+= 1
            }
        }
        return true
    }
}

// MARK: - The loops: the core's dense-table loops, the compact NFA's own

extension LiteralEngine {
    /// Overlapping scan over the dense DFA (the core's forward loop), with the
    /// prefilter when there is one. With `wholeWord`, a match state is looked at only
    /// when the match end is a word boundary: occurrences ending inside a word are
    /// dropped before their patterns are enumerated. The caller still checks both
    /// boundaries.
    // PERF: Benchmarks/scripts/literal_throughput.py 'filter -i -w 10000 words'.
    static func denseOverlapping(_ dfa: DenseDFA, _ h: UnsafeBufferPointer<UInt8>, _ from: Int,
                                 _ pf: LiteralPrefilter?, _ wholeWord: Bool, _ duplicates: DuplicatePatterns?,
                                 _ body: (Int, UInt32) -> Bool) {
        var effectiveness = PrefilterEffectiveness()
        @inline(__always) func report(_ end: Int, _ patterns: UnsafeBufferPointer<UInt32>) -> Bool {
            if wholeWord && end > from && !isASCIIWordBoundary(h, at: end) { return true }
            if let duplicates { return duplicates.forEachID(of: patterns) { body(end, $0) } }
            for p in patterns where !body(end, p) { return false }
            return true
        }
        if let pf {
            dfa.forEachMatchEnd(h, in: from..<h.count, anchored: false, prefilter: pf,
                                effectiveness: &effectiveness, report)
        } else {
            dfa.forEachMatchEnd(h, in: from..<h.count, anchored: false, prefilter: NoPrefilter?.none,
                                effectiveness: &effectiveness, report)
        }
    }

    static func compactLeftmost(_ nfa: CompactNFA, _ h: UnsafeBufferPointer<UInt8>, _ from: Int,
                                _ pf: LiteralPrefilter?) -> MatchEnd? {
        nfa.withTables { t in
            var state = CompactNFA.root
            var last: MatchEnd? = nil
            var i = from
            let end = h.count
            var effectiveness = PrefilterEffectiveness()
            while i < end {
                if state == CompactNFA.root && last == nil && !effectiveness.isOff, let pf {
                    let next = pf.find(h, from: i, end: end)
                    effectiveness.record(from: i, to: next, longest: pf.longestLiteral)
                    i = next
                    if i >= end { break }
                }
                // SAFETY: i < h.count; classes has 256 entries.
                state = t.next(state, t.classes[Int(h[i])])
                i &+= 1
                if state == 0 { return last }
                if t.isMatch(state) {
                    last = MatchEnd(pattern: Int(t.matchList[Int(t.matchStart[Int(state)])]), end: i)
                }
            }
            return last
        }
    }

    static func compactOverlapping(_ nfa: CompactNFA, _ h: UnsafeBufferPointer<UInt8>, _ from: Int,
                                   _ pf: LiteralPrefilter?, _ duplicates: DuplicatePatterns?,
                                   _ body: (Int, UInt32) -> Bool) {
        nfa.withTables { t in
            @inline(__always) func report(_ state: UInt32, _ end: Int) -> Bool {
                // SAFETY: match offsets are monotone and end at matchList.count.
                let patterns = t.matchList[Int(t.matchStart[Int(state)])..<Int(t.matchStart[Int(state) &+ 1])]
                if let duplicates { return duplicates.forEachID(of: patterns) { body(end, $0) } }
                for p in patterns where !body(end, p) { return false }
                return true
            }
            var state = CompactNFA.root
            var i = from
            let end = h.count
            if t.isMatch(state), !report(state, i) { return }
            var effectiveness = PrefilterEffectiveness()
            while i < end {
                if state == CompactNFA.root && !effectiveness.isOff, let pf {
                    let next = pf.find(h, from: i, end: end)
                    effectiveness.record(from: i, to: next, longest: pf.longestLiteral)
                    i = next
                    if i >= end { return }
                }
                // SAFETY: i < h.count; classes has 256 entries.
                state = t.next(state, t.classes[Int(h[i])])
                i &+= 1
                if state == 0 { return }
                if t.isMatch(state), !report(state, i) { return }
            }
        }
    }
}
