// Structured MIME header values (RFC 2045 §5.1): `type/subtype; name=value;
// name="quoted value"`. Names and the type are ASCII case-insensitive (returned
// lowercase); quoted strings lose their quotes and backslash escapes; RFC 2231
// `name*=charset'lang'value` keeps only the value (percent escapes decoded). Comments
// and continuations (`name*0=`) are rare in practice and not supported beyond that.

/// A Content-Type (or Content-Disposition) value: the type and its parameters.
///
/// ```swift
/// let ct = MIMEParameters(Array("Multipart/Alternative; boundary=\"=_b 1\"".utf8)[...])
/// ct.type                       // "multipart/alternative"
/// ct["boundary"]                // "=_b 1" as bytes
/// ```
///
/// - Complexity: O(value bytes).
struct MIMEParameters {
    /// The value before the first `;`, lowercase, spaces trimmed.
    var type: String
    /// Parameters by lowercase name, in order; the first of a name wins.
    var parameters: [(name: String, value: [UInt8])] = []

    init(_ value: ArraySlice<UInt8>) {
        let semicolon = value.firstIndex(of: UInt8(ascii: ";")) ?? value.endIndex
        type = String(decoding: Self.trimmed(value[..<semicolon]).map { $0 | ($0 >= 0x41 && $0 <= 0x5A ? 0x20 : 0) },
                      as: UTF8.self)
        var i = semicolon
        while i < value.endIndex {
            i += 1  // past ';'
            while i < value.endIndex, value[i] == 0x20 || value[i] == 0x09 { i += 1 }
            let nameStart = i
            while i < value.endIndex, value[i] != UInt8(ascii: "="), value[i] != UInt8(ascii: ";") { i += 1 }
            let nameBytes = Self.trimmed(value[nameStart..<i])
            guard i < value.endIndex, value[i] == UInt8(ascii: "=") else { continue }
            i += 1
            while i < value.endIndex, value[i] == 0x20 || value[i] == 0x09 { i += 1 }
            var v: [UInt8] = []
            if i < value.endIndex, value[i] == UInt8(ascii: "\"") {
                i += 1
                while i < value.endIndex, value[i] != UInt8(ascii: "\"") {
                    if value[i] == UInt8(ascii: "\\"), i + 1 < value.endIndex { i += 1 }
                    v.append(value[i])
                    i += 1
                }
                // Skip to the next ';'.
                while i < value.endIndex, value[i] != UInt8(ascii: ";") { i += 1 }
            } else {
                let s = i
                while i < value.endIndex, value[i] != UInt8(ascii: ";") { i += 1 }
                v = Array(Self.trimmed(value[s..<i]))
            }
            var name = String(decoding: nameBytes.map { $0 | ($0 >= 0x41 && $0 <= 0x5A ? 0x20 : 0) }, as: UTF8.self)
            if name.hasSuffix("*") {
                name.removeLast()
                v = Self.rfc2231Value(v)
            }
            if !parameters.contains(where: { $0.name == name }) { parameters.append((name, v)) }
        }
    }

    /// The value of parameter `name` (lowercase), if present.
    subscript(name: String) -> [UInt8]? {
        parameters.first { $0.name == name }?.value
    }

    private static func trimmed(_ s: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var a = s.startIndex, b = s.endIndex
        while a < b, s[a] == 0x20 || s[a] == 0x09 { a += 1 }
        while b > a, s[b - 1] == 0x20 || s[b - 1] == 0x09 { b -= 1 }
        return s[a..<b]
    }

    /// `charset'lang'percent-encoded` → the decoded bytes (charset not applied).
    private static func rfc2231Value(_ v: [UInt8]) -> [UInt8] {
        let quote = UInt8(ascii: "'")
        var body = v[...]
        if let q1 = v.firstIndex(of: quote), let q2 = v[(q1 + 1)...].firstIndex(of: quote) { body = v[(q2 + 1)...] }
        var out: [UInt8] = []
        var i = body.startIndex
        while i < body.endIndex {
            if body[i] == UInt8(ascii: "%"), i + 2 < body.endIndex,
               let hi = TransferEncoding.hexValue(body[i + 1]), let lo = TransferEncoding.hexValue(body[i + 2]) {
                out.append(hi << 4 | lo)
                i += 3
            } else {
                out.append(body[i])
                i += 1
            }
        }
        return out
    }
}
