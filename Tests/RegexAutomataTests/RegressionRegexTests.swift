// Regressions found while hardening the regex compiler (Fuzz/Sources/FuzzRegexCompile
// and the hardening tests).

import AutomatonCore
@testable import RegexAutomata
import Testing

@Suite("Regression: regex compiler")
struct RegressionRegexTests {
    /// A 9,000-byte periodic literal has 9,000 DFA states (within the default 10,000),
    /// but after k repetitions every earlier repetition boundary is still a live NFA
    /// state, so the state keys held ~13 million NFA ids: minutes of subset
    /// construction and hundreds of MB (the hardening test with `abc` × 20,000 and
    /// raised limits never finished). The keys now count against maxTableBytes, so the
    /// construction stops with a typed error and the compiler uses the lazy DFA.
    @Test("a long periodic literal stops the full DFA at maxTableBytes instead of running for minutes")
    func periodicLiteral() throws {
        let pattern = String(repeating: "abc", count: 3_000)
        let nfa = try ThompsonNFA([try RegexSyntax.parse(pattern)], limits: RegexCompiler.defaultLimits)
        #expect(throws: AutomatonError(.tableTooLarge(limit: RegexCompiler.defaultLimits.maxTableBytes))) {
            try nfa.determinized(limits: RegexCompiler.defaultLimits)
        }
        let regex = try RegexCompiler().compile(pattern)
        #expect(regex.engineKind == .lazy)
        #expect(!regex.isMatch(in: "abcabcabd"))
        #expect(regex.matches(in: "x" + String(repeating: "abc", count: 10)).isEmpty)
    }
}
