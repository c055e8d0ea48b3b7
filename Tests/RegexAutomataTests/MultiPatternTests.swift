import AutomatonCore
import PCRE2Oracle
@testable import RegexAutomata
import Testing
import TestSupport

@Suite struct MultiPatternTests {
    static let cases: [(patterns: [String], haystack: String, expected: [Match])] = [
        (["abc", "ab", "b"], "xabcab b", [Match(pattern: 0, start: 1, end: 4), Match(pattern: 1, start: 4, end: 6), Match(pattern: 2, start: 7, end: 8)]),
        (["ab", "abc"], "abc", [Match(pattern: 0, start: 0, end: 2)]),
        (["abc", "ab"], "abc", [Match(pattern: 0, start: 0, end: 3)]),
        (["b", "ab"], "ab", [Match(pattern: 1, start: 0, end: 2)]),
        (["", "a"], "a", [Match(pattern: 0, start: 0, end: 0), Match(pattern: 1, start: 0, end: 1), Match(pattern: 0, start: 1, end: 1)]),
        (["\\bcat\\b", "cat"], "cat concat", [Match(pattern: 0, start: 0, end: 3), Match(pattern: 1, start: 7, end: 10)]),
        (["(?m)^spam$", "[a-z]+"], "spam\nspams", [Match(pattern: 0, start: 0, end: 4), Match(pattern: 1, start: 5, end: 10)]),
        (["x"], "", []),
    ]

    @Test(arguments: 0..<cases.count)
    func priorityByOrder(_ index: Int) throws {
        let c = Self.cases[index]
        let engines = try RegexEngines(patterns: c.patterns, options: RegexSyntax.Options())
        for (name, got) in engines.allMatches(Array(c.haystack.utf8)) {
            #expect(got == c.expected, "\(name): \(c.patterns) on \(c.haystack.debugDescription)")
        }
    }

    @Test func syntaxErrorNamesThePattern() {
        #expect(throws: RegexError.self) { try RegexCompiler().compile(patterns: ["ok", "bad("]) }
        do {
            _ = try RegexCompiler().compile(patterns: ["ok", "bad("])
        } catch {
            guard case .syntax(_, let index) = error.kind else { Issue.record("wrong kind \(error)"); return }
            #expect(index == 1)
            #expect(error.description.hasPrefix("pattern 1:"))
        }
    }

    /// Random pattern lists: match ranges equal PCRE2's on the alternation of the
    /// patterns, and pattern ids equal the PikeVM's.
    @Test func randomListsAgainstPCRE2Alternation() throws {
        var gen = RandomRegexGenerator(seed: 31_337, mode: .utf8)
        var pairs = 0
        for _ in 0..<80 {
            let count = Int.random(in: 2...4, using: &gen.random)
            let patterns = (0..<count).map { _ in gen.pattern() }
            let joined = patterns.map { "(?:\($0))" }.joined(separator: "|")
            guard let engines = try? RegexEngines(patterns: patterns, options: RegexSyntax.Options()),
                  let oracle = try? PCRE2Regex(pattern: joined) else { continue }
            for _ in 0..<5 {
                let haystack = gen.haystack(maxLength: 12)
                let expected = try oracle.matches(in: haystack)
                let reference = haystack.withUnsafeBufferPointer { engines.pikeVM.matches(in: $0, utf8: true) }
                pairs += 1
                for (name, got) in engines.allMatches(haystack) {
                    #expect(got.map(\.range) == expected, "seed \(gen.seed) \(name): \(patterns) on \(describe(haystack))")
                    #expect(got == reference, "seed \(gen.seed) \(name): \(patterns) on \(describe(haystack))")
                }
            }
        }
        #expect(pairs >= 300)
    }
}
