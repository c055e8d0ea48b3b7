// Replacement and masking of leftmost matches (censoring stop words).

import AutomatonCore

extension LiteralEngine {
    /// Copies `h`, letting `replace` write the replacement of every match. Matches are
    /// those of `forEachMatch`; a match that overlaps an earlier replaced one (only
    /// possible with the overlapping kind) is left alone.
    func replacing(_ h: UnsafeBufferPointer<UInt8>, _ replace: (Match, inout [UInt8]) -> Void) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(h.count)
        var copied = 0
        forEachMatch(h, from: 0) { m in
            guard m.start >= copied, m.end <= h.count else { return true }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: h[copied..<m.start]))
            replace(m, &out)
            copied = m.end
            return true
        }
        out.append(contentsOf: UnsafeBufferPointer(rebasing: h[copied..<h.count]))
        return out
    }
}

extension AhoCorasick {
    /// Replaces every match of pattern *i* with `replacements[i]`.
    ///
    /// ```swift
    /// let ac = try AhoCorasick.Builder().asciiCaseInsensitive(true).build(["darn", "heck"])
    /// ac.replaceAll(in: "Darn it, heck!", with: ["d***", "h***"])   // "d*** it, h***!"
    /// ```
    /// With ``MatchKind/overlapping`` a match that overlaps an already replaced one is
    /// skipped, so use a leftmost kind for replacement.
    ///
    /// - Precondition: `replacements.count == patternCount`.
    /// - Complexity: O(n + matches + output).
    public func replaceAll(in haystack: [UInt8], with replacements: [[UInt8]]) -> [UInt8] {
        precondition(replacements.count == patternCount, "one replacement per pattern is needed")
        return haystack.withUnsafeBufferPointer { h in
            engine.replacing(h) { m, out in out.append(contentsOf: replacements[m.pattern]) }
        }
    }

    /// Replaces every match of pattern *i* in the string with `replacements[i]`.
    /// - Complexity: O(n + matches + output).
    public func replaceAll(in haystack: String, with replacements: [String]) -> String {
        String(decoding: replaceAll(in: Array(haystack.utf8), with: replacements.map { Array($0.utf8) }), as: UTF8.self)
    }

    /// Replaces every match with what `replacement` returns for it.
    ///
    /// ```swift
    /// ac.replaceAll(in: bytes) { m in Array("<\(m.pattern)>".utf8) }
    /// ```
    /// - Complexity: O(n + matches + output).
    public func replaceAll(in haystack: [UInt8], using replacement: (Match) -> [UInt8]) -> [UInt8] {
        haystack.withUnsafeBufferPointer { h in engine.replacing(h) { m, out in out.append(contentsOf: replacement(m)) } }
    }

    /// Masks every matched byte with `mask`, keeping the length.
    ///
    /// ```swift
    /// let ac = try AhoCorasick.Builder().wholeWord(true).build(["spam"])
    /// String(decoding: ac.masked(Array("spam, spammer".utf8)), as: UTF8.self)  // "****, spammer"
    /// ```
    /// - Complexity: O(n + matches).
    public func masked(_ haystack: [UInt8], with mask: UInt8 = UInt8(ascii: "*")) -> [UInt8] {
        haystack.withUnsafeBufferPointer { h in
            engine.replacing(h) { m, out in out.append(contentsOf: repeatElement(mask, count: m.end - m.start)) }
        }
    }

    /// Masks every matched character of the string with `mask` (one mask per Unicode
    /// scalar of the matched text, the rule `turnstile filter --mask` uses).
    ///
    /// ```swift
    /// let ac = try AhoCorasick.Builder().asciiCaseInsensitive(true).wholeWord(true).build(["free", "win"])
    /// ac.masked("WIN a FREE prize", with: "#")   // "### a #### prize"
    /// ```
    /// - Complexity: O(n + matches).
    public func masked(_ haystack: String, with mask: Character = "*") -> String {
        let bytes = Array(haystack.utf8)
        let maskBytes = Array(String(mask).utf8)
        let out = bytes.withUnsafeBufferPointer { h in
            engine.replacing(h) { m, out in
                let n = maskLength(of: UnsafeBufferPointer(rebasing: h[m.start..<m.end]))
                for _ in 0..<n { out.append(contentsOf: maskBytes) }
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}

extension KMP {
    /// Replaces every match with `replacement` (see ``AhoCorasick/replaceAll(in:with:)-([UInt8],_)``).
    /// - Complexity: O(n + matches + output).
    public func replaceAll(in haystack: [UInt8], with replacement: [UInt8]) -> [UInt8] {
        haystack.withUnsafeBufferPointer { h in engine.replacing(h) { _, out in out.append(contentsOf: replacement) } }
    }

    /// Replaces every match in the string with `replacement`.
    public func replaceAll(in haystack: String, with replacement: String) -> String {
        String(decoding: replaceAll(in: Array(haystack.utf8), with: Array(replacement.utf8)), as: UTF8.self)
    }

    /// Masks every matched byte with `mask`.
    /// - Complexity: O(n + matches).
    public func masked(_ haystack: [UInt8], with mask: UInt8 = UInt8(ascii: "*")) -> [UInt8] {
        haystack.withUnsafeBufferPointer { h in
            engine.replacing(h) { m, out in out.append(contentsOf: repeatElement(mask, count: m.end - m.start)) }
        }
    }
}
