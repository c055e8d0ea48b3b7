import AutomatonCore
import LiteralAutomata
import TestSupport
import Testing

/// Literal automata are ordinary core DFAs: the core's search loops, minimization,
/// DOT export and save/load work on them.
@Suite struct CoreIntegrationTests {
    @Test func kmpIsTheFailureFunctionAutomaton() throws {
        #expect(KMP.failureFunction(Array("abab".utf8)) == [0, 0, 0, 1, 2])
        #expect(KMP.failureFunction(Array("aabaaab".utf8)) == [0, 0, 1, 0, 1, 2, 2, 3])
        let dfa = try KMP("abab", matchKind: .overlapping).denseDFA
        // The state is how much of the word has been seen.
        var s = dfa.startState()
        var seen: [Int] = []
        for b in "abaabab".utf8 { s = dfa.next(s, b); seen.append(dfa.index(of: s) - 1) }
        // Indices: dead 0, match state (j = 4) 1, then j = 0, 1, 2, 3 → 2...5.
        let j = seen.map { $0 == 0 ? 4 : $0 - 1 }
        #expect(j == [1, 2, 3, 1, 2, 3, 4])
    }

    @Test func coreSearchLoopsOnTheLiteralDFA() throws {
        let ac = try AhoCorasick.Builder().matchKind(.overlapping).prefilter(false).build(["he", "she", "hers"])
        let dfa = try #require(ac.denseDFA)
        #expect(dfa.matchEnds(in: "ushers").map(\.end) == [4, 4, 6])
        let leftmost = try #require(try AhoCorasick.Builder().matchKind(.leftmostLongest).build(["he", "hers"]).denseDFA)
        #expect(withUTF8("ushers") { leftmost.searchForward($0, in: 0..<$0.count) } == MatchEnd(pattern: 1, end: 6))
    }

    @Test func minimizedDFAKeepsTheMatchEnds() throws {
        var rng = SeededGenerator(defaultSeed: 0x313A_0001)
        let seed = rng.seed
        for round in 0..<40 {
            let patterns = (0..<Int.random(in: 1...5, using: &rng)).map { _ in rng.bytes(from: Array("abc".utf8), maxLength: 4) }
                .map { $0.isEmpty ? [0x61] : $0 }
            let dfa = try #require(try AhoCorasick.Builder().matchKind(.overlapping).build(patterns).denseDFA)
            let minimal = dfa.minimized()
            #expect(minimal.stateCount <= dfa.stateCount)
            let h = rng.bytes(from: Array("abc".utf8), maxLength: 30)
            #expect(minimal.matchEnds(in: h) == dfa.matchEnds(in: h), "seed \(seed) round \(round) \(show(patterns)) \(show(h))")
        }
    }

    @Test func dotExportAndCoreSaveLoad() throws {
        let dfa = try KMP("aba").denseDFA
        let dot = dfa.dot(name: "kmp")
        #expect(dot.contains("digraph"))
        let loaded = try DenseDFA(deserializing: dfa.serialized())
        #expect(loaded.matchEnds(in: "xabax") == dfa.matchEnds(in: "xabax"))
    }
}
