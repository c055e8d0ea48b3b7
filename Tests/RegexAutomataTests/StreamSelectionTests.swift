// RegexAutomaton.StreamSelection (issue 48): a haystack fed in pieces is judged as
// PCRE2 judges it whole, on every engine (dense, minimized, lazy, lazy with a tiny
// cache), whatever the cuts — anchors, word boundaries and empty matches included.
import AutomatonCore
import PCRE2Oracle
@testable import RegexAutomata
import Testing
import TestSupport

@Suite("RegexAutomaton stream selection")
struct StreamSelectionTests {
    /// `haystack` cut at `cuts` (sorted offsets), fed piece by piece.
    static func judged(_ regex: RegexAutomaton, _ haystack: [UInt8], cuts: [Int]) -> Bool? {
        var selection = regex.streamSelection()
        var from = 0
        for cut in cuts + [haystack.count] where cut >= from {
            selection.feed(Array(haystack[from..<cut]))
            from = cut
        }
        return selection.finish()
    }

    @Test("random patterns × haystacks cut at random places: the same verdict as PCRE2 on the whole",
          arguments: [RandomRegexGenerator.Mode.utf8, .bytes])
    func randomAgainstPCRE2(mode: RandomRegexGenerator.Mode) throws {
        var gen = RandomRegexGenerator(seed: mode == .utf8 ? 48_001 : 48_002, mode: mode)
        var pairs = 0
        for _ in 0..<150 {
            let pattern = gen.pattern()
            let options = DifferentialTests.syntaxOptions(gen.caseOptions())
            guard let engines = try? RegexEngines(patterns: [pattern], options: options),
                  let oracle = try? PCRE2Regex(pattern: pattern, options: PCRE2Options(options)) else { continue }
            for _ in 0..<5 {
                let haystack = gen.haystack(maxLength: 16)
                guard let expected = try? oracle.matches(in: haystack) else { continue }
                let cutCount = Int.random(in: 0...3, using: &gen.random)
                let cuts = (0..<cutCount).map { _ in Int.random(in: 0...haystack.count, using: &gen.random) }.sorted()
                for (name, regex) in engines.configurations {
                    guard let got = Self.judged(regex, haystack, cuts: cuts) else { continue }  // the lazy DFA gave up
                    pairs += 1
                    #expect(got == !expected.isEmpty,
                            "seed \(gen.seed): \(name) /\(pattern)/ \(options) on \(describe(haystack)) cut at \(cuts): \(got), PCRE2 \(expected)")
                }
            }
        }
        print("stream selection (\(mode)): \(pairs) verdicts, seed \(gen.seed)")
        #expect(pairs >= 1_500)
    }

    @Test("edges belong to the whole haystack, not to a piece")
    func edgesOfTheWhole() throws {
        let cases: [(String, String, Bool)] = [
            ("^b", "ab", false), ("a$", "ab", false), ("\\bb", "ab", false), ("a\\b", "ab", false),
            ("\\Ab", "ab", false), ("b\\z", "ba", false), ("^a.*b$", "axxxb", true), ("^$", "", true),
            ("x*", "", true), ("ab", "ab", true),
        ]
        for (pattern, text, want) in cases {
            let regex = try RegexCompiler().compile(pattern)
            let bytes = Array(text.utf8)
            for cut in 0...bytes.count {
                #expect(Self.judged(regex, bytes, cuts: [cut]) == want, "/\(pattern)/ on \(text.debugDescription) cut at \(cut)")
            }
        }
    }
}
