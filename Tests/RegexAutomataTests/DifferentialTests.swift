// Differential tests: every engine against PCRE2 (the oracle) on random patterns ×
// random haystacks, with a fixed seed (replay another with TURNSTILE_SEED) and a
// shrunk counterexample printed on failure.
import AutomatonCore
import Foundation
import PCRE2Oracle
@testable import RegexAutomata
import Testing
import TestSupport

/// Compares every engine with PCRE2 on one (pattern, options, haystack); returns a
/// description of the first disagreement, or nil. Patterns either side rejects, and
/// those PCRE2 reads differently (`PCRE2KnownDifferences`), are not comparable (nil).
func disagreement(_ pattern: String, _ options: RegexSyntax.Options, _ haystack: [UInt8]) -> String? {
    guard PCRE2KnownDifferences.reason(pattern) == nil,
          let engines = try? RegexEngines(patterns: [pattern], options: options),
          let oracle = try? PCRE2Regex(pattern: pattern, options: PCRE2Options(options)),
          let expected = try? oracle.matches(in: haystack)
    else { return nil }
    for (name, got) in engines.allMatches(haystack) where got.map(\.range) != expected {
        return "\(name) found \(got.map(\.range)), PCRE2 \(expected)"
    }
    return nil
}

/// Greedily deletes pattern pieces and haystack bytes while the disagreement stays.
func shrink(_ pattern: String, _ options: RegexSyntax.Options, _ haystack: [UInt8]) -> (String, [UInt8]) {
    var p = Array(pattern), h = haystack
    var progress = true
    while progress {
        progress = false
        var width = max(1, p.count / 2)
        while width >= 1 {
            var i = 0
            while i + width <= p.count {
                var candidate = p
                candidate.removeSubrange(i..<(i + width))
                if disagreement(String(candidate), options, h) != nil { p = candidate; progress = true } else { i += 1 }
            }
            width /= 2
        }
        var i = 0
        while i < h.count {
            var candidate = h
            candidate.remove(at: i)
            if (options.mode == .bytes || String(validating: candidate, as: UTF8.self) != nil),
               disagreement(String(p), options, candidate) != nil {
                h = candidate; progress = true
            } else { i += 1 }
        }
    }
    return (String(p), h)
}

/// Records a failure with the seed and the shrunk counterexample.
func recordDisagreement(seed: UInt64, _ pattern: String, _ options: RegexSyntax.Options, _ haystack: [UInt8], _ why: String) {
    let (p, h) = shrink(pattern, options, haystack)
    let shrunkWhy = disagreement(p, options, h) ?? why
    Issue.record("""
        seed \(seed) (replay: TURNSTILE_SEED=\(seed)); options \(options)
        original /\(pattern)/ on \(describe(haystack)): \(why)
        shrunk   /\(p)/ on \(describe(h)): \(shrunkWhy)
        """)
}

@Suite struct DifferentialTests {
    static func syntaxOptions(_ o: TestCase.Options) -> RegexSyntax.Options {
        RegexSyntax.Options(
            caseInsensitive: o.caseInsensitive ?? false, multiLine: o.multiLine ?? false,
            dotMatchesNewline: o.dotAll ?? false, mode: o.bytes == true ? .bytes : .utf8)
    }

    /// The shared RandomRegexGenerator (whole syntax, flags) × its haystacks.
    @Test(arguments: [RandomRegexGenerator.Mode.utf8, .bytes])
    func generatorPatternsAgainstPCRE2(mode: RandomRegexGenerator.Mode) throws {
        var gen = RandomRegexGenerator(seed: mode == .utf8 ? 20_261_122 : 20_261_123, mode: mode)
        let patterns = Environment.value("TURNSTILE_REGEX_DIFF_PATTERNS").flatMap { Int($0) } ?? 120
        var pairs = 0, failures = 0
        for _ in 0..<patterns {
            let pattern = gen.pattern()
            let options = Self.syntaxOptions(gen.caseOptions())
            if Environment.value("TURNSTILE_TRACE") != nil { FileHandle.standardError.write(Data("\(Date()) /\(pattern)/ \(options)\n".utf8)) }
            let haystacks = (0..<5).map { _ in gen.haystack(maxLength: 12) }
            for haystack in haystacks {
                pairs += 1
                if let why = disagreement(pattern, options, haystack) {
                    failures += 1
                    if failures <= 3 { recordDisagreement(seed: gen.seed, pattern, options, haystack, why) }
                }
            }
        }
        print("generator differential (\(mode)): \(pairs) pairs, \(failures) disagreements, seed \(gen.seed)")
        #expect(pairs >= 600)
        #expect(failures == 0)
    }

    /// The local generator, aimed at empty iterations, lazy/greedy mixes and
    /// assertions on both sides.
    @Test(arguments: [false, true])
    func localGeneratorAgainstPCRE2(bytesMode: Bool) throws {
        var gen = LocalRandomPatterns(rng: SeededGenerator(defaultSeed: bytesMode ? 77 : 78), utf8: !bytesMode)
        let seed = gen.rng.seed
        var pairs = 0, failures = 0
        let patterns = Environment.value("TURNSTILE_REGEX_DIFF_PATTERNS").flatMap { Int($0) } ?? 120
        for _ in 0..<patterns {
            let pattern = gen.pattern()
            var options = RegexSyntax.Options()
            options.mode = bytesMode ? .bytes : .utf8
            options.multiLine = Bool.random(using: &gen.rng) && Bool.random(using: &gen.rng)
            options.caseInsensitive = Int.random(in: 0..<4, using: &gen.rng) == 0
            options.dotMatchesNewline = Int.random(in: 0..<4, using: &gen.rng) == 0
            for _ in 0..<5 {
                let haystack = gen.haystack()
                pairs += 1
                if let why = disagreement(pattern, options, haystack) {
                    failures += 1
                    if failures <= 3 { recordDisagreement(seed: seed, pattern, options, haystack, why) }
                }
            }
        }
        print("local differential (bytes: \(bytesMode)): \(pairs) pairs, \(failures) disagreements, seed \(seed)")
        #expect(pairs >= 600)
        #expect(failures == 0)
    }

    /// Generator patterns and word-shaped patterns over snippets of real English text.
    @Test(.enabled(if: SharedCorpora.isAvailable, "needs ../shared/corpora (see its SOURCES.md)")) func corpusSnippetsAgainstPCRE2() throws {
        let text = try #require(SharedCorpora.bytes("rebar/sherlock.txt"))
        var gen = RandomRegexGenerator(seed: 515, mode: .utf8)
        var rng = SeededGenerator(defaultSeed: 516)
        let words = ["Holmes", "Watson", "the", "(?i)sherlock", "\\b\\w+\\b", "\\b[A-Z]\\w*", "[a-z]+ing\\b",
                     "\\w+\\s+\\w+", "(?m)^\\w+", "(?m)\\w+$", "[^ \\n]+", "\\d+", "(?:a|e|i|o|u){2}", "\\B[a-z]{2}\\b",
                     ".{3,5}?[,.]", "(?s).{0,40}?\\.", "(?i)th(?:e|is|at)\\b", "\\s*", "\\b", "[A-Z][a-z]*(?: [A-Z][a-z]*)+"]
        var pairs = 0, failures = 0
        for round in 0..<300 {
            let length = Int.random(in: 20...300, using: &rng)
            var start = Int.random(in: 0..<(text.count - length), using: &rng)
            var end = start + length
            while start < text.count && text[start] & 0xC0 == 0x80 { start += 1 }
            while end < text.count && text[end] & 0xC0 == 0x80 { end += 1 }
            let snippet = Array(text[start..<end])
            // PCRE2 folds U+212A and U+017F to k and s; avoid them under `i`.
            let hasUnicodeFoldTraps = String(decoding: snippet, as: UTF8.self).unicodeScalars.contains { $0.value == 0x212A || $0.value == 0x17F }
            let pattern = round % 2 == 0 ? words[round / 2 % words.count] : gen.pattern()
            var options = round % 2 == 0 ? RegexSyntax.Options() : Self.syntaxOptions(gen.caseOptions())
            if hasUnicodeFoldTraps { options.caseInsensitive = false }
            pairs += 1
            if let why = disagreement(pattern, options, snippet) {
                failures += 1
                if failures <= 3 { recordDisagreement(seed: rng.seed, pattern, options, snippet, why) }
            }
        }
        print("corpus differential: \(pairs) pairs, \(failures) disagreements")
        #expect(failures == 0)
    }

}
