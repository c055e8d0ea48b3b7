import Testing
import Turnstile

/// `import Turnstile` alone (this file imports nothing else from the package) names
/// every type a user needs: the engines, their one-step construction, the search
/// vocabulary and its results.
@Suite("import Turnstile alone is enough")
struct ImportTurnstileAloneTests {
    @Test func everyUserFacingTypeIsNameable() throws {
        let text = "Win a FREE prize at https://example.org"
        let words: AhoCorasick = try AhoCorasick(["free", "prize"], asciiCaseInsensitive: true)
        let builder: AhoCorasick.Builder = AhoCorasick.Builder().matchKind(.leftmostLongest)
        let one: KMP = try KMP("prize")
        let url: RegexAutomaton = try RegexAutomaton("https?://[a-z.]+")
        let compiler: RegexCompiler = RegexCompiler().caseInsensitive(true)
        let lazy: LazyMatchSequence<AhoCorasick, String.UTF8View> = words.matches(in: text)
        let found: [Match] = Array(lazy)
        let id: PatternID = found[0].pattern
        let representation: LiteralRepresentation = words.representation
        let limits: Limits = Limits()
        #expect(found.map { String($0.substring(in: text)) } == ["FREE", "prize"])
        #expect(id == 0 && representation == .dense && limits.maxStates > 0)
        #expect(one.count(in: text) == 1)
        #expect(url.firstMatch(in: text).map { String($0.substring(in: text)) } == "https://example.org")
        #expect(try builder.build(["a"]).matchKind == .leftmostLongest)
        #expect(try compiler.compile("WIN").isMatch(in: text))
        func anySearcher(_ s: some MatchSearcher) -> Int { s.count(in: text) }
        #expect(anySearcher(words) == 2 && anySearcher(url) == 1)
        #expect(throws: RegexError.self) { _ = try RegexAutomaton("a(") }
        let stats: LiteralStatistics = words.statistics
        #expect(stats.patternCount == 2)
    }
}
