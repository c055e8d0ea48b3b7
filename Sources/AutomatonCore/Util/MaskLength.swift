// The masking rule, written once: how many mask characters replace a matched range.
// `turnstile filter --mask` and the literal automata's `masked(_:with:)` both use it,
// so the command and the library mask a match the same way.

/// The number of mask characters that stand for the matched `bytes`: one per Unicode
/// scalar — each byte that does not continue a UTF-8 sequence, plus the first byte
/// even when it does (so a match never masks to nothing, and invalid UTF-8 still
/// masks byte by byte).
///
/// - Complexity: O(bytes).
@inlinable
package func maskLength(of bytes: UnsafeBufferPointer<UInt8>) -> Int {
    var n = 0
    for (i, b) in bytes.enumerated() where b & 0xC0 != 0x80 || i == 0 { n &+= 1 }
    return n
}
