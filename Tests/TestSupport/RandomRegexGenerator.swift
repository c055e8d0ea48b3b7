// RandomRegexGenerator: seeded random patterns over the whole supported regex syntax,
// and random haystacks over the same small alphabet, for differential tests of the
// regex engines against PCRE2.

/// Generates random regex patterns from the syntax the Turnstile parser supports, and
/// haystacks over the same small alphabet, from a ``SeededGenerator`` so that a failure
/// replays from its seed.
///
/// Patterns use literals `a b c`, space, `\n`, `é` (UTF-8 mode) or `\xff` (bytes mode),
/// escaped metacharacters, `\xHH`, `.`, classes (ranges, negation, escapes, POSIX names),
/// `\d \w \s \D \W \S`, groups `( )` and `(?: )`, alternation with empty branches, greedy
/// and lazy quantifiers with bounds of at most ``maxBound`` (so DFAs stay small), the
/// anchors `^ $ \A \z \b \B`, and the flags `i m s` scoped `(?i:…)` and unscoped `(?-i)`.
///
/// In UTF-8 mode haystacks hold the characters whose simple case folding is not ASCII's
/// (`É`, `K` U+212A KELVIN SIGN, which folds to `k`, and `ſ` U+017F, which folds to `s`),
/// and patterns the literals `k` and `s`, so `(?i)` folding is checked against PCRE2's.
///
/// ```swift
/// var generator = RandomRegexGenerator(seed: 42, mode: .utf8)
/// let pattern = generator.pattern()        // e.g. "(?i:a|)b*?[^[:space:]é]"
/// let haystack = generator.haystack(maxLength: 12)
/// ```
public struct RandomRegexGenerator: Sendable {
    /// The regex mode the patterns and haystacks are meant for.
    public enum Mode: Sendable, Hashable {
        case utf8
        case bytes
    }

    /// The random source; its `seed` is what to print when a test fails.
    public var random: SeededGenerator
    /// UTF-8 or bytes.
    public let mode: Mode
    /// Deepest group nesting.
    public var maxDepth: Int = 3
    /// Largest bound in `{n}`, `{n,}`, `{n,m}`.
    public var maxBound: Int = 5
    /// Most branches in one alternation, and most items in one branch.
    public var maxBranches: Int = 3
    public var maxItems: Int = 4

    /// A generator seeded from `TURNSTILE_SEED` when set, else from `seed`.
    public init(seed: UInt64, mode: Mode = .utf8) {
        self.random = SeededGenerator(defaultSeed: seed)
        self.mode = mode
    }

    /// The seed in use (print it in failure messages; replay with `TURNSTILE_SEED`).
    public var seed: UInt64 { random.seed }

    // MARK: Haystacks

    /// The characters haystacks are made of, as UTF-8 bytes each.
    public var haystackAlphabet: [[UInt8]] {
        let ascii = ["a", "b", "c", "A", "B", "C", "\n", " ", "1", "_", "-"].map { Array($0.utf8) }
        switch mode {
        case .utf8: return ascii + ["é", "日", "É", "\u{212A}", "ſ", "k", "s"].map { Array($0.utf8) }
        case .bytes: return ascii + [[0xFF], [0xC3], [0xA9], [0x80]]
        }
    }

    /// A haystack of 0 to `maxLength` characters from ``haystackAlphabet`` (valid UTF-8
    /// in UTF-8 mode).
    public mutating func haystack(maxLength: Int) -> [UInt8] {
        let length = Int.random(in: 0...maxLength, using: &random)
        var out: [UInt8] = []
        let alphabet = haystackAlphabet
        for _ in 0..<length {
            // Letters and newlines more often than the rest, so patterns find matches.
            if Bool.random(using: &random) {
                out += [[0x61], [0x62], [0x0A], [0x61]][Int.random(in: 0..<4, using: &random)]
            } else {
                out += alphabet.randomElement(using: &random)!
            }
        }
        return out
    }

    // MARK: Patterns

    /// One random pattern (always accepted by the parser and by PCRE2).
    public mutating func pattern() -> String {
        alternation(depth: 0)
    }

    /// Random starting flags for a case: (caseInsensitive, multiLine, dotAll), each on
    /// with probability 1/4.
    public mutating func flags() -> (caseInsensitive: Bool, multiLine: Bool, dotAll: Bool) {
        (chance(4), chance(4), chance(4))
    }

    /// Random starting flags as case-file options (with `bytes` set in bytes mode), so a
    /// differential test can feed the same options to every engine and to PCRE2.
    ///
    /// ```swift
    /// let options = generator.caseOptions()  // e.g. {caseInsensitive: true}
    /// ```
    public mutating func caseOptions() -> TestCase.Options {
        let (caseInsensitive, multiLine, dotAll) = flags()
        var options = TestCase.Options()
        if caseInsensitive { options.caseInsensitive = true }
        if multiLine { options.multiLine = true }
        if dotAll { options.dotAll = true }
        if mode == .bytes { options.bytes = true }
        return options
    }

    private mutating func chance(_ oneIn: Int) -> Bool {
        Int.random(in: 0..<oneIn, using: &random) == 0
    }

    private mutating func pick<T>(_ choices: [T]) -> T {
        choices.randomElement(using: &random)!
    }

    private mutating func alternation(depth: Int) -> String {
        let count = chance(3) ? Int.random(in: 2...maxBranches, using: &random) : 1
        var branches: [String] = []
        for _ in 0..<count { branches.append(concat(depth: depth)) }
        return branches.joined(separator: "|")
    }

    private mutating func concat(depth: Int) -> String {
        let count = Int.random(in: 0...maxItems, using: &random)
        var out = ""
        for _ in 0..<count { out += item(depth: depth) }
        return out
    }

    private mutating func item(depth: Int) -> String {
        switch Int.random(in: 0..<20, using: &random) {
        case 0..<2: return pick(["^", "$", "\\A", "\\z", "\\b", "\\B", "\\b", "$"])
        case 2: return "(?" + flagList() + ")"
        default:
            let atom = self.atom(depth: depth)
            return chance(3) ? atom + quantifier() : atom
        }
    }

    private mutating func atom(depth: Int) -> String {
        switch Int.random(in: 0..<16, using: &random) {
        case 0..<6: return literal()
        case 6..<8: return "."
        case 8..<10: return bracketClass()
        case 10: return pick(["\\d", "\\w", "\\s", "\\D", "\\W", "\\S"])
        default:
            guard depth < maxDepth else { return literal() }
            let inner = alternation(depth: depth + 1)
            switch Int.random(in: 0..<4, using: &random) {
            case 0: return "(" + inner + ")"
            case 1: return "(?:" + inner + ")"
            default: return "(?" + flagList() + ":" + inner + ")"
            }
        }
    }

    private mutating func literal() -> String {
        switch Int.random(in: 0..<12, using: &random) {
        case 0..<3: return "a"
        case 3..<5: return "b"
        case 5: return "c"
        case 6: return pick(["A", "B"])
        case 7: return pick([" ", "\\n", "_", "1"])
        case 8: return pick(["\\.", "\\*", "\\-", "\\x61", "\\x{62}", "\\ "])
        case 9: return mode == .utf8 ? pick(["é", "日", "k", "s"]) : pick(["\\xff", "\\xC3", "\\xa9"])
        default: return "a"
        }
    }

    private mutating func flagList() -> String {
        let letters = ["i", "m", "s"]
        var on = "", off = ""
        for letter in letters {
            switch Int.random(in: 0..<4, using: &random) {
            case 0: on += letter
            case 1: off += letter
            default: break
            }
        }
        if on.isEmpty && off.isEmpty { on = pick(letters) }
        return off.isEmpty ? on : on + "-" + off
    }

    private mutating func quantifier() -> String {
        let base: String
        switch Int.random(in: 0..<6, using: &random) {
        case 0: base = "*"
        case 1: base = "+"
        case 2: base = "?"
        case 3: base = "{\(Int.random(in: 0...maxBound, using: &random))}"
        case 4: base = "{\(Int.random(in: 0...maxBound, using: &random)),}"
        default:
            let low = Int.random(in: 0...maxBound, using: &random)
            base = "{\(low),\(Int.random(in: low...maxBound, using: &random))}"
        }
        return chance(3) ? base + "?" : base
    }

    private mutating func bracketClass() -> String {
        var out = chance(3) ? "[^" : "["
        // PCRE2 10.42 forgets the characters above U+00FF in a class where a positive
        // POSIX class follows a negated escape or negated POSIX class (`[\W[:ascii:]]`
        // does not match 日), so in UTF-8 mode no positive POSIX class follows one.
        var sawNegatedType = false
        for _ in 0..<Int.random(in: 1...3, using: &random) {
            switch Int.random(in: 0..<10, using: &random) {
            case 0..<3: out += pick(["a", "b", "c", "A", " ", "_"])
            case 3: out += mode == .utf8 ? pick(["é", "日", "\\x{e9}"]) : pick(["\\xff", "\\x80-\\xff"])
            case 4..<6: out += pick(["a-c", "a-b", "b-c", "A-Z", "0-9", "Z-a"])
            case 6:
                let escape = pick(["\\d", "\\w", "\\s", "\\W", "\\S", "\\n", "\\t", "\\]", "\\-"])
                if escape == "\\W" || escape == "\\S" { sawNegatedType = true }
                out += escape
            default:
                let names = ["alpha", "digit", "alnum", "upper", "lower", "space", "punct", "print",
                             "graph", "cntrl", "xdigit", "blank", "word", "ascii"]
                let negated = chance(4) || (sawNegatedType && mode == .utf8)
                if negated { sawNegatedType = true }
                out += "[:" + (negated ? "^" : "") + pick(names) + ":]"
            }
        }
        return out + "]"
    }
}
