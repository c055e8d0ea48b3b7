// Content-Transfer-Encoding (RFC 2045 §6): base64 and quoted-printable decoded, the
// identity encodings (7bit, 8bit, binary) passed as they are.
//
// The base64 decoder is our own small table decoder rather than Foundation's
// `Data(base64Encoded:)`, because a malformed body must still give what decodes:
// Foundation rejects the whole input on one misplaced byte or a length that is not a
// multiple of four, while spam is often exactly that. Bytes outside the alphabet are
// skipped and reported, decoding stops at the first `=`, and a last incomplete
// quartet gives the bytes it holds.

/// A part's transfer encoding.
///
/// ```swift
/// var out: [UInt8] = []
/// TransferEncoding.base64.decode(Array("aGVsbG8=".utf8)[...], into: &out)   // true; out == "hello"
/// ```
///
/// - Complexity: O(bytes).
enum TransferEncoding: Sendable, Hashable {
    case identity
    case base64
    case quotedPrintable
    /// Any other label (x-uuencode, …): kept as bytes.
    case unknown

    /// The encoding a Content-Transfer-Encoding value names (ASCII case-insensitive;
    /// absent or empty means identity).
    init<C: Collection<UInt8>>(label: C) {
        let name = String(decoding: label.map { $0 | ($0 >= 0x41 && $0 <= 0x5A ? 0x20 : 0) }, as: UTF8.self)
        switch name {
        case "", "7bit", "8bit", "binary", "7-bit", "8-bit": self = .identity
        case "base64": self = .base64
        case "quoted-printable": self = .quotedPrintable
        default: self = .unknown
        }
    }

    /// Appends the decoded `bytes` to `out`; returns `false` when they were malformed
    /// (what decoded is still appended).
    @discardableResult
    func decode(_ bytes: Slice<UnsafeBufferPointer<UInt8>>, into out: inout [UInt8]) -> Bool {
        switch self {
        case .identity, .unknown:
            out.append(contentsOf: bytes)
            return true
        case .base64:
            return Self.decodeBase64(bytes, into: &out)
        case .quotedPrintable:
            Self.decodeQuotedPrintable(bytes, into: &out)
            return true
        }
    }

    /// `decode` for an array slice (encoded words, tests).
    @discardableResult
    func decode(_ bytes: ArraySlice<UInt8>, into out: inout [UInt8]) -> Bool {
        bytes.withUnsafeBufferPointer { decode($0[...], into: &out) }
    }

    /// Value of each base64 byte: 0–63, `skip` for whitespace, `pad` for `=`,
    /// `invalid` otherwise.
    private static let skip: UInt8 = 64, pad: UInt8 = 65, invalid: UInt8 = 255
    private static let base64Values: [UInt8] = {
        var table = [UInt8](repeating: invalid, count: 256)
        for (i, c) in "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8.enumerated() {
            table[Int(c)] = UInt8(i)
        }
        for c in [0x20, 0x09, 0x0D, 0x0A, 0x0B, 0x0C] { table[c] = skip }
        table[Int(UInt8(ascii: "="))] = pad
        return table
    }()

    static func decodeBase64<C: Collection<UInt8>>(_ bytes: C, into out: inout [UInt8]) -> Bool {
        var ok = true
        var accumulator: UInt32 = 0
        var held = 0
        out.reserveCapacity(out.count + bytes.count * 3 / 4)
        base64Values.withUnsafeBufferPointer { values in
            for b in bytes {
                let v = values[Int(b)]
                if v < 64 {
                    accumulator = accumulator << 6 | UInt32(v)
                    held += 1
                    if held == 4 {
                        out.append(UInt8(truncatingIfNeeded: accumulator >> 16))
                        out.append(UInt8(truncatingIfNeeded: accumulator >> 8))
                        out.append(UInt8(truncatingIfNeeded: accumulator))
                        accumulator = 0
                        held = 0
                    }
                } else if v == skip {
                    continue
                } else if v == pad {
                    break
                } else {
                    ok = false
                }
            }
        }
        switch held {
        case 2: out.append(UInt8(truncatingIfNeeded: accumulator >> 4))
        case 3:
            out.append(UInt8(truncatingIfNeeded: accumulator >> 10))
            out.append(UInt8(truncatingIfNeeded: accumulator >> 2))
        case 1: ok = false
        default: break
        }
        return ok
    }

    static func decodeQuotedPrintable<C: BidirectionalCollection<UInt8>>(_ bytes: C, into out: inout [UInt8]) {
        var i = bytes.startIndex
        let end = bytes.endIndex
        while i != end {
            let b = bytes[i]
            guard b == UInt8(ascii: "=") else {
                out.append(b)
                i = bytes.index(after: i)
                continue
            }
            let j = bytes.index(after: i)
            if j == end { break }  // a lone "=" at the end: a soft break with nothing after
            // A soft line break, with the spaces or tabs a mail system may have added
            // before the line end (RFC 2045 §6.7, rule 3: "=  \n" is a soft break too).
            var w = j
            while w != end, bytes[w] == 0x20 || bytes[w] == 0x09 { w = bytes.index(after: w) }
            if w == end { break }
            if bytes[w] == 0x0A { i = bytes.index(after: w); continue }
            if bytes[w] == 0x0D {
                let k = bytes.index(after: w)
                if k == end { break }
                if bytes[k] == 0x0A { i = bytes.index(after: k); continue }
            }
            let k = bytes.index(after: j)
            if k != end, let hi = hexValue(bytes[j]), let lo = hexValue(bytes[k]) {
                out.append(hi << 4 | lo)
                i = bytes.index(after: k)
            } else {
                // Not an escape: keep the "=" as it is (RFC 2045 §6.7, note 1).
                out.append(b)
                i = j
            }
        }
    }

    static func hexValue(_ b: UInt8) -> UInt8? {
        switch b {
        case 0x30...0x39: return b - 0x30
        case 0x41...0x46: return b - 0x41 + 10
        case 0x61...0x66: return b - 0x61 + 10
        default: return nil
        }
    }
}
