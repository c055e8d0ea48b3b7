// A fingerprint prefilter for small literal sets (up to 64 patterns): the scalar
// form of Teddy (Hyperscan's multi-literal SIMD matcher, as used by ripgrep). For
// the first k = min(3, shortest pattern) bytes of every pattern, table T_j maps a
// byte to the set of pattern prefixes (buckets, one bit each, up to 64) that have
// that byte at offset j. Position i can start a match only if
// T_0[h[i]] & T_1[h[i+1]] & T_2[h[i+2]] is non-zero. Each position is tested with
// independent loads (no dependency chain, unlike a DFA step), so the scan runs at
// several bytes per DFA step; the automaton then verifies from the candidate.
//
// The tables are read off the automaton itself — a transition is a trie edge when
// it leads one level deeper (BFS depth = trie depth in an Aho-Corasick DFA) — so
// case folding and the match kind's pruning are already in them, and a loaded
// automaton gets the same prefilter as a built one.
//
// It never changes a result: every occurrence starts at a position whose first k
// bytes spell a trie path of depth k, and that path's bucket bit is set in all k
// tables. Limits: weak when the patterns' first bytes are common together (many
// short patterns); not used for more than 64 patterns or patterns shorter than 2.

import AutomatonCore

/// Candidate match starts for a small set of literals; see the file comment.
struct FingerprintPrefilter: Sendable {
    /// 3 × 256 bucket masks, T_j at j * 256; T_j for j ≥ k is all ones.
    let masks: [UInt64]
    /// Fingerprint length: min(3, shortest pattern).
    let width: Int

    /// The fingerprint of the dense automaton `dfa` (its unanchored start state), or
    /// nil when it would not help: more than 64 patterns, a pattern shorter than 2
    /// bytes, or too many distinct prefixes.
    init?(_ dfa: DenseDFA, patternCount: Int, shortest: Int) {
        // PERF: raising the limit to 128 patterns lost: with 100 dictionary words
        // candidates are too frequent (callgrind, 8 MiB: match -c 90.2 M -> 163.3 M
        // instructions; filter -i -w 136.9 M -> 243.1 M), so 64 it stays.
        guard patternCount <= 64, shortest >= 2, dfa.stateCount <= 1 << 16 else { return nil }
        let width = min(3, shortest)
        let start = dfa.startState()
        if dfa.isSpecialState(start) { return nil }
        // BFS depth of every state from the start state.
        var depth = [Int](repeating: -1, count: dfa.stateCount)
        depth[dfa.index(of: start)] = 0
        var queue = [start]
        var head = 0
        while head < queue.count {
            let s = queue[head]
            head += 1
            let d = depth[dfa.index(of: s)]
            if d >= width { continue }
            for b in 0...255 {
                let u = dfa.next(s, UInt8(b))
                if u == 0 { continue }
                let k = dfa.index(of: u)
                if depth[k] < 0 { depth[k] = d + 1; queue.append(u) }
            }
        }
        // Every trie path of length `width`: set its bucket in each T_j.
        var masks = [UInt64](repeating: 0, count: 3 * 256)
        for j in width..<3 { for b in 0..<256 { masks[j * 256 + b] = ~0 } }
        var paths = 0
        var tooMany = false
        var path = [(byte: UInt8, state: DenseDFA.StateID)]()
        func walk(_ s: DenseDFA.StateID, _ d: Int) {
            if tooMany { return }
            if d == width {
                paths += 1
                if paths > 4096 { tooMany = true; return }
                let bit: UInt64 = 1 << UInt64(dfa.index(of: s) % 64)
                for (j, step) in path.enumerated() { masks[j * 256 + Int(step.byte)] |= bit }
                return
            }
            for b in 0...255 {
                let u = dfa.next(s, UInt8(b))
                if u == 0 || depth[dfa.index(of: u)] != d + 1 { continue }
                path.append((UInt8(b), u))
                walk(u, d + 1)
                path.removeLast()
            }
        }
        walk(start, 0)
        if tooMany || paths == 0 { return nil }
        self.masks = masks
        self.width = width
    }

    /// The first position in `from..<end` that may start a match, or `end`.
    @inline(__always)
    func find(_ h: UnsafeBufferPointer<UInt8>, _ from: Int, _ end: Int) -> Int {
        guard let base = h.baseAddress else { return end }
        let w = width
        return masks.withUnsafeBufferPointer { m -> Int in
            let t0 = m.baseAddress!, t1 = t0 + 256, t2 = t0 + 512
            var i = from
            // SAFETY: i + 3 + 3 <= end <= h.count inside the unrolled loop; masks
            // has 3 × 256 entries and every index is a byte plus 0, 256 or 512.
            while i &+ 6 <= end {
                let b0 = Int(base[i]), b1 = Int(base[i &+ 1]), b2 = Int(base[i &+ 2])
                let b3 = Int(base[i &+ 3]), b4 = Int(base[i &+ 4]), b5 = Int(base[i &+ 5])
                let c0 = t0[b0] & t1[b1] & t2[b2]
                let c1 = t0[b1] & t1[b2] & t2[b3]
                let c2 = t0[b2] & t1[b3] & t2[b4]
                let c3 = t0[b3] & t1[b4] & t2[b5]
                if (c0 | c1 | c2 | c3) != 0 {
                    if c0 != 0 { return i }
                    if c1 != 0 { return i &+ 1 }
                    if c2 != 0 { return i &+ 2 }
                    return i &+ 3
                }
                i &+= 4
            }
            // The last positions: only the bytes that exist; a match needs w of them.
            while i &+ w <= end {
                // SAFETY: i + w <= end, and T_j for j >= w is all ones (not read).
                var c = t0[Int(base[i])] & t1[Int(base[i &+ 1])]
                if w == 3 { c &= t2[Int(base[i &+ 2])] }
                if c != 0 { return i }
                i &+= 1
            }
            return end
        }
    }
}

/// The prefilter a literal engine chose, once, when it was built.
enum LiteralPrefilter: Sendable {
    /// At most three bytes leave the start state: memchr / SWAR over them.
    case startBytes(StartBytePrefilter)
    /// Up to 64 patterns of at least 2 bytes: the fingerprint scan.
    case fingerprint(FingerprintPrefilter)

    /// The first position in `from..<end` where a match may start (the automaton may
    /// leave its start state), or `end`.
    @inline(__always)
    func find(_ h: UnsafeBufferPointer<UInt8>, _ from: Int, _ end: Int) -> Int {
        switch self {
        case .startBytes(let p): return p.find(h, from, end)
        case .fingerprint(let p): return p.find(h, from, end)
        }
    }
}
