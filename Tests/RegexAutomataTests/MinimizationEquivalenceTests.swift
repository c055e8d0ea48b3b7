// The minimized DFA must be language-equivalent to the unminimized one: from every
// start state, every string up to length 5 over a small alphabet (plus end-of-input
// after each prefix) reaches match states with the same pattern lists in both.
import AutomatonCore
@testable import RegexAutomata
import Testing
import TestSupport

@Suite struct MinimizationEquivalenceTests {
    static let alphabet: [UInt8] = [0x61, 0x62, 0x20, 0x0A, 0x5F]

    /// All strings over `alphabet` of length ≤ `maxLength`.
    static func allStrings(maxLength: Int) -> [[UInt8]] {
        var result: [[UInt8]] = [[]]
        var frontier: [[UInt8]] = [[]]
        for _ in 0..<maxLength {
            frontier = frontier.flatMap { s in alphabet.map { s + [$0] } }
            result += frontier
        }
        return result
    }

    static func assertEquivalent(_ a: DenseDFA, _ b: DenseDFA, _ label: String, strings: [[UInt8]]) {
        var mismatches = 0
        for context in StartContext.allCases {
            for anchored in [false, true] {
                for s in strings {
                    var x = a.startState(context, anchored: anchored)
                    var y = b.startState(context, anchored: anchored)
                    for byte in s {
                        // Match status after each prefix, and at end-of-input.
                        if Array(a.patterns(of: a.nextEOI(x))) != Array(b.patterns(of: b.nextEOI(y))) { mismatches += 1 }
                        x = a.next(x, byte)
                        y = b.next(y, byte)
                        if Array(a.patterns(of: x)) != Array(b.patterns(of: y)) { mismatches += 1 }
                    }
                    if Array(a.patterns(of: a.nextEOI(x))) != Array(b.patterns(of: b.nextEOI(y))) { mismatches += 1 }
                    if mismatches > 0 {
                        Issue.record("\(label): differs on \(describe(s)) from \(context) anchored \(anchored)")
                        return
                    }
                }
            }
        }
    }

    @Test func generatorPatternsMinimizeToEquivalentDFAs() throws {
        let strings = Self.allStrings(maxLength: 5)
        var gen = RandomRegexGenerator(seed: 2024, mode: .bytes)
        var checked = 0
        for _ in 0..<40 {
            let pattern = gen.pattern()
            guard let regex = try? RegexCompiler().minimize(false).bytes(true).limits(Limits(maxStates: 1_500, maxTableBytes: 4 << 20))
                .compile(pattern), let forward = regex.forwardDFA, let reverse = regex.reverseDFA else { continue }
            let minForward = forward.minimized(), minReverse = reverse.minimized()
            #expect(minForward.stateCount <= forward.stateCount)
            Self.assertEquivalent(forward, minForward, "seed \(gen.seed) forward /\(pattern)/", strings: strings)
            Self.assertEquivalent(reverse, minReverse, "seed \(gen.seed) reverse /\(pattern)/", strings: strings)
            checked += 1
        }
        #expect(checked >= 20)
    }

    @Test func minimizationShrinksRedundantAlternatives() throws {
        let plain = try RegexCompiler().minimize(false).compile("(?:ab|ab|a(?:b))+")
        let small = try RegexCompiler().minimize(true).compile("(?:ab|ab|a(?:b))+")
        #expect(small.forwardDFA!.stateCount < plain.forwardDFA!.stateCount)
        #expect(small.matches(in: "ababxab") == plain.matches(in: "ababxab"))
    }
}
