// Random short strings of metacharacters: the parser must never crash, everything it
// accepts PCRE2 must accept too (our language is a subset of PCRE2's), and what it
// accepts must match what PCRE2 matches (checked with the Hir interpreter).
import PCRE2Oracle
import RegexAutomata
import TestSupport
import Testing

@Suite("Regex parser fuzzing")
struct SyntaxFuzzTests {
    static let pieces: [String] = [
        "(", ")", "[", "]", "{", "}", "*", "+", "?", "|", "^", "$", "\\", ".", "-", ":", ",", "a", "b",
        "A", "0", "1", "2", "3", "i", "m", "s", "x", "d", "w", "W", "S", "B", "z", "Q", "E", "P", "<",
        "=", "!", ">", "'", "#", "&", "é", "\n", " ", "[:", ":]", "(?", "(?:", "(*", "\\x", "{1,2}", "[^",
        "alpha", "\\b", "\\A", "\\z", "-i", "ff", "}", "[:^", "\\d", "\\W", "\\s", "\\x{e9}", "z-a",
        "a-z", "\\]", "\\-", "(?i)", "(?-s:", "{0}", "{2,}", "*?", "日",
    ]

    @Test(arguments: [RegexSyntax.Options.Mode.utf8, .bytes])
    func acceptedPatternsArePCRE2PatternsWithTheSameMatches(mode: RegexSyntax.Options.Mode) throws {
        var random = SeededGenerator(defaultSeed: 0x4655_5A5A)
        var accepted = 0
        var failures = 0
        for _ in 0..<30_000 {
            var pattern = ""
            for _ in 0..<Int.random(in: 0...8, using: &random) { pattern += Self.pieces.randomElement(using: &random)! }
            let (i, m, s) = (Bool.random(using: &random), Bool.random(using: &random), Bool.random(using: &random))
            let hir: Hir
            do {
                hir = try RegexSyntax.parse(
                    pattern,
                    options: RegexSyntax.Options(caseInsensitive: i, multiLine: m, dotMatchesNewline: s, mode: mode))
            } catch {
                #expect(error.offset >= 0 && error.offset <= pattern.utf8.count, "offset of \(pattern.debugDescription)")
                continue
            }
            accepted += 1
            // grep's word anchors `\<` and `\>` are ours, not PCRE2's (which reads the
            // characters); GrepIdiomTests compares them with GNU grep.
            if PCRE2KnownDifferences.usesWordEdgeEscapes(Array(pattern.utf8)) { continue }
            let regex: PCRE2Regex
            do {
                regex = try PCRE2Regex(
                    pattern: pattern, options: PCRE2Options(
                        encoding: mode == .utf8 ? .utf : .bytes, caseless: i, multiline: m, dotall: s, jit: false))
            } catch {
                failures += 1
                if failures <= 10 {
                    Issue.record("we accept \(pattern.debugDescription) but PCRE2 rejects it: \(error); seed \(random.seed)")
                }
                continue
            }
            for haystack in ["", "a", "ab\nA é", "aab-0:1 ", "x{1,2}(a)", "\n日Z_]\n"] {
                let bytes = Array(haystack.utf8)
                let expected = try regex.matches(in: bytes).map { [0, $0.lowerBound, $0.upperBound] }
                guard let found = try? HirBacktracker(haystack: bytes, utf8: mode == .utf8, maxSteps: 100_000).allMatches(hir)
                else { continue }
                if found != expected {
                    failures += 1
                    if failures <= 10 {
                        Issue.record(
                            "\(pattern.debugDescription) (i \(i), m \(m), s \(s)) on \(haystack.debugDescription): Hir \(found), PCRE2 \(expected); seed \(random.seed)")
                    }
                }
            }
        }
        #expect(failures == 0)
        #expect(accepted > 3_000)
    }
}
