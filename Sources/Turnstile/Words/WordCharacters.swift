// grep's word characters: `[0-9A-Za-z_]` and, in UTF-8 text, every letter and digit
// beyond ASCII (GNU grep's `wordchar`: `iswalnum(c) || c == '_'` in a UTF-8 locale).
// The automata decide word boundaries one byte at a time, so they see only the ASCII
// word bytes; this file decides the rest, from the scalar on either side of a match.

import AutomatonCore

/// Whether the character before or after an offset is a word character, as grep's
/// `-w` sees it in UTF-8 text.
///
/// ```swift
/// // "réfooé": the scalars around "foo" (bytes 3..<6) are letters.
/// WordCharacters.isWord(before: 3, in: buffer)   // true
/// ```
/// - Complexity: O(1): at most four bytes are read on either side.
enum WordCharacters {
    /// Whether the character ending at `offset` is a word character (false at 0).
    static func isWord(before offset: Int, in haystack: UnsafeBufferPointer<UInt8>) -> Bool {
        guard offset > 0 else { return false }
        let last = haystack[offset - 1]
        if last < 0x80 { return isASCIIWordByte(last) }
        // Back to the lead byte of the scalar (at most three continuation bytes).
        var start = offset - 1
        while start > 0, offset - start < 4, haystack[start] & 0xC0 == 0x80 { start -= 1 }
        guard let (scalar, length) = decode(haystack, at: start), start + length == offset else { return false }
        return isWord(scalar)
    }

    /// Whether the character starting at `offset` is a word character (false at the end).
    static func isWord(after offset: Int, in haystack: UnsafeBufferPointer<UInt8>) -> Bool {
        guard offset < haystack.count else { return false }
        let first = haystack[offset]
        if first < 0x80 { return isASCIIWordByte(first) }
        guard let (scalar, _) = decode(haystack, at: offset) else { return false }
        return isWord(scalar)
    }

    /// Whether a match at `range` has no word character on either side (grep's `-w`).
    static func isWholeWord(_ range: Range<Int>, in haystack: UnsafeBufferPointer<UInt8>) -> Bool {
        !isWord(before: range.lowerBound, in: haystack) && !isWord(after: range.upperBound, in: haystack)
    }

    /// A letter or digit of any script, or `_` (an invalid sequence is not one).
    // PERF: never inlined: `Unicode.Scalar.Properties` is resilient, so a caller that
    // inlines this asks for its metadata and sizes a stack slot on every call, even when
    // no byte beyond ASCII is in sight (the word-run search's per-run prologue, 9 % of
    // `filter --count`'s cycles).
    @inline(never)
    static func isWord(_ scalar: Unicode.Scalar) -> Bool {
        if scalar.value < 0x80 { return isASCIIWordByte(UInt8(scalar.value)) }
        let p = scalar.properties
        return p.isAlphabetic || p.generalCategory == .decimalNumber
    }

    /// The scalar whose UTF-8 encoding starts at `offset` and its length, or nil for an
    /// invalid or cut sequence.
    private static func decode(_ haystack: UnsafeBufferPointer<UInt8>, at offset: Int) -> (Unicode.Scalar, Int)? {
        let lead = haystack[offset]
        let length: Int
        var value: UInt32
        switch lead {
        case 0xC2...0xDF: length = 2; value = UInt32(lead & 0x1F)
        case 0xE0...0xEF: length = 3; value = UInt32(lead & 0x0F)
        case 0xF0...0xF4: length = 4; value = UInt32(lead & 0x07)
        default: return nil
        }
        guard offset + length <= haystack.count else { return nil }
        for i in 1..<length {
            let b = haystack[offset + i]
            guard b & 0xC0 == 0x80 else { return nil }
            value = value << 6 | UInt32(b & 0x3F)
        }
        // Overlong forms and surrogates are not scalars.
        let minimum: UInt32 = length == 2 ? 0x80 : length == 3 ? 0x800 : 0x10000
        guard value >= minimum, let scalar = Unicode.Scalar(value) else { return nil }
        return (scalar, length)
    }
}
