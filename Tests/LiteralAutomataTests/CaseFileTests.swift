import AutomatonCore
import LiteralAutomata
import TestSupport
import Testing

/// The hand-checked cases in `Corpora/cases/literal.json`, run over every engine and
/// representation that claims the literal semantics (KMP too when there is one
/// pattern), with and without the prefilter, and against the naive reference.
@Suite struct CaseFileTests {
    static let cases = CaseFile.load("literal.json")

    @Test(arguments: cases)
    func literalCase(_ c: TestCase) throws {
        let kind = try #require(MatchKind(caseName: c.options?.matchKind), "unknown match kind in \(c.name)")
        let ci = c.options?.caseInsensitive ?? false, ww = c.options?.wholeWord ?? false
        let patterns = c.patterns.map { Array($0.utf8) }
        let expected = c.expectedMatches.map { Match(pattern: $0.pattern, start: $0.start, end: $0.end) }
        for config in LiteralConfiguration.all(patternCount: patterns.count) {
            let got = try config.matches(patterns, kind: kind, caseInsensitive: ci, wholeWord: ww, haystack: c.haystackBytes)
            #expect(got == expected, "\(c.name) with \(config)")
        }
        let naive = NaiveLiteralMatcher(patterns: patterns, kind: kind.naive, caseInsensitive: ci, wholeWord: ww)
        #expect(naive.matches(in: c.haystackBytes) == expected, "\(c.name): naive reference")
    }
}
