import Turnstile

/// Byte-level rendering helpers: JSON strings, masks, highlights. None of them turns a
/// record into a `String`.
enum Rendering {
    /// grep's match colour (bold red) and reset, with erase-to-end-of-line.
    static let colorStart: [UInt8] = Array("\u{1B}[01;31m\u{1B}[K".utf8)
    static let colorEnd: [UInt8] = Array("\u{1B}[m\u{1B}[K".utf8)

    private static let hex: [UInt8] = Array("0123456789abcdef".utf8)

    /// Appends `bytes` as a JSON string literal (quotes included). Invalid UTF-8 becomes
    /// U+FFFD so the output is always valid JSON.
    static func appendJSONString(_ bytes: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        var i = 0
        let n = bytes.count
        while i < n {
            let b = bytes[i]
            if b < 0x80 {
                switch b {
                case 0x22: out.append(contentsOf: [0x5C, 0x22])
                case 0x5C: out.append(contentsOf: [0x5C, 0x5C])
                case 0x0A: out.append(contentsOf: [0x5C, UInt8(ascii: "n")])
                case 0x0D: out.append(contentsOf: [0x5C, UInt8(ascii: "r")])
                case 0x09: out.append(contentsOf: [0x5C, UInt8(ascii: "t")])
                case 0..<0x20, 0x7F:
                    out.append(contentsOf: Array("\\u00".utf8))
                    out.append(hex[Int(b >> 4)])
                    out.append(hex[Int(b & 15)])
                default: out.append(b)
                }
                i += 1
                continue
            }
            let length = validScalarLength(bytes, at: i)
            if length == 0 {
                out.append(contentsOf: [0xEF, 0xBF, 0xBD])
                i += 1
            } else {
                for k in 0..<length { out.append(bytes[i + k]) }
                i += length
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    /// Appends `n` in decimal, as `String(n)` would spell it, without making a
    /// `String`: `--json` writes three numbers per match, and an interpolated string
    /// per match (an allocation each) was most of its cost.
    static func appendDecimal(_ n: Int, to out: inout [UInt8]) {
        if n < 0 {
            out.append(UInt8(ascii: "-"))
            // -(Int.min) overflows: spell its magnitude from the unsigned value.
            appendDecimal(UInt(bitPattern: 0 &- n), to: &out)
        } else {
            appendDecimal(UInt(n), to: &out)
        }
    }

    private static func appendDecimal(_ n: UInt, to out: inout [UInt8]) {
        // Digits from the right into a stack buffer (division by the constant 10 is a
        // multiply and a shift), then one append: per-byte appends each checked the
        // array's uniqueness, and cost four times as many instructions.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { digits in  // UInt.max has 20
            var i = 20
            var v = n
            repeat {
                i -= 1
                digits[i] = UInt8(truncatingIfNeeded: v % 10) &+ 0x30
                v /= 10
            } while v > 0
            out.append(contentsOf: UnsafeBufferPointer(rebasing: digits[i...]))
        }
    }

    /// Appends the bytes of a literal (no array, no reference counting).
    static func append(_ text: StaticString, to out: inout [UInt8]) {
        text.withUTF8Buffer { out.append(contentsOf: $0) }
    }

    /// Length of the valid UTF-8 scalar starting at `i` (1...4), or 0 when invalid.
    static func validScalarLength(_ bytes: UnsafeBufferPointer<UInt8>, at i: Int) -> Int {
        let b = bytes[i]
        let n = bytes.count
        func cont(_ k: Int) -> Bool { i + k < n && bytes[i + k] & 0xC0 == 0x80 }
        switch b {
        case 0x00...0x7F: return 1
        case 0xC2...0xDF: return cont(1) ? 2 : 0
        case 0xE0:
            return cont(1) && bytes[i + 1] >= 0xA0 && cont(2) ? 3 : 0
        case 0xED:
            return cont(1) && bytes[i + 1] < 0xA0 && cont(2) ? 3 : 0
        case 0xE1...0xEF: return cont(1) && cont(2) ? 3 : 0
        case 0xF0:
            return cont(1) && bytes[i + 1] >= 0x90 && cont(2) && cont(3) ? 4 : 0
        case 0xF4:
            return cont(1) && bytes[i + 1] < 0x90 && cont(2) && cont(3) ? 4 : 0
        case 0xF1...0xF3: return cont(1) && cont(2) && cont(3) ? 4 : 0
        default: return 0
        }
    }

    /// Writes `content` with each of `ranges` (sorted, disjoint, from ``mergedRanges``)
    /// between ``colorStart`` and ``colorEnd``, as grep's `--color` does; ranges past
    /// the end of `content` (a truncated record) are left out.
    static func writeHighlighted(
        _ content: UnsafeBufferPointer<UInt8>, ranges: [Range<Int>], to output: OutputWriter,
        start: [UInt8] = colorStart, end: [UInt8] = colorEnd
    ) throws(OutputError) {
        var at = 0
        for r in ranges where r.upperBound <= content.count {
            try output.write(UnsafeBufferPointer(rebasing: content[at..<r.lowerBound]))
            try output.write(start)
            try output.write(UnsafeBufferPointer(rebasing: content[r]))
            try output.write(end)
            at = r.upperBound
        }
        try output.write(UnsafeBufferPointer(rebasing: content[at...]))
    }

    /// The union of the matches' ranges, sorted and merged (empty matches dropped, and
    /// with `marking`, the matches of rules `marking[pattern] == false`).
    static func mergedRanges(_ matches: ArraySlice<Match>, marking: [Bool]? = nil, into ranges: inout [Range<Int>]) {
        ranges.removeAll(keepingCapacity: true)
        for m in matches where !m.isEmpty && marking?[m.pattern] != false { ranges.append(m.range) }
        if ranges.count > 1 {
            ranges.sort { $0.lowerBound < $1.lowerBound }
            var w = 0
            for r in 1..<ranges.count {
                // Overlapping ranges merge; adjacent ones stay apart, as grep colours each match.
                if ranges[r].lowerBound < ranges[w].upperBound {
                    ranges[w] = ranges[w].lowerBound..<max(ranges[w].upperBound, ranges[r].upperBound)
                } else {
                    w += 1
                    ranges[w] = ranges[r]
                }
            }
            ranges.removeSubrange((w + 1)...)
        }
    }
}
