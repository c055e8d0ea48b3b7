// UTF-8 sequences: splits a range of Unicode scalars into a short list of byte-range
// sequences such that a byte string matches one of the sequences exactly when it is
// the UTF-8 encoding of a scalar in the range.
//
// Source: the standard range-splitting algorithm of Rust's `utf8-ranges` crate
// (Andrew Gallant), itself after RE2's `rune range → UTF-8` compiler (Russ Cox).
// Surrogates (U+D800–U+DFFF) are removed; overlong encodings are never produced, so
// invalid UTF-8 in a haystack simply fails to match.

/// One UTF-8 byte sequence: one byte range per encoded byte (1 to 4 ranges).
struct UTF8Sequence: Hashable, Sendable {
    var ranges: [ClosedRange<UInt8>]
}

/// Splits `range` (scalar values) into UTF-8 byte-range sequences, in ascending
/// scalar order.
///
/// - Complexity: O(1) sequences per range (at most a few dozen).
func utf8Sequences(for range: ClosedRange<UInt32>) -> [UTF8Sequence] {
    var result: [UTF8Sequence] = []
    var stack: [(UInt32, UInt32)] = [(range.lowerBound, min(range.upperBound, 0x10FFFF))]
    outer: while let (s, e) = stack.popLast() {
        if s > e { continue }
        // Remove the surrogate gap.
        if s <= 0xD7FF && e >= 0xE000 {
            stack.append((0xE000, e)); stack.append((s, 0xD7FF)); continue
        }
        if s >= 0xD800 && s <= 0xDFFF {
            if e <= 0xDFFF { continue }
            stack.append((0xE000, e)); continue
        }
        if e >= 0xD800 && e <= 0xDFFF {
            stack.append((s, 0xD7FF)); continue
        }
        // Split where the encoded length changes.
        for maxOfLength: UInt32 in [0x7F, 0x7FF, 0xFFFF] where s <= maxOfLength && maxOfLength < e {
            stack.append((maxOfLength + 1, e)); stack.append((s, maxOfLength)); continue outer
        }
        if e <= 0x7F {
            result.append(UTF8Sequence(ranges: [UInt8(s)...UInt8(e)]))
            continue
        }
        // Split until every continuation position covers a full or aligned range.
        for i: UInt32 in 1..<4 {
            let m: UInt32 = (1 << (6 * i)) - 1
            if (s & ~m) != (e & ~m) {
                if (s & m) != 0 {
                    stack.append(((s | m) + 1, e)); stack.append((s, s | m)); continue outer
                }
                if (e & m) != m {
                    stack.append((e & ~m, e)); stack.append((s, (e & ~m) - 1)); continue outer
                }
            }
        }
        let a = encodeUTF8(s), b = encodeUTF8(e)
        var ranges: [ClosedRange<UInt8>] = []
        for k in 0..<a.count { ranges.append(a[k]...b[k]) }
        result.append(UTF8Sequence(ranges: ranges))
    }
    return result
}

/// The UTF-8 encoding of a scalar value (no validation beyond length selection).
func encodeUTF8(_ v: UInt32) -> [UInt8] {
    switch v {
    case 0..<0x80: return [UInt8(v)]
    case 0x80..<0x800: return [UInt8(0xC0 | (v >> 6)), UInt8(0x80 | (v & 0x3F))]
    case 0x800..<0x10000:
        return [UInt8(0xE0 | (v >> 12)), UInt8(0x80 | ((v >> 6) & 0x3F)), UInt8(0x80 | (v & 0x3F))]
    default:
        return [UInt8(0xF0 | (v >> 18)), UInt8(0x80 | ((v >> 12) & 0x3F)),
                UInt8(0x80 | ((v >> 6) & 0x3F)), UInt8(0x80 | (v & 0x3F))]
    }
}
