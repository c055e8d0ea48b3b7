// RFC 2047 encoded words in header field values: `=?charset?B?base64?=` and
// `=?charset?Q?quoted_printable?=`, converted to UTF-8 through `Charset`. Whitespace
// between two adjacent encoded words is dropped (RFC 2047 §6.2); text outside encoded
// words is converted as unlabelled text (8-bit bytes that are not UTF-8 read as
// Windows-1252). Encoded words are decoded wherever they occur, also inside quoted
// strings and words, as mail readers do, because spam puts them there.

/// Decoding of header field values.
///
/// ```swift
/// var problems = MailDecodingProblems()
/// EncodedWords.decode(Array("=?ISO-8859-1?Q?Caf=E9?= =?UTF-8?B?w6k=?=".utf8)[...], problems: &problems)
/// // "Caféé" as UTF-8
/// ```
///
/// - Complexity: O(value bytes).
enum EncodedWords {
    /// The decoded value, UTF-8.
    static func decode(_ value: ArraySlice<UInt8>, problems: inout MailDecodingProblems) -> [UInt8] {
        // Most values (Received, Date, …) are plain ASCII without "=?": nothing to do.
        if !value.contains(where: { $0 >= 0x80 || $0 == UInt8(ascii: "=") }) { return Array(value) }
        var out: [UInt8] = []
        out.reserveCapacity(value.count)
        var i = value.startIndex
        var plainStart = i
        /// Where the last encoded word ended, to drop the whitespace before the next one.
        var lastWordEnd: Int? = nil
        while i < value.endIndex - 1 {
            guard value[i] == UInt8(ascii: "="), value[i + 1] == UInt8(ascii: "?"),
                  let (end, decoded) = encodedWord(value, at: i, problems: &problems)
            else {
                i += 1
                continue
            }
            let gap = value[plainStart..<i]
            if !(lastWordEnd == plainStart && gap.allSatisfy({ $0 == 0x20 || $0 == 0x09 })) {
                Charset.unlabelled.appendUTF8(gap, to: &out)
            }
            out.append(contentsOf: decoded)
            i = end
            plainStart = end
            lastWordEnd = end
        }
        Charset.unlabelled.appendUTF8(value[plainStart...], to: &out)
        return out
    }

    /// The encoded word starting at `start` (`=?`): where it ends and its UTF-8 text,
    /// or nil when it is not a well-formed encoded word.
    private static func encodedWord(
        _ value: ArraySlice<UInt8>, at start: Int, problems: inout MailDecodingProblems
    ) -> (end: Int, text: [UInt8])? {
        let q = UInt8(ascii: "?")
        let limit = min(value.endIndex, start + 2 + 1024)  // an encoded word is at most 75 bytes; be lenient
        guard let q1 = value[(start + 2)..<limit].firstIndex(of: q), q1 + 2 < limit,
              value[q1 + 2] == q else { return nil }
        let encoding = value[q1 + 1] | 0x20
        guard encoding == UInt8(ascii: "b") || encoding == UInt8(ascii: "q") else { return nil }
        let textStart = q1 + 3
        var k = textStart
        while k + 1 < limit, !(value[k] == q && value[k + 1] == UInt8(ascii: "=")) {
            if value[k] == 0x20 || value[k] == 0x0A || value[k] == 0x0D { return nil }
            k += 1
        }
        guard k + 1 < limit else { return nil }
        var label = value[(start + 2)..<q1]
        if let star = label.firstIndex(of: UInt8(ascii: "*")) { label = label[..<star] }  // RFC 2231 language
        var raw: [UInt8] = []
        let text = value[textStart..<k]
        if encoding == UInt8(ascii: "b") {
            if !TransferEncoding.decodeBase64(text, into: &raw) { problems.add(.brokenBase64) }
        } else {
            let spaced = text.map { $0 == UInt8(ascii: "_") ? 0x20 : $0 }
            TransferEncoding.decodeQuotedPrintable(spaced, into: &raw)
        }
        var out: [UInt8] = []
        if !Charset(label: label).appendUTF8(raw, to: &out) { problems.add(.unknownCharset) }
        return (k + 2, out)
    }
}
