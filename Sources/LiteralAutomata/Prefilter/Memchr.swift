// memchr / memchr2 / memchr3: the first occurrence of one, two or three bytes. One
// byte goes to the C library's memchr (vectorized by glibc and Darwin); two or three
// to the kernels in CLiteralSIMD (SSE2 or AVX2 on x86_64, NEON on arm64), as in
// BurntSushi's memchr crate.

import CLiteralSIMD

/// Byte search: the first of one, two or three bytes in a range of a haystack.
///
/// ```swift
/// let h: [UInt8] = Array("hello, world".utf8)
/// h.withUnsafeBufferPointer { Memchr.find2(UInt8(ascii: "w"), UInt8(ascii: ","), in: $0, from: 0) } // 5
/// ```
///
/// - Complexity: O(n) with n the bytes scanned, 16 or 32 per step.
public enum Memchr {
    /// The first index ≥ `from` holding `a`, or nil.
    @inlinable
    public static func find(_ a: UInt8, in h: UnsafeBufferPointer<UInt8>, from: Int) -> Int? {
        let end = find(a, in: h, from: from, end: h.count)
        return end < h.count ? end : nil
    }

    /// The first index in `from..<end` holding `a`, or `end`.
    @inlinable
    public static func find(_ a: UInt8, in h: UnsafeBufferPointer<UInt8>, from: Int, end: Int) -> Int {
        guard from < end, let base = h.baseAddress else { return end }
        // SAFETY: 0 <= from < end <= h.count, so [from, end) lies in the buffer.
        guard let p = cMemchr(base + from, a, end &- from) else { return end }
        return base.distance(to: p)
    }

    /// The last index in `from..<end` holding `a`, or nil: where the line of a match
    /// starts (glibc's memrchr; a backward byte loop took 5–10 instructions a byte).
    public static func findLast(_ a: UInt8, in h: UnsafeBufferPointer<UInt8>, from: Int, end: Int) -> Int? {
        guard from >= 0, from < end, end <= h.count, let base = h.baseAddress else { return nil }
        // SAFETY: 0 <= from < end <= h.count; the kernel reads only [from, end).
        let found = Int(tl_memrchr(a, base, from, end))
        return found < end ? found : nil
    }

    /// The first index ≥ `from` holding `a` or `b`, or nil.
    public static func find2(_ a: UInt8, _ b: UInt8, in h: UnsafeBufferPointer<UInt8>, from: Int,
                             level: SIMDLevel = .best) -> Int? {
        let end = find3(a, b, b, in: h, from: from, end: h.count, level: level)
        return end < h.count ? end : nil
    }

    /// The first index ≥ `from` holding `a`, `b` or `c`, or nil.
    public static func find3(_ a: UInt8, _ b: UInt8, _ c: UInt8, in h: UnsafeBufferPointer<UInt8>, from: Int,
                             level: SIMDLevel = .best) -> Int? {
        let end = find3(a, b, c, in: h, from: from, end: h.count, level: level)
        return end < h.count ? end : nil
    }

    /// How many bytes of `h` equal `a` (the records of a block, for `--threads`):
    /// 32 bytes per step with AVX2, where a scalar Swift loop managed about 3 GB/s.
    public static func count(_ a: UInt8, in h: UnsafeBufferPointer<UInt8>, level: SIMDLevel = .best) -> Int {
        guard let base = h.baseAddress, !h.isEmpty else { return 0 }
        // SAFETY: the kernel reads only [0, h.count).
        return Int(tl_memcount(a, base, 0, h.count, level.cLevel))
    }

    /// The first index in `from..<end` holding `a`, `b` or `c`, or `end`.
    @inline(__always)
    static func find3(_ a: UInt8, _ b: UInt8, _ c: UInt8, in h: UnsafeBufferPointer<UInt8>, from: Int, end: Int,
                      level: SIMDLevel) -> Int {
        guard from >= 0, from < end, end <= h.count, let base = h.baseAddress else { return end }
        // SAFETY: 0 <= from < end <= h.count; the kernel reads only [from, end).
        return Int(tl_memchr3(a, b, c, base, from, end, level.cLevel))
    }
}
