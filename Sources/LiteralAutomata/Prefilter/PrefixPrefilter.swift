// The prefilter for another automaton whose matches all start with one of a few
// literal prefixes (a regex's extracted prefix set): the literal engines' kernels
// behind one question, "where may the next match start?". Chosen once, when built:
//
// - the prefixes share a common prefix of 2+ bytes with a rare byte in it: memmem on
//   it (rare-byte memchr or the SIMD pair scan, verified; RareBytePrefilter);
// - at most three distinct first bytes, all rare or the prefixes one byte long:
//   memchr/2/3;
// - otherwise Teddy over the first min(3, shortest) bytes, case variants spelled out
//   (a common byte like 'h' or 'p' stops memchr every few dozen bytes, where Teddy
//   checks three bytes, 32 positions per step).
//
// It never changes a result as long as every match starts with a prefix: each kernel
// reports the first position at or after `from` where some prefix may begin (memmem an
// exact occurrence of the common prefix, the others supersets). Whether it pays off is
// the caller's run-time judgement (a prefilter that fires every few bytes costs more
// than it saves).

import AutomatonCore

/// Where a match that starts with one of a set of literal prefixes may begin.
///
/// ```swift
/// let p = PrefixPrefilter(prefixes: [Array("https://".utf8), Array("http://".utf8)], asciiCaseInsensitive: false)!
/// let h = Array("see http://x".utf8)
/// h.withUnsafeBufferPointer { p.find(in: $0, from: 0) }   // 4
/// ```
///
/// - Complexity: build O(total prefix bytes); `find` O(bytes skipped) at SIMD speed plus
///   O(prefix length) per verified candidate (memmem).
///
/// A class: searches hold it in optionals and enums, and a struct of kernels was copied
/// field by field at every search call (PERF: `match -c .`, 10 % of instructions in
/// its value witnesses).
public final class PrefixPrefilter: Sendable {
    enum Kind: Sendable {
        case memmem(RareBytePrefilter)
        case startBytes(StartBytePrefilter)
        case teddy(Teddy)
    }

    let kind: Kind
    /// The longest prefix, for judging whether skips are worth the calls.
    public let longestPrefix: Int

    /// A prefilter for `prefixes` (ASCII letters lowercased when `asciiCaseInsensitive`),
    /// or nil when none fits: no prefixes, an empty one, or too many distinct first bytes
    /// for memchr and too many prefixes for Teddy.
    public init?(prefixes: [[UInt8]], asciiCaseInsensitive: Bool, level: SIMDLevel = .best) {
        guard !prefixes.isEmpty, prefixes.allSatisfy({ !$0.isEmpty }) else { return nil }
        longestPrefix = prefixes.map(\.count).max()!
        func isLetter(_ b: UInt8) -> Bool { (b | 0x20) >= 0x61 && (b | 0x20) <= 0x7A }
        func same(_ a: UInt8, _ b: UInt8) -> Bool {
            asciiCaseInsensitive && isLetter(a) ? (a | 0x20) == (b | 0x20) : a == b
        }
        var common = prefixes[0]
        for p in prefixes.dropFirst() {
            var k = 0
            while k < min(common.count, p.count) && same(common[k], p[k]) { k += 1 }
            common.removeLast(common.count - k)
        }
        let shortest = prefixes.map(\.count).min()!
        // PERF: regex_throughput.py 'https?://[a-z0-9.-]+' (CPU MB/s, 128 MiB): memmem
        // on "http" (rare byte 'p', common in English) 1,683, memchr on 'h' 718, Teddy
        // on "htt" 2,429. memmem wins only when its byte is rare; so does memchr.
        if common.count >= 2 && common.contains(where: { b in
            asciiCaseInsensitive && isLetter(b) ? Self.isRare(b | 0x20) && Self.isRare(b & ~0x20) : Self.isRare(b)
        }) {
            kind = .memmem(RareBytePrefilter(common, asciiCaseInsensitive: asciiCaseInsensitive, level: level))
            return
        }
        func variants(_ b: UInt8) -> [UInt8] {
            asciiCaseInsensitive && isLetter(b) ? [b | 0x20, b & ~0x20] : [b]
        }
        let first = Set(prefixes.flatMap { variants($0[0]) })
        if let p = StartBytePrefilter(startBytes: Array(first), level: level),
           shortest == 1 || first.allSatisfy({ Self.isRare($0) }) {
            kind = .startBytes(p)
            return
        }
        // Teddy's own candidates are supersets; spell out the case variants of the
        // bytes it looks at.
        let width = min(3, shortest)
        var keys: Set<[UInt8]> = []
        for p in prefixes {
            var expanded: [[UInt8]] = [[]]
            for b in p.prefix(width) { expanded = expanded.flatMap { e in variants(b).map { e + [$0] } } }
            keys.formUnion(expanded)
        }
        guard keys.count <= 64, let teddy = Teddy(prefixes: Array(keys), level: level) else { return nil }
        kind = .teddy(teddy)
    }

    /// A byte among the rarer ones in English text (RareBytePrefilter's rank table):
    /// scanning for it skips far on average.
    static func isRare(_ b: UInt8) -> Bool { RareBytePrefilter.frequencyRank[Int(b)] < 200 }

    /// Which kernel runs ("memmem", "memchr", "teddy"), for statistics and tests.
    public var kernel: String {
        switch kind {
        case .memmem: return "memmem"
        case .startBytes: return "memchr"
        case .teddy: return "teddy"
        }
    }

    /// The first position ≥ `from` where a match may start, or nil when none can start
    /// in the rest of `h`.
    @inlinable @inline(__always)
    public func find(in h: UnsafeBufferPointer<UInt8>, from: Int) -> Int? {
        let i = find(h, from)
        return i < h.count ? i : nil
    }

    /// The first candidate ≥ `from`, or `h.count`.
    @usableFromInline
    func find(_ h: UnsafeBufferPointer<UInt8>, _ from: Int) -> Int {
        switch kind {
        case .memmem(let p):
            return p.nextOccurrence(in: h, from: from) ?? h.count
        case .startBytes(let p):
            return p.find(h, from, h.count)
        case .teddy(let p):
            return p.find(h, from, h.count)
        }
    }
}

extension PrefixPrefilter: SearchPrefilter {
    /// The first candidate in `from..<end`, or `end`: what the core's search loops ask.
    @inlinable @inline(__always)
    public func find(_ haystack: UnsafeBufferPointer<UInt8>, from: Int, end: Int) -> Int {
        min(find(haystack, from), end)
    }

    /// The longest prefix, which a skip is judged against.
    @inlinable public var longestLiteral: Int { longestPrefix }
}
