// Keeps Corpora/cases/regex.json honest: every case's expected matches are recomputed
// with PCRE2 (configured as the regex issue says, through PCRE2Oracle) and every
// pattern must be accepted by our parser, so the file cannot drift from either.
import PCRE2Oracle
import RegexAutomata
import TestSupport
import Testing

/// The regex case file, loaded once.
let regexCases = CaseFile.load("regex.json")

extension TestCase {
    /// The PCRE2 options equivalent to this case's options.
    var pcre2Options: PCRE2Options {
        PCRE2Options(
            encoding: options?.bytes == true ? .bytes : .utf,
            caseless: options?.caseInsensitive ?? false,
            multiline: options?.multiLine ?? false,
            dotall: options?.dotAll ?? false,
            jit: false
        )
    }

    /// The parser options equivalent to this case's options.
    var syntaxOptions: RegexSyntax.Options {
        RegexSyntax.Options(
            caseInsensitive: options?.caseInsensitive ?? false,
            multiLine: options?.multiLine ?? false,
            dotMatchesNewline: options?.dotAll ?? false,
            mode: options?.bytes == true ? .bytes : .utf8
        )
    }
}

@Suite("regex.json against PCRE2")
struct RegexCaseFileOracleTests {
    @Test func theFileCoversEnoughCases() {
        #expect(regexCases.count >= 300)
        #expect(Set(regexCases.map(\.name)).count == regexCases.count, "case names must be unique")
    }

    @Test("PCRE2 finds exactly the expected matches", arguments: regexCases)
    func pcre2AgreesWithExpected(_ testCase: TestCase) throws {
        #expect(testCase.patterns.count == 1)
        let regex = try PCRE2Regex(pattern: testCase.patterns[0], options: testCase.pcre2Options)
        let found = try regex.matches(in: testCase.haystackBytes).map { [0, $0.lowerBound, $0.upperBound] }
        #expect(found == testCase.expected)
    }

    @Test("our parser accepts every pattern", arguments: regexCases)
    func parserAccepts(_ testCase: TestCase) {
        #expect(throws: Never.self) {
            _ = try RegexSyntax.parse(testCase.patterns[0], options: testCase.syntaxOptions)
        }
    }
}
