// The ASCII byte predicates every layer needs — the word bytes of `\b`, `\w` and
// whole-word matching, and ASCII case folding — written once here, at the bottom of the
// dependency graph, and shared with the sibling modules through `package` access.

/// `true` for `[0-9A-Za-z_]`, the word bytes of `\b` and `\w` (ASCII meaning).
@inlinable
package func isASCIIWordByte(_ b: UInt8) -> Bool {
    (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == 0x5F
}

/// PCRE2's `\b` at offset `x` of `h` (ASCII meaning): the bytes on either side of `x`
/// differ in wordness, the haystack's edges counting as non-word. The one word-boundary
/// test of the search layer (whole-word literals, the single-literal searcher).
///
/// - Precondition: `0 <= x <= h.count`.
@inlinable @inline(__always)
package func isASCIIWordBoundary(_ h: UnsafeBufferPointer<UInt8>, at x: Int) -> Bool {
    // SAFETY: x - 1 is read only when x > 0 and x only when x < h.count.
    let before = x > 0 && isASCIIWordByte(h[x &- 1])
    let after = x < h.count && isASCIIWordByte(h[x])
    return before != after
}

/// `true` for `[A-Za-z]`.
@inlinable
package func isASCIILetter(_ b: UInt8) -> Bool { (b | 0x20) >= 0x61 && (b | 0x20) <= 0x7A }

/// `b` with `A`–`Z` folded to `a`–`z`; every other byte unchanged.
@inlinable
package func asciiLowercased(_ b: UInt8) -> UInt8 { (b >= 0x41 && b <= 0x5A) ? b | 0x20 : b }

/// `bytes` with `A`–`Z` folded to `a`–`z`.
@inlinable
package func asciiLowercased(_ bytes: some Sequence<UInt8>) -> [UInt8] { bytes.map(asciiLowercased) }

/// Runs `body` over the UTF-8 bytes of `string` without copying a native string.
@inlinable
package func withUTF8<R>(_ string: String, _ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
    var copy = string
    return try copy.withUTF8(body)
}
