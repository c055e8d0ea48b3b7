// A rare-byte prefilter for one literal: pick the pattern byte that is rarest in
// English/UTF-8 text (a fixed rank table, as ripgrep's memchr-based prefilter
// does), jump between its occurrences with `memchr` (glibc's is vectorized), and
// verify the whole pattern at the implied start. The caller keeps a worst-case-linear
// automaton (KMP) to fall back on when candidates turn out to be frequent, so a
// pathological haystack costs O(n), not O(n·m).
//
// It never changes a result: every occurrence of the pattern contains the rare byte
// at the chosen offset, so no occurrence is skipped, and every reported candidate is
// verified in full.

import CLiteralSIMD

/// Finds the occurrences of one literal by `memchr` on its rarest byte, then a
/// full comparison.
///
/// ```swift
/// let finder = RareBytePrefilter(Array("Detroit".utf8), asciiCaseInsensitive: false)
/// // finder.offset: the index of the rarest byte in the pattern
/// ```
///
/// - Complexity: build O(pattern); each `nextOccurrence` is O(skipped bytes / memchr
///   speed + candidates × pattern length).
public struct RareBytePrefilter: Sendable {
    /// The pattern; lowercased when case-insensitive.
    @usableFromInline let pattern: [UInt8]
    /// Index in the pattern of the byte searched for.
    public let offset: Int
    /// The byte(s) searched for: one, or the two cases of an ASCII letter.
    @usableFromInline let byte0: UInt8
    @usableFromInline let byte1: UInt8
    @usableFromInline let caseInsensitive: Bool
    /// The pair scan: the rarest byte at `offset` and the next rarest at `offset2`,
    /// each compared as `(byte | fold) == target` (fold 0x20 for a letter under -i).
    /// `offset2 == offset` for a one-byte pattern (then only the memchr loop runs).
    @usableFromInline let offset2: Int
    @usableFromInline let target1: UInt8, fold1: UInt8, target2: UInt8, fold2: UInt8
    /// Scan for the pair (tl_memmem_pair) instead of `memchr` on one byte: for every
    /// pattern of two or more bytes when a vector kernel runs, and on the portable
    /// level only for a letter under -i (two cases: no memchr). Measured only where the
    /// rare byte is common: `match -c -j1 the` on 32 MiB went from 1,096 M to 146 M
    /// instructions with the other changes of that commit; pair against memchr on a
    /// genuinely rare byte was not measured again (before the C kernel: memchr 46 ms,
    /// Swift's 16-wide pair 56 ms, 'devolved', 128 MiB).
    @usableFromInline let usePairScan: Bool
    /// The kernel family of the pair scan.
    let level: SIMDLevel

    /// A prefilter for `pattern` (non-empty).
    public init(_ pattern: [UInt8], asciiCaseInsensitive: Bool, level: SIMDLevel = .best) {
        precondition(!pattern.isEmpty, "a rare-byte prefilter needs a non-empty pattern")
        func isLetter(_ b: UInt8) -> Bool { (b | 0x20) >= 0x61 && (b | 0x20) <= 0x7A }
        var best = 0
        var bestRank = Int.max
        for (k, b) in pattern.enumerated() {
            var rank = Int(Self.frequencyRank[Int(b)])
            if asciiCaseInsensitive && isLetter(b) {
                // Both cases are searched for: count both.
                rank = Int(Self.frequencyRank[Int(b | 0x20)]) + Int(Self.frequencyRank[Int(b & ~0x20)])
            }
            if rank < bestRank { best = k; bestRank = rank }
        }
        self.offset = best
        var second = best
        var secondRank = Int.max
        for (k, b) in pattern.enumerated() where k != best {
            var rank = Int(Self.frequencyRank[Int(b)])
            if asciiCaseInsensitive && isLetter(b) {
                rank = Int(Self.frequencyRank[Int(b | 0x20)]) + Int(Self.frequencyRank[Int(b & ~0x20)])
            }
            if rank < secondRank { second = k; secondRank = rank }
        }
        self.offset2 = second
        func fold(_ b: UInt8) -> UInt8 { asciiCaseInsensitive && isLetter(b) ? 0x20 : 0 }
        fold1 = fold(pattern[best])
        target1 = pattern[best] | fold1
        fold2 = fold(pattern[second])
        target2 = pattern[second] | fold2
        usePairScan = second != best && (level != .portable || fold1 != 0)
        self.level = level
        self.caseInsensitive = asciiCaseInsensitive
        let b = pattern[best]
        if asciiCaseInsensitive && isLetter(b) {
            byte0 = b | 0x20
            byte1 = b & ~0x20
        } else {
            byte0 = b
            byte1 = b
        }
        self.pattern = asciiCaseInsensitive ? pattern.map { isLetter($0) ? $0 | 0x20 : $0 } : pattern
    }

    /// What one ``step(in:from:budget:)`` found.
    public enum Step: Equatable, Sendable {
        /// An occurrence of the pattern starts here.
        case found(Int)
        /// No occurrence starts at or after `from`.
        case exhausted
        /// Candidates came too often (see ``CandidateBudget``): no occurrence starts
        /// before this position, and the caller's linear-time automaton should go on
        /// from here.
        case gaveUp(Int)
    }

    /// How many candidates a run of steps examined since `from`: past 64, and more than
    /// one per 16 bytes, verification would dominate (and is O(n·m) at worst), so the
    /// scan gives up and a linear-time automaton finishes.
    public struct CandidateBudget: Sendable {
        public var from: Int
        public var candidates = 0
        public init(from: Int) { self.from = from }
        @inline(__always) func exceeded(at position: Int) -> Bool {
            candidates > 64 && candidates &* 16 > position &- from
        }
    }

    /// The first occurrence of the pattern at or after `from`, or nil; where the scan
    /// gives up on frequent candidates, that candidate position (a place a match may
    /// start: what a prefilter reports).
    public func nextOccurrence(in h: UnsafeBufferPointer<UInt8>, from: Int) -> Int? {
        var budget = CandidateBudget(from: from)
        switch step(in: h, from: from, budget: &budget) {
        case .found(let s), .gaveUp(let s): return s
        case .exhausted: return nil
        }
    }

    /// The first occurrence at or after `from`, or where the scan gave up; `budget`
    /// counts the candidates examined across a run of steps.
    public func step(in h: UnsafeBufferPointer<UInt8>, from: Int, budget: inout CandidateBudget) -> Step {
        let m = pattern.count
        guard let base = h.baseAddress, from >= 0, h.count - from >= m else { return .exhausted }
        return pattern.withUnsafeBufferPointer { p -> Step in
            if usePairScan {
                // PERF: 'match 1 words' and the grep idioms' literals (SIMD packed pair in C).
                var needle = tl_pair_needle(
                    bytes: p.baseAddress, length: m, index1: offset, index2: offset2,
                    byte1: target1, fold1: fold1, byte2: target2, fold2: fold2, fold: caseInsensitive ? 1 : 0)
                var scan = tl_pair_scan(from: budget.from, failures: budget.candidates, gave_up: 0)
                // SAFETY: the kernel reads only [from, h.count).
                let s = Int(tl_memmem_pair(&needle, base, from, h.count, level.cLevel, &scan))
                budget.candidates = scan.failures
                if scan.gave_up != 0 { return .gaveUp(s) }
                if s >= h.count { return .exhausted }
                budget.candidates &+= 1
                return .found(s)
            }
            let lastStart = h.count &- m
            // The rare byte of a match starting at s sits at s + offset; s <= lastStart.
            let limit = lastStart &+ offset &+ 1
            var i = from &+ offset
            while i < limit {
                // SAFETY: from + offset <= i < limit <= h.count - m + offset + 1 <= h.count.
                let hit: Int
                if byte0 == byte1 {
                    guard let q = cMemchr(base + i, byte0, limit &- i) else { return .exhausted }
                    hit = base.distance(to: q)
                } else {
                    hit = Self.findEither(base, i, limit, byte0, byte1)
                    if hit >= limit { return .exhausted }
                }
                budget.candidates &+= 1
                let s = hit &- offset
                // SAFETY: s >= from >= 0 and s + m <= h.count since hit < limit.
                if verify(base, s, p) { return .found(s) }
                if budget.exceeded(at: s) { return .gaveUp(s) }
                i = hit &+ 1
            }
            return .exhausted
        }
    }

    /// Whether the pattern occurs at `base[s...]` (folding ASCII case when asked).
    @inline(__always)
    private func verify(_ base: UnsafePointer<UInt8>, _ s: Int, _ p: UnsafeBufferPointer<UInt8>) -> Bool {
        let m = p.count
        if caseInsensitive {
            var k = 0
            while k < m {
                var c = base[s &+ k]
                if c >= 0x41 && c <= 0x5A { c |= 0x20 }
                if c != p[k] { return false }
                k &+= 1
            }
            return true
        }
        return cBytesEqual(base + s, p.baseAddress!, m)
    }

    /// The first index in `from..<end` holding `a` or `b`, or `end`: eight bytes at
    /// a time with the SWAR zero-byte test, a byte at a time at the edges.
    @inlinable
    static func findEither(_ base: UnsafePointer<UInt8>, _ from: Int, _ end: Int, _ a: UInt8, _ b: UInt8) -> Int {
        let lo: UInt64 = 0x0101_0101_0101_0101, hi: UInt64 = 0x8080_8080_8080_8080
        let ma = lo &* UInt64(a), mb = lo &* UInt64(b)
        var i = from
        let raw = UnsafeRawPointer(base)
        while i &+ 16 <= end {
            // SAFETY: i + 16 <= end; loadUnaligned has no alignment requirement.
            let w = raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
            let v = raw.loadUnaligned(fromByteOffset: i &+ 8, as: UInt64.self)
            let x0 = w ^ ma, x1 = w ^ mb, y0 = v ^ ma, y1 = v ^ mb
            let z = ((x0 &- lo) & ~x0) | ((x1 &- lo) & ~x1) | ((y0 &- lo) & ~y0) | ((y1 &- lo) & ~y1)
            if z & hi != 0 { break }
            i &+= 16
        }
        while i < end {
            // SAFETY: i < end <= haystack count.
            let c = base[i]
            if c == a || c == b { return i }
            i &+= 1
        }
        return end
    }

    /// How common `byte` is in English text: 0 = rarest (or never seen), 255 = the
    /// most common (space). For choosing which literal or byte to search for.
    public static func rank(of byte: UInt8) -> Int { Int(frequencyRank[Int(byte)]) }

    /// 0 = rarest. Ranks of bytes in English subtitle text
    /// (rebar's opensubtitles/en-medium.txt, not the benchmark haystack); bytes that
    /// never occur there (control bytes, UTF-8 bytes ≥ 0x80) rank 0.
    @usableFromInline static let frequencyRank: [UInt8] = [
          0,   0,   0,   0,   0,   0,   0,   0,   0,   0, 246,   0,   0,   0,   0,   0,
          0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,
        255, 221, 197, 215, 196,   0,   0, 236, 201, 200,   0,   0, 227, 232, 241,   0,
        205, 194, 191,   0,   0, 190,   0,   0,   0,   0,   0,   0,   0,   0,   0, 228,
          0, 220, 211, 218, 214, 198, 210, 213, 222, 231, 208, 203, 212, 216, 217, 207,
        206, 189, 199, 219, 224, 202, 193, 225,   0, 223,   0,   0,   0,   0,   0,   0,
          0, 251, 233, 234, 242, 254, 235, 237, 248, 249, 209, 230, 244, 239, 250, 253,
        229, 192, 247, 245, 252, 243, 226, 238, 204, 240, 195,   0,   0,   0,   0,   0,
          0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,
          0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,
          0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,
          0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,
          0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,
          0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,
          0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,
          0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0,   0
    ]
}
