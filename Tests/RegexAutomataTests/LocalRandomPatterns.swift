import TestSupport

/// A small random pattern generator over a tiny alphabet, used until (and alongside)
/// the shared RandomRegexGenerator: it aims at the traps of this engine — empty
/// iterations, lazy/greedy mixes, assertions on both sides, UTF-8.
struct LocalRandomPatterns {
    var rng: SeededGenerator
    let utf8: Bool

    mutating func pattern(depth: Int = 0) -> String {
        let choice = Int.random(in: 0..<(depth > 3 ? 6 : 12), using: &rng)
        switch choice {
        case 0: return ["a", "b", "a", "b", "ab", "\\n"].randomElement(using: &rng)!
        case 1: return [".", "[ab]", "[^a]", "\\w", "\\W", "\\s", "[a\\n]", "[^\\n b]", "A", "\\d",
                        utf8 ? "é" : "\\xff", utf8 ? "[^é]" : "[\\x80-\\xff]", utf8 ? "[é-ü]" : "[^a\\xff]"].randomElement(using: &rng)!
        case 2: return ["^", "$", "\\b", "\\B", "\\A", "\\z", "(?m:^)", "(?m:$)"].randomElement(using: &rng)!
        case 3: return ""
        case 4: return "a"
        case 5: return "b"
        case 6, 7:
            let n = Int.random(in: 2...3, using: &rng)
            return (0..<n).map { _ in pattern(depth: depth + 1) }.joined()
        case 8:
            let n = Int.random(in: 2...3, using: &rng)
            return "(?:" + (0..<n).map { _ in pattern(depth: depth + 1) }.joined(separator: "|") + ")"
        default:
            let sub = pattern(depth: depth + 1)
            let q = ["*", "+", "?", "{2}", "{0,2}", "{1,3}", "{2,}", "*?", "+?", "??", "{1,2}?", "{0,}?"].randomElement(using: &rng)!
            return "(?:" + sub + ")" + q
        }
    }

    mutating func haystack(maxLength: Int = 8) -> [UInt8] {
        let alphabet: [[UInt8]] = utf8
            ? [[0x61], [0x62], [0x20], [0x0A], Array("é".utf8), [0x61], [0x62], [0x41], [0x31], Array("ü".utf8), Array("😀".utf8)]
            : [[0x61], [0x62], [0x20], [0x0A], [0xFF], [0x61], [0x62], [0x41], [0x80], [0xC3], [0x5F]]
        let n = Int.random(in: 0...maxLength, using: &rng)
        return (0..<n).flatMap { _ in alphabet.randomElement(using: &rng)! }
    }
}
