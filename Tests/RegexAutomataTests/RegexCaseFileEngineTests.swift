// Replays every case of Corpora/cases/regex.json (each verified against PCRE2 by
// RegexCaseFileOracleTests) over every engine that claims the regex semantics: the
// full DFA unminimized and minimized, the lazy DFA (roomy and tiny cache), the PikeVM.
import AutomatonCore
@testable import RegexAutomata
import TestSupport
import Testing

@Suite("regex.json on every engine")
struct RegexCaseFileEngineTests {
    @Test("every engine finds exactly the expected matches", arguments: regexCases)
    func everyEngine(_ testCase: TestCase) throws {
        let engines = try RegexEngines(patterns: testCase.patterns, options: testCase.syntaxOptions)
        let expected = testCase.expected
        for (name, got) in engines.allMatches(testCase.haystackBytes) {
            let triples = got.map { [$0.pattern, $0.start, $0.end] }
            #expect(triples == expected, "\(name): /\(testCase.patterns[0])/ on \(describe(testCase.haystackBytes))")
        }
    }

    @Test("firstMatch and isMatch agree with the match list", arguments: regexCases)
    func firstAndIsMatch(_ testCase: TestCase) throws {
        let engines = try RegexEngines(patterns: testCase.patterns, options: testCase.syntaxOptions)
        let haystack = testCase.haystackBytes
        for (name, regex) in engines.configurations {
            let first = regex.firstMatch(in: haystack).map { [$0.pattern, $0.start, $0.end] }
            #expect(first == testCase.expected.first, "\(name)")
            #expect(regex.isMatch(in: haystack) == !testCase.expected.isEmpty, "\(name)")
        }
    }
}
