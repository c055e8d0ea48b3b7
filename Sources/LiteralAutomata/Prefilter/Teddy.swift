// Teddy, Geoff Langdale's multi-literal SIMD matcher from Hyperscan, in the "slim"
// form BurntSushi's aho-corasick describes (src/packed/teddy/README.md): the first
// `width` = min(3, shortest) bytes of every literal are spread over 8 buckets, and for
// each offset j < width two 16-entry tables map a byte's low and high nibble to the
// buckets that have a byte with that nibble at offset j. One shuffle per table looks
// up 16 (SSSE3, NEON) or 32 (AVX2) haystack bytes at once; a position is a candidate
// when some bucket bit survives the AND over the `width` offsets. The kernels live in
// CLiteralSIMD (teddy.c); this file builds the tables.
//
// For a literal engine the prefixes are read off the automaton itself — a transition
// is a trie edge when it leads one level deeper (BFS depth = trie depth in an
// Aho-Corasick DFA) — so case folding and the match kind's pruning are already in
// them, and a loaded automaton gets the same prefilter as a built one.
//
// It never changes a result: every occurrence starts with some prefix, whose bucket
// bit is set in all of its bytes' nibble entries. Limits: candidates are supersets
// (nibbles of different prefixes in one bucket combine), so many short prefixes make
// it weak; the search turns it off at run time then (PrefilterEffectiveness).

import AutomatonCore
import CLiteralSIMD

/// Candidate starts for a small set of literals, many bytes per step.
///
/// ```swift
/// let teddy = Teddy(prefixes: [Array("cash".utf8), Array("prize".utf8)])!
/// let h = Array("you won a prize".utf8)
/// h.withUnsafeBufferPointer { teddy.find(in: $0, from: 0) }   // 10, or an earlier false positive
/// ```
///
/// - Complexity: build O(prefixes × width); search O(n / 16) or O(n / 32) vector steps
///   plus the candidates.
public struct Teddy: Sendable {
    /// Nibble tables and width, laid out as CLiteralSIMD's `tl_teddy_masks`.
    let masks: TeddyMasks
    /// Bytes of each prefix looked at: 1...3.
    public let width: Int
    /// The kernel family the search runs.
    public let level: SIMDLevel

    /// Most prefixes (distinct trie paths of `width` bytes) a table is built from.
    static let maxPrefixes = 4096

    /// A Teddy over the first min(3, shortest) bytes of `prefixes`, or nil when there
    /// are none, one is empty, or there are more than 4,096.
    public init?(prefixes: [[UInt8]], level: SIMDLevel = .best) {
        guard !prefixes.isEmpty, prefixes.count <= Self.maxPrefixes,
              let shortest = prefixes.map(\.count).min(), shortest >= 1 else { return nil }
        let width = min(3, shortest)
        // Sorted prefixes share buckets with their neighbours, whose nibbles mostly
        // coincide, so a bucket admits few byte combinations beyond its own prefixes.
        let keys = Array(Set(prefixes.map { Array($0.prefix(width)) })).sorted { $0.lexicographicallyPrecedes($1) }
        var m = TeddyMasks()
        for (k, key) in keys.enumerated() {
            let bit = UInt8(1) << UInt8(k * 8 / keys.count)
            for (j, byte) in key.enumerated() { m.add(bit, offset: j, byte: byte) }
        }
        m.width = Int32(width)
        self.masks = m
        self.width = width
        self.level = level.isSupported ? level : .best
    }

    /// The Teddy of the dense literal automaton `dfa` (its unanchored start state), or
    /// nil when it would not help: more than 64 patterns, a pattern shorter than 2
    /// bytes, or too many distinct prefixes.
    init?(_ dfa: DenseDFA, patternCount: Int, shortest: Int, level: SIMDLevel) {
        // PERF: 64 as for the scalar fingerprint this replaces: with 100 dictionary
        // words candidates are too frequent (callgrind, 8 MiB: match -c 90.2 M -> 163.3 M
        // instructions at 128 patterns).
        guard patternCount <= 64, shortest >= 2, dfa.stateCount <= 1 << 16,
              let prefixes = Self.triePaths(dfa, length: min(3, shortest)) else { return nil }
        self.init(prefixes: prefixes, level: level)
    }

    /// Every path of `length` trie edges from the start state of a literal DFA, or nil
    /// when there are more than ``maxPrefixes``.
    static func triePaths(_ dfa: DenseDFA, length: Int) -> [[UInt8]]? {
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
            if d >= length { continue }
            for b in 0...255 {
                let u = dfa.next(s, UInt8(b))
                if u == 0 { continue }
                let k = dfa.index(of: u)
                if depth[k] < 0 { depth[k] = d + 1; queue.append(u) }
            }
        }
        var paths: [[UInt8]] = []
        var path: [UInt8] = []
        var tooMany = false
        func walk(_ s: DenseDFA.StateID, _ d: Int) {
            if tooMany { return }
            if d == length {
                paths.append(path)
                if paths.count > maxPrefixes { tooMany = true }
                return
            }
            for b in 0...255 {
                let u = dfa.next(s, UInt8(b))
                if u == 0 || depth[dfa.index(of: u)] != d + 1 { continue }
                path.append(UInt8(b))
                walk(u, d + 1)
                path.removeLast()
            }
        }
        walk(start, 0)
        return tooMany || paths.isEmpty ? nil : paths
    }

    /// The first candidate start ≥ `from`, or nil.
    public func find(in h: UnsafeBufferPointer<UInt8>, from: Int) -> Int? {
        let end = find(h, from, h.count)
        return end < h.count ? end : nil
    }

    /// The first candidate start in `from..<end` with `width` bytes before `end`, or `end`.
    @inline(__always)
    func find(_ h: UnsafeBufferPointer<UInt8>, _ from: Int, _ end: Int) -> Int {
        guard from >= 0, from < end, end <= h.count, let base = h.baseAddress else { return end }
        return withUnsafePointer(to: masks.raw) { m in
            // SAFETY: 0 <= from < end <= h.count; the kernel reads only [from, end).
            Int(tl_teddy_find(m, base, from, end, level.cLevel))
        }
    }

    /// Whether position `i` is a candidate by the definition (the reference the
    /// kernels are tested against).
    public func isCandidate(at i: Int, in h: UnsafeBufferPointer<UInt8>) -> Bool {
        guard i >= 0, i + width <= h.count else { return false }
        var c: UInt8 = 0xFF
        for j in 0..<width { c &= masks.bucketBits(offset: j, byte: h[i + j]) }
        return c != 0
    }
}

/// `tl_teddy_masks` with named setters; a value type, so a Teddy is immutable.
struct TeddyMasks: @unchecked Sendable {
    // SAFETY (Sendable): a plain C struct of bytes, never shared mutably.
    var raw = tl_teddy_masks()

    var width: Int32 {
        get { raw.width }
        set { raw.width = newValue }
    }

    /// Sets `bit` for `byte` at `offset` in both nibble tables.
    mutating func add(_ bit: UInt8, offset j: Int, byte: UInt8) {
        withUnsafeMutableBytes(of: &raw) { p in
            // Layout: lo[3][16] at 0, hi[3][16] at 48.
            p[j * 16 + Int(byte & 15)] |= bit
            p[48 + j * 16 + Int(byte >> 4)] |= bit
        }
    }

    /// The buckets `byte` may belong to at `offset`.
    func bucketBits(offset j: Int, byte: UInt8) -> UInt8 {
        withUnsafeBytes(of: raw) { p in p[j * 16 + Int(byte & 15)] & p[48 + j * 16 + Int(byte >> 4)] }
    }
}
