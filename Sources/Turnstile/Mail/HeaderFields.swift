// The header section of a message or MIME part (RFC 5322 §2.2, §3.6): `Name: value`
// lines, a value continued on lines that start with a space or a TAB (unfolded by
// removing the line break), ended by the first empty line. LF and CRLF line ends are
// both accepted. An mbox `From ` line at the very top is skipped. A line that is
// neither a field nor a continuation ends the header section early and is counted
// (`headerLineWithoutColon`): it and everything after it are read as body, so no text
// is lost to the judgement.

/// The fields of a header section, as byte ranges into the message.
///
/// ```swift
/// let bytes = Array("Subject: one\r\n two\r\n\r\nbody".utf8)
/// var problems = MailDecodingProblems()
/// let header = bytes.withUnsafeBufferPointer { HeaderFields(parsing: $0[...], problems: &problems) }
/// header.bodyStart                                   // 22
/// bytes.withUnsafeBufferPointer { header.value(of: header.fields[0], in: $0) }   // "one two" (unfolded, trimmed)
/// ```
///
/// - Complexity: O(header bytes).
struct HeaderFields {
    /// One field: where its name is, and where its (still folded) value is.
    struct Field {
        var name: Range<Int>
        var value: Range<Int>
    }

    /// The fields in order.
    var fields: [Field] = []
    /// Where the body starts (after the empty line; the end when there is none).
    var bodyStart: Int

    /// Parses the header section of `part` (offsets are those of the base buffer).
    init(parsing part: Slice<UnsafeBufferPointer<UInt8>>, problems: inout MailDecodingProblems) {
        let buffer = part.base
        let end = part.endIndex
        var i = part.startIndex
        bodyStart = end
        // An mbox separator line at the top is not a field.
        if end - i >= 5, buffer[i] == UInt8(ascii: "F"),
           RecordDelimiter.separatorState(UnsafeBufferPointer(rebasing: buffer[i..<end]), at: 0) == .separator {
            i = Self.lineEnd(buffer, from: i, end: end).next
        }
        while i < end {
            let (contentEnd, next) = Self.lineEnd(buffer, from: i, end: end)
            if contentEnd == i {  // the empty line
                bodyStart = next
                return
            }
            let first = buffer[i]
            if (first == 0x20 || first == 0x09), !fields.isEmpty {
                fields[fields.count - 1].value = fields[fields.count - 1].value.lowerBound..<contentEnd
                i = next
                continue
            }
            guard let field = Self.field(buffer, from: i, to: contentEnd) else {
                problems.add(.headerLineWithoutColon)
                bodyStart = i
                return
            }
            fields.append(field)
            i = next
        }
    }

    /// The line at `from`: where its content ends (before `\r\n` or `\n`) and where
    /// the next line starts.
    static func lineEnd(_ buffer: UnsafeBufferPointer<UInt8>, from: Int, end: Int) -> (contentEnd: Int, next: Int) {
        let region = UnsafeBufferPointer(rebasing: buffer[from..<end])
        guard let nl = RecordDelimiter.find(0x0A, in: region, from: 0) else { return (end, end) }
        let at = from + nl
        return (at > from && buffer[at - 1] == 0x0D ? at - 1 : at, at + 1)
    }

    /// `Name: value` on the line `[from, to)`: a name of printable ASCII other than
    /// `:` (spaces before the colon allowed, as RFC 5322's obsolete syntax does).
    private static func field(_ buffer: UnsafeBufferPointer<UInt8>, from: Int, to: Int) -> Field? {
        var k = from
        while k < to, buffer[k] != UInt8(ascii: ":") {
            let b = buffer[k]
            if b <= 0x20 || b >= 0x7F {
                // Only trailing spaces (then the colon) may follow the name.
                var s = k
                while s < to, buffer[s] == 0x20 || buffer[s] == 0x09 { s += 1 }
                guard s > k, s < to, buffer[s] == UInt8(ascii: ":") else { return nil }
                return k > from ? Field(name: from..<k, value: (s + 1)..<to) : nil
            }
            k += 1
        }
        guard k < to, k > from else { return nil }
        return Field(name: from..<k, value: (k + 1)..<to)
    }

    /// The first field named `name` (lowercase ASCII), if any.
    func first(_ name: String, in buffer: UnsafeBufferPointer<UInt8>) -> Field? {
        fields.first { Self.nameEquals($0, name, buffer) }
    }

    static func nameEquals(_ field: Field, _ name: String, _ buffer: UnsafeBufferPointer<UInt8>) -> Bool {
        guard field.name.count == name.utf8.count else { return false }
        var k = field.name.lowerBound
        for c in name.utf8 {
            var b = buffer[k]
            if b >= 0x41 && b <= 0x5A { b |= 0x20 }
            if b != c { return false }
            k += 1
        }
        return true
    }

    /// The field's value unfolded (line breaks removed), leading and trailing
    /// whitespace trimmed; not yet decoded. Only its first `limit` bytes are read (a
    /// 20 MB Subject would otherwise be copied at every step of decoding).
    func value(of field: Field, in buffer: UnsafeBufferPointer<UInt8>, limit: Int = MailMessage.Limits().maxFieldBytes) -> ArraySlice<UInt8> {
        var out: [UInt8] = []
        let range = field.value.lowerBound..<(field.value.lowerBound + min(field.value.count, limit))
        out.reserveCapacity(range.count)
        for k in range where buffer[k] != 0x0A && buffer[k] != 0x0D { out.append(buffer[k]) }
        var s = out.startIndex, e = out.endIndex
        while s < e, out[s] == 0x20 || out[s] == 0x09 { s += 1 }
        while e > s, out[e - 1] == 0x20 || out[e - 1] == 0x09 { e -= 1 }
        return out[s..<e]
    }
}
