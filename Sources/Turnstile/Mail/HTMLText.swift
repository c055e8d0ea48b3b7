// HTML to the text a reader sees, for text/html parts: tags dropped, comments and the
// contents of <script> and <style> dropped, character references decoded, and the
// targets of links (`href`) kept as text so URI rules and words see them. Tags that
// break a line or a cell (<p>, <br>, <td>, …) become a space; inline tags (<b>, <font>,
// <span>, …) vanish, so "FR<b></b>EE" reads "FREE" as it shows. A lone `<` that starts
// no tag is text. One pass, no DOM (a small scanner in the spirit of the WHATWG
// tokenizer's data, tag and comment states, without its error recovery).

/// Text of an HTML document.
///
/// ```swift
/// var text: [UInt8] = []
/// HTMLText.append(Array("<p>Caf&eacute; <a href=\"http://x.example/\">here</a><script>x()</script>".utf8), to: &text)
/// // " Café  http://x.example/ here "
/// ```
///
/// - Complexity: O(document bytes).
enum HTMLText {
    /// Appends the text of `html` (UTF-8) to `text`.
    static func append(_ html: [UInt8], to text: inout [UInt8]) {
        html.withUnsafeBufferPointer { append($0, to: &text) }
    }

    static func append(_ h: UnsafeBufferPointer<UInt8>, to text: inout [UInt8]) {
        var facts = HTMLFacts()
        append(h, to: &text, facts: &facts)
    }

    /// ``append(_:to:)`` that also notes forms and links whose text names another
    /// domain than their target in `facts`.
    static func append(_ h: UnsafeBufferPointer<UInt8>, to text: inout [UInt8], facts: inout HTMLFacts) {
        let n = h.count
        /// The open link's target host and where its text starts in `text`.
        var anchor: (host: [UInt8], textStart: Int)? = nil
        text.reserveCapacity(text.count + n / 2)
        var i = 0
        while i < n {
            let b = h[i]
            if b == UInt8(ascii: "&") {
                i = entity(h, at: i, to: &text)
                continue
            }
            guard b == UInt8(ascii: "<") else {
                text.append(b)
                i += 1
                continue
            }
            // A comment.
            if has(h, i, "<!--") {
                i = find(h, "-->", from: i + 4).map { $0 + 3 } ?? n
                continue
            }
            var j = i + 1
            let closing = j < n && h[j] == UInt8(ascii: "/")
            if closing { j += 1 }
            let nameStart = j
            while j < n, isNameByte(h[j]) { j += 1 }
            let special = j == nameStart && j < n && (h[j] == UInt8(ascii: "!") || h[j] == UInt8(ascii: "?"))
            guard j > nameStart || special else {
                text.append(b)  // a lone "<"
                i += 1
                continue
            }
            let tagEnd = endOfTag(h, from: j)
            let name = nameKey(h, nameStart, j)
            if !closing, name == scriptKey || name == styleKey {
                let close = name == scriptKey ? "</script" : "</style"
                if let c = findCaseInsensitive(h, close, from: tagEnd) {
                    i = (find(h, ">", from: c).map { $0 + 1 }) ?? n
                } else {
                    i = n
                }
                text.append(0x20)
                continue
            }
            if closing, name == aKey, let open = anchor {
                if open.textStart < text.count,
                   let named = MailFacts.domainNamed(in: text[open.textStart...]),
                   MailFacts.registrableDomain(named) != MailFacts.registrableDomain(open.host) {
                    facts.linkTextNamesOtherDomain = true
                }
                anchor = nil
            }
            if !closing, name == formKey { facts.forms += 1 }
            if !closing, name == aKey || name == areaKey, let href = attribute(h, "href", from: j, to: tagEnd) {
                text.append(0x20)
                let start = text.count
                append(href, to: &text)  // entities in the link decoded too
                if name == aKey, let host = MailFacts.host(ofURI: text[start...]) {
                    anchor = (host, text.count + 1)
                }
                text.append(0x20)
            } else if !inlineTags.contains(name) {
                text.append(0x20)
            }
            i = min(n, tagEnd + 1)
        }
    }

    /// Tags that do not separate words, by ``nameKey(_:_:_:)``.
    private static let inlineTags: Set<UInt64> = Set([
        "a", "b", "i", "u", "em", "strong", "font", "span", "small", "big", "sub", "sup", "tt", "s", "strike",
        "abbr", "acronym", "cite", "code", "kbd", "q", "var", "wbr", "mark", "ins", "del", "o:p", "nobr", "blink",
    ].map(key))
    private static let scriptKey = key("script"), styleKey = key("style"), aKey = key("a"), areaKey = key("area"),
        formKey = key("form")

    /// A tag name as a number: up to 8 lowercase bytes, little-endian (0 for longer
    /// names, which are none of the tags looked for). PERF: a String per tag was 5 %
    /// of the mail filter's time.
    private static func key(_ name: String) -> UInt64 {
        var k: UInt64 = 0
        for (i, b) in name.utf8.enumerated() { k |= UInt64(b) << (8 * UInt64(i)) }
        return k
    }

    private static func nameKey(_ h: UnsafeBufferPointer<UInt8>, _ s: Int, _ e: Int) -> UInt64 {
        guard e - s <= 8 else { return 0 }
        var k: UInt64 = 0
        for i in s..<e {
            let b = h[i]
            k |= UInt64(b >= 0x41 && b <= 0x5A ? b | 0x20 : b) << (8 * UInt64(i - s))
        }
        return k
    }

    private static func isASCIIAlphanumeric(_ b: UInt8) -> Bool {
        ((b | 0x20) >= 0x61 && (b | 0x20) <= 0x7A) || (b >= 0x30 && b <= 0x39)
    }

    private static func isNameByte(_ b: UInt8) -> Bool {
        isASCIIAlphanumeric(b) || b == UInt8(ascii: ":")
    }


    /// The index of the `>` that ends a tag whose name ends at `from` (quotes
    /// respected), or the last index when there is none.
    private static func endOfTag(_ h: UnsafeBufferPointer<UInt8>, from: Int) -> Int {
        var k = from
        var quote: UInt8 = 0
        while k < h.count {
            let c = h[k]
            if quote != 0 {
                if c == quote { quote = 0 }
            } else if c == UInt8(ascii: ">") {
                return k
            } else if c == UInt8(ascii: "\"") || c == UInt8(ascii: "'") {
                // A quote only opens after '=' (an attribute value), so a stray one cannot hide the '>'.
                var p = k - 1
                while p > from, h[p] == 0x20 { p -= 1 }
                if h[p] == UInt8(ascii: "=") { quote = c }
            }
            k += 1
        }
        return h.count - 1
    }

    /// The value of attribute `name` in the tag bytes `[from, to)`.
    private static func attribute(_ h: UnsafeBufferPointer<UInt8>, _ name: String, from: Int, to: Int) -> [UInt8]? {
        var k = from
        let count = name.utf8.count
        while k + count < to {
            guard let at = findCaseInsensitive(h, name, from: k, until: to), at + count < to else { return nil }
            var p = at + count
            let before = h[at - 1]
            k = at + 1
            guard before == 0x20 || before == 0x09 || before == 0x0A || before == 0x0D || before == UInt8(ascii: "\"")
                || before == UInt8(ascii: "'") else { continue }
            while p < to, h[p] == 0x20 || h[p] == 0x0A || h[p] == 0x0D || h[p] == 0x09 { p += 1 }
            guard p < to, h[p] == UInt8(ascii: "=") else { continue }
            p += 1
            while p < to, h[p] == 0x20 || h[p] == 0x0A || h[p] == 0x0D || h[p] == 0x09 { p += 1 }
            guard p < to else { return nil }
            let q = h[p]
            if q == UInt8(ascii: "\"") || q == UInt8(ascii: "'") {
                let e = (find(h, q, from: p + 1) ?? to)
                return Array(h[(p + 1)..<min(e, to)])
            }
            var e = p
            while e < to, h[e] != 0x20, h[e] != UInt8(ascii: ">"), h[e] != 0x0A, h[e] != 0x0D, h[e] != 0x09 { e += 1 }
            return Array(h[p..<e])
        }
        return nil
    }

    /// Decodes the character reference at `at` (`&`), appending its text (or the `&`
    /// itself when it is none); returns where the text goes on.
    private static func entity(_ h: UnsafeBufferPointer<UInt8>, at: Int, to text: inout [UInt8]) -> Int {
        var k = at + 1
        let limit = min(h.count, at + 12)
        if k < limit, h[k] == UInt8(ascii: "#") {
            k += 1
            let hex = k < limit && (h[k] | 0x20) == UInt8(ascii: "x")
            if hex { k += 1 }
            var value: UInt32 = 0
            let digitsStart = k
            while k < limit {
                if hex, let d = TransferEncoding.hexValue(h[k]) { value = value &* 16 &+ UInt32(d) }
                else if !hex, h[k] >= 0x30, h[k] <= 0x39 { value = value &* 10 &+ UInt32(h[k] - 0x30) }
                else { break }
                k += 1
            }
            guard k > digitsStart else { text.append(h[at]); return at + 1 }
            if k < h.count, h[k] == UInt8(ascii: ";") { k += 1 }
            Charset.appendScalar(value == 0 ? 0xFFFD : value, to: &text)
            return k
        }
        let nameStart = k
        while k < limit, isASCIIAlphanumeric(h[k]) { k += 1 }
        if k > nameStart, let scalar = namedEntities[String(decoding: h[nameStart..<k], as: UTF8.self)] {
            if k < h.count, h[k] == UInt8(ascii: ";") { k += 1 }
            Charset.appendScalar(scalar, to: &text)
            return k
        }
        text.append(h[at])
        return at + 1
    }

    /// The named references mail uses (HTML 4's Latin-1 and common symbols).
    private static let namedEntities: [String: UInt32] = [
        "amp": 0x26, "lt": 0x3C, "gt": 0x3E, "quot": 0x22, "apos": 0x27, "nbsp": 0x20,
        "copy": 0xA9, "reg": 0xAE, "trade": 0x2122, "euro": 0x20AC, "pound": 0xA3, "yen": 0xA5, "cent": 0xA2,
        "sect": 0xA7, "para": 0xB6, "middot": 0xB7, "bull": 0x2022, "hellip": 0x2026, "ndash": 0x2013,
        "mdash": 0x2014, "lsquo": 0x2018, "rsquo": 0x2019, "ldquo": 0x201C, "rdquo": 0x201D, "laquo": 0xAB,
        "raquo": 0xBB, "deg": 0xB0, "plusmn": 0xB1, "times": 0xD7, "divide": 0xF7, "frac12": 0xBD,
        "frac14": 0xBC, "frac34": 0xBE, "iexcl": 0xA1, "iquest": 0xBF, "shy": 0xAD,
        "agrave": 0xE0, "aacute": 0xE1, "acirc": 0xE2, "atilde": 0xE3, "auml": 0xE4, "aring": 0xE5,
        "aelig": 0xE6, "ccedil": 0xE7, "egrave": 0xE8, "eacute": 0xE9, "ecirc": 0xEA, "euml": 0xEB,
        "igrave": 0xEC, "iacute": 0xED, "icirc": 0xEE, "iuml": 0xEF, "ntilde": 0xF1, "ograve": 0xF2,
        "oacute": 0xF3, "ocirc": 0xF4, "otilde": 0xF5, "ouml": 0xF6, "oslash": 0xF8, "ugrave": 0xF9,
        "uacute": 0xFA, "ucirc": 0xFB, "uuml": 0xFC, "yacute": 0xFD, "yuml": 0xFF, "szlig": 0xDF,
        "Agrave": 0xC0, "Aacute": 0xC1, "Acirc": 0xC2, "Auml": 0xC4, "Ccedil": 0xC7, "Eacute": 0xC9,
        "Egrave": 0xC8, "Ntilde": 0xD1, "Ouml": 0xD6, "Uuml": 0xDC,
    ]

    private static func has(_ h: UnsafeBufferPointer<UInt8>, _ at: Int, _ s: String) -> Bool {
        var k = at
        for c in s.utf8 {
            if k >= h.count || h[k] != c { return false }
            k += 1
        }
        return true
    }

    private static func find(_ h: UnsafeBufferPointer<UInt8>, _ byte: UInt8, from: Int) -> Int? {
        RecordDelimiter.find(byte, in: h, from: from)
    }

    private static func find(_ h: UnsafeBufferPointer<UInt8>, _ s: String, from: Int) -> Int? {
        let first = s.utf8.first!
        var k = from
        while let p = RecordDelimiter.find(first, in: h, from: k) {
            if has(h, p, s) { return p }
            k = p + 1
        }
        return nil
    }

    /// The first occurrence of ASCII `s` (lowercase) at or after `from`, ignoring case.
    private static func findCaseInsensitive(
        _ h: UnsafeBufferPointer<UInt8>, _ s: String, from: Int, until: Int? = nil
    ) -> Int? {
        let needle = Array(s.utf8)
        let end = min(until ?? h.count, h.count)
        var k = max(from, 0)
        while k + needle.count <= end {
            var ok = true
            for (d, c) in needle.enumerated() {
                var b = h[k + d]
                if b >= 0x41 && b <= 0x5A { b |= 0x20 }
                if b != c { ok = false; break }
            }
            if ok { return k }
            k += 1
        }
        return nil
    }
}
