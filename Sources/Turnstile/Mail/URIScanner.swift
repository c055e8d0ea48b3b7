// The URIs a message's text mentions, for `uri:` rules and URI tokens: every
// `http://`, `https://` and `www.` run up to white space, a quote, a bracket or a
// non-ASCII byte, with trailing sentence punctuation removed. HTML link targets are in
// the text already (`HTMLText` keeps them), so they are found the same way.

import AutomatonCore

/// Finds URIs in text.
///
/// ```swift
/// URIScanner.uris(in: Array("see http://a.example/x, or www.b.example.".utf8))
/// // "http://a.example/x\nwww.b.example\n"
/// ```
///
/// - Complexity: O(text bytes).
enum URIScanner {
    /// The URIs of `text`, each followed by a line break.
    static func uris(in text: [UInt8]) -> [UInt8] {
        text.withUnsafeBufferPointer(uris(in:))
    }

    static func uris(in text: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        var out: [UInt8] = []
        let n = text.count
        var i = 0
        while i < n {
            let b = text[i] | 0x20
            // A URI starts after a byte that is not a letter or digit ("xhttp://" is none).
            guard b == UInt8(ascii: "h") || b == UInt8(ascii: "w"), i == 0 || !isASCIIWordByte(text[i - 1]) else {
                i += 1
                continue
            }
            let prefix = matchPrefix(text, i)
            guard prefix > 0 else { i += 1; continue }
            var e = i + prefix
            while e < n, isURIByte(text[e]) { e += 1 }
            while e > i + prefix, ".,;:!?)".utf8.contains(text[e - 1]) { e -= 1 }
            if e > i + prefix {
                out.append(contentsOf: text[i..<e])
                out.append(0x0A)
            }
            i = max(e, i + 1)
        }
        return out
    }

    /// The length of `http://`, `https://` or `www.` at `i` (ASCII case-insensitive), or 0.
    private static func matchPrefix(_ text: UnsafeBufferPointer<UInt8>, _ i: Int) -> Int {
        for p in prefixes {
            if i + p.count <= text.count {
                var ok = true
                for (k, c) in p.enumerated() where text[i + k] | (text[i + k] >= 0x41 && text[i + k] <= 0x5A ? 0x20 : 0) != c {
                    ok = false
                    break
                }
                if ok { return p.count }
            }
        }
        return 0
    }

    private static let prefixes: [[UInt8]] = [Array("http://".utf8), Array("https://".utf8), Array("www.".utf8)]

    private static func isURIByte(_ b: UInt8) -> Bool {
        b > 0x20 && b < 0x7F && !"\"'<>()[]{}|\\^`".utf8.contains(b)
    }
}
