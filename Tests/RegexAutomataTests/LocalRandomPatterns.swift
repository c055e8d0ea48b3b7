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
        case 1: return [".", "[ab]", "[^a]", "\\w", "\\W", "\\s", "[a\\n]", utf8 ? "é" : "\\xff"].randomElement(using: &rng)!
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

    mutating func haystack() -> String {
        let alphabet: [String] = utf8 ? ["a", "b", " ", "\n", "é", "a", "b"] : ["a", "b", " ", "\n", "a", "b"]
        let n = Int.random(in: 0...8, using: &rng)
        return (0..<n).map { _ in alphabet.randomElement(using: &rng)! }.joined()
    }
}
