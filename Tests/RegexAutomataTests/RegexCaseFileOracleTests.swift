// Keeps Corpora/cases/regex.json honest: every case's expected matches are recomputed
// with PCRE2 (configured as the regex issue says, through PCRE2Oracle) and every
// pattern must be accepted by our parser, so the file cannot drift from either.
//
// To add cases: append entries with `"expected": []`, then run
//   TURNSTILE_REGENERATE_REGEX_CASES=1 swift test --filter RegexCaseFileOracleTests
// which rewrites every `expected` list from PCRE2 (one case per line), and review the diff.
import Foundation
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

    @Test(
        "regenerate regex.json expectations from PCRE2",
        .enabled(if: Environment.value("TURNSTILE_REGENERATE_REGEX_CASES") != nil))
    func regenerate() throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        func json(_ value: some Encodable) throws -> String {
            String(decoding: try encoder.encode(value), as: UTF8.self)
        }
        var lines: [String] = []
        for testCase in regexCases {
            let regex = try PCRE2Regex(pattern: testCase.patterns[0], options: testCase.pcre2Options)
            let expected = try regex.matches(in: testCase.haystackBytes).map { [0, $0.lowerBound, $0.upperBound] }
            var fields = ["\"name\": \(try json(testCase.name))", "\"patterns\": \(try json(testCase.patterns))"]
            if let options = testCase.options { fields.append("\"options\": \(try json(options))") }
            if let hex = testCase.haystackHex { fields.append("\"haystackHex\": \(try json(hex))") }
            if let haystack = testCase.haystack { fields.append("\"haystack\": \(try json(haystack))") }
            fields.append("\"expected\": \(try json(expected))")
            lines.append("{" + fields.joined(separator: ", ") + "}")
        }
        let url = SharedCorpora.ownCorpora.appendingPathComponent("cases/regex.json")
        try ("[\n" + lines.joined(separator: ",\n") + "\n]\n").write(to: url, atomically: true, encoding: .utf8)
        // What was written reads back as the same cases, each with PCRE2's matches.
        let written = CaseFile.load("regex.json")
        #expect(written.map(\.name) == regexCases.map(\.name))
        for testCase in written {
            let regex = try PCRE2Regex(pattern: testCase.patterns[0], options: testCase.pcre2Options)
            let found = try regex.matches(in: testCase.haystackBytes).map { [0, $0.lowerBound, $0.upperBound] }
            #expect(found == testCase.expected, "\(testCase.name)")
        }
    }
}
