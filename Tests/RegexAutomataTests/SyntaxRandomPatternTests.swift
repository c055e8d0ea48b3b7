// The random pattern generator the differential tests use must only produce patterns
// that both our parser and PCRE2 accept; otherwise either the generator is wrong or the
// parser is more lenient than PCRE2.
import PCRE2Oracle
import RegexAutomata
import TestSupport
import Testing

@Suite("Random regex patterns")
struct SyntaxRandomPatternTests {
    @Test(arguments: [RandomRegexGenerator.Mode.utf8, .bytes])
    func everyGeneratedPatternParsesHereAndInPCRE2(mode: RandomRegexGenerator.Mode) {
        var generator = RandomRegexGenerator(seed: 0x7475_726E_7374_696C, mode: mode)
        for index in 0..<2_000 {
            let pattern = generator.pattern()
            let (caseInsensitive, multiLine, dotAll) = generator.flags()
            let options = RegexSyntax.Options(
                caseInsensitive: caseInsensitive, multiLine: multiLine, dotMatchesNewline: dotAll,
                mode: mode == .utf8 ? .utf8 : .bytes)
            let context = "pattern #\(index) \(pattern.debugDescription), seed \(generator.seed) (TURNSTILE_SEED)"
            var parsed = true
            do {
                _ = try RegexSyntax.parse(pattern, options: options)
            } catch {
                parsed = false
                Issue.record("our parser rejects \(context):\n\(error)")
            }
            do {
                _ = try PCRE2Regex(
                    pattern: pattern,
                    options: PCRE2Options(
                        encoding: mode == .utf8 ? .utf : .bytes, caseless: caseInsensitive,
                        multiline: multiLine, dotall: dotAll, jit: false))
            } catch {
                Issue.record("PCRE2 rejects \(context): \(error)")
            }
            if !parsed { break }
        }
    }

    @Test func theSameSeedGivesTheSamePatterns() {
        var first = RandomRegexGenerator(seed: 7)
        var second = RandomRegexGenerator(seed: 7)
        for _ in 0..<50 {
            #expect(first.pattern() == second.pattern())
            #expect(first.haystack(maxLength: 10) == second.haystack(maxLength: 10))
        }
    }

    @Test func utf8HaystacksAreValidUTF8() {
        var generator = RandomRegexGenerator(seed: 11, mode: .utf8)
        for _ in 0..<200 {
            let haystack = generator.haystack(maxLength: 16)
            #expect(String(validating: haystack, as: UTF8.self) != nil)
        }
    }

    @Test func patternsUseTheWholeSyntax() {
        var generator = RandomRegexGenerator(seed: 0x7475_726E_7374_696C)
        let all = (0..<2_000).map { _ in generator.pattern() }.joined(separator: "\n")
        for feature in ["(?:", "(?i", "-i", "|)", "(|", "*?", "{", "[^", "[:", "\\b", "\\B", "^", "$", "\\A", "\\z", ".", "é"] {
            #expect(all.contains(feature), "no generated pattern contains \(feature)")
        }
    }
}
