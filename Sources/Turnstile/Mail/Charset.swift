// Charsets to UTF-8, for the text rules look at. UTF-8, US-ASCII, ISO-8859-1,
// ISO-8859-15 and Windows-1252 are converted (they cover most Western mail, and the
// three single-byte ones are a table each); any other charset is kept as bytes and
// counted, so its ASCII words are still seen. Unlabelled or US-ASCII text with 8-bit
// bytes that are not valid UTF-8 is read as Windows-1252, the usual truth of such mail
// (WHATWG's encoding standard maps the labels "us-ascii" and "iso-8859-1" to it too).
// Sources: RFC 2046 §4.1.2, RFC 2978; the WHATWG Encoding Standard's index tables.

import AutomatonCore

/// A charset a text part or encoded word can be converted from.
///
/// ```swift
/// var out: [UInt8] = []
/// Charset(label: Array("ISO-8859-1".utf8)).appendUTF8([0x63, 0x61, 0x66, 0xE9][...], to: &out)
/// // out == Array("café".utf8)
/// ```
///
/// - Complexity: O(bytes).
enum Charset: Sendable, Hashable {
    case utf8
    /// US-ASCII or no label: ASCII, UTF-8 when valid, else Windows-1252.
    case unlabelled
    case latin1
    case latin9
    case windows1252
    /// Any other label: kept as bytes.
    case unknown

    /// The charset a label names (ASCII case-insensitive, quotes already removed).
    init<C: Collection<UInt8>>(label: C) {
        let name = String(decoding: asciiLowercased(label), as: UTF8.self)
        switch name {
        case "utf-8", "utf8", "unicode-1-1-utf-8": self = .utf8
        case "", "us-ascii", "ascii", "ansi_x3.4-1968", "iso646-us", "us", "default", "iso-ir-6":
            self = .unlabelled
        case "iso-8859-1", "iso8859-1", "iso_8859-1", "iso_8859-1:1987", "latin1", "latin-1", "l1", "cp819",
             "iso-ir-100", "ibm819", "8859-1":
            self = .latin1
        case "iso-8859-15", "iso8859-15", "iso_8859-15", "latin9", "latin-9", "l9", "latin-0":
            self = .latin9
        case "windows-1252", "cp1252", "x-cp1252", "win-1252", "cp-1252", "ms-ansi":
            self = .windows1252
        default: self = .unknown
        }
    }

    /// Appends `bytes` converted to UTF-8 to `out`; returns `false` when the charset
    /// is unknown (the bytes are appended unchanged).
    @discardableResult
    func appendUTF8<C: Collection<UInt8>>(_ bytes: C, to out: inout [UInt8]) -> Bool {
        switch self {
        case .utf8:
            out.append(contentsOf: bytes)
        case .unknown:
            out.append(contentsOf: bytes)
            return false
        case .unlabelled:
            if !bytes.contains(where: { $0 >= 0x80 }) || Self.isValidUTF8(bytes) {
                out.append(contentsOf: bytes)
            } else {
                Self.appendSingleByte(bytes, to: &out, table: .windows1252)
            }
        case .latin1, .latin9, .windows1252:
            Self.appendSingleByte(bytes, to: &out, table: self)
        }
        return true
    }

    private static func appendSingleByte<C: Collection<UInt8>>(_ bytes: C, to out: inout [UInt8], table: Charset) {
        // PERF: mail_quality.py / `filter --format mbox` CPU: runs of ASCII are copied
        // whole (the byte-by-byte loop was 8 % of the mail filter's time).
        var runStart = bytes.startIndex
        var i = bytes.startIndex
        while i != bytes.endIndex {
            let b = bytes[i]
            if b < 0x80 { i = bytes.index(after: i); continue }
            out.append(contentsOf: bytes[runStart..<i])
            i = bytes.index(after: i)
            runStart = i
            var scalar = UInt32(b)
            switch table {
            case .windows1252 where b < 0xA0:
                let mapped = windows1252High[Int(b) - 0x80]
                if mapped != 0 { scalar = UInt32(mapped) }
            case .latin9:
                switch b {
                case 0xA4: scalar = 0x20AC
                case 0xA6: scalar = 0x0160
                case 0xA8: scalar = 0x0161
                case 0xB4: scalar = 0x017D
                case 0xB8: scalar = 0x017E
                case 0xBC: scalar = 0x0152
                case 0xBD: scalar = 0x0153
                case 0xBE: scalar = 0x0178
                default: break
                }
            default: break
            }
            appendScalar(scalar, to: &out)
        }
        out.append(contentsOf: bytes[runStart..<i])
    }

    /// Windows-1252 bytes 0x80–0x9F (0: undefined, kept as the C1 control).
    private static let windows1252High: [UInt16] = [
        0x20AC, 0, 0x201A, 0x0192, 0x201E, 0x2026, 0x2020, 0x2021, 0x02C6, 0x2030, 0x0160, 0x2039, 0x0152, 0, 0x017D, 0,
        0, 0x2018, 0x2019, 0x201C, 0x201D, 0x2022, 0x2013, 0x2014, 0x02DC, 0x2122, 0x0161, 0x203A, 0x0153, 0, 0x017E, 0x0178,
    ]

    /// Appends the UTF-8 encoding of `scalar` (a value that is not a valid scalar
    /// becomes U+FFFD).
    static func appendScalar(_ scalar: UInt32, to out: inout [UInt8]) {
        let s = Unicode.Scalar(scalar) ?? "\u{FFFD}"
        out.append(contentsOf: UTF8.encode(s)!)
    }

    /// Whether `bytes` are valid UTF-8.
    static func isValidUTF8<C: Collection<UInt8>>(_ bytes: C) -> Bool {
        var decoder = UTF8()
        var iterator = bytes.makeIterator()
        while true {
            switch decoder.decode(&iterator) {
            case .scalarValue: continue
            case .emptyInput: return true
            case .error: return false
            }
        }
    }
}
