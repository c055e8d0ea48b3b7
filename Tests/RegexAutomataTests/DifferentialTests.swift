import AutomatonCore
import PCRE2Oracle
@testable import RegexAutomata
import Testing
import TestSupport

@Suite struct DifferentialTests {
    /// Random patterns from the local generator × random haystacks, every engine
    /// against PCRE2.
    @Test(arguments: [false, true])
    func localGeneratorAgainstPCRE2(bytesMode: Bool) throws {
        var gen = LocalRandomPatterns(rng: SeededGenerator(defaultSeed: bytesMode ? 77 : 78), utf8: !bytesMode)
        let seed = gen.rng.seed
        var failures = 0
        var pairs = 0
        let patternCount = Environment.value("TURNSTILE_REGEX_DIFF_PATTERNS").flatMap { Int($0) } ?? 600
        for _ in 0..<patternCount {
            let pattern = gen.pattern()
            var options = RegexSyntax.Options()
            options.mode = bytesMode ? .bytes : .utf8
            options.multiLine = Bool.random(using: &gen.rng) && Bool.random(using: &gen.rng)
            options.caseInsensitive = Int.random(in: 0..<4, using: &gen.rng) == 0
            options.dotMatchesNewline = Int.random(in: 0..<4, using: &gen.rng) == 0
            guard let engines = try? RegexEngines(patterns: [pattern], options: options) else { continue }
            let oracle = try PCRE2Regex(pattern: pattern, options: PCRE2Options(options))
            for _ in 0..<5 {
                let haystack = gen.haystack()
                let expected = try oracle.matches(in: haystack)
                pairs += 1
                for (name, got) in engines.allMatches(haystack) where got.map(\.range) != expected {
                    failures += 1
                    if failures <= 10 {
                        Issue.record("seed \(seed) \(name): /\(pattern)/ options=\(options) on \(describe(haystack)): got \(got.map(\.range)) expected \(expected)")
                    }
                }
            }
        }
        print("local differential: \(pairs) pairs, bytes=\(bytesMode), last pattern \(gen.pattern())")
        #expect(failures == 0)
        #expect(pairs > 2000)
    }
}
