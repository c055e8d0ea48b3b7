// Patterns that make backtracking engines exponential, and patterns whose full DFA
// is too large, on 1 MB inputs: the work is counted in DFA transitions (no timing).
import AutomatonCore
@testable import RegexAutomata
import Testing
import TestSupport

@Suite struct PathologicalTests {
    static let megabyte = 1 << 20

    @Test(arguments: [("(a*)*b", UInt8(ascii: "a")), ("(x+x+)+y", UInt8(ascii: "x")), ("(a|aa)*c", UInt8(ascii: "a"))])
    func backtrackingKillersAreLinear(_ pattern: String, _ byte: UInt8) throws {
        let regex = try RegexCompiler().compile(pattern)
        let haystack = [UInt8](repeating: byte, count: Self.megabyte)
        var stats = RegexAutomaton.SearchStats()
        let found = regex.matches(in: haystack, stats: &stats)
        #expect(found.isEmpty)
        #expect(regex.engineKind == .dense)
        #expect(stats.transitions <= 3 * haystack.count, "\(stats)")
        #expect(stats.nfaFallbacks == 0)
    }

    @Test func killerWithAMatchAtTheEnd() throws {
        let regex = try RegexCompiler().compile("(a|aa)*c")
        var haystack = [UInt8](repeating: UInt8(ascii: "a"), count: Self.megabyte)
        haystack.append(UInt8(ascii: "c"))
        var stats = RegexAutomaton.SearchStats()
        #expect(regex.matches(in: haystack, stats: &stats) == [Match(pattern: 0, start: 0, end: haystack.count)])
        #expect(stats.transitions <= 3 * haystack.count, "\(stats)")
    }

    /// The full DFA needs 2^21 states: past the limit the compiler picks the lazy DFA,
    /// which on this input builds few states and stays linear.
    @Test func exponentialDFAGoesLazyAndStaysLinear() throws {
        let regex = try RegexCompiler().compile("(a|b)*a(a|b){20}")
        #expect(regex.engineKind == .lazy)
        #expect(regex.forwardDFA == nil)
        let period = Array("abbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbb".utf8)
        var haystack: [UInt8] = []
        while haystack.count < Self.megabyte { haystack += period }
        var stats = RegexAutomaton.SearchStats()
        let found = regex.matches(in: haystack, stats: &stats)
        // One greedy match from 0 to 21 bytes past the last `a` followed by 20 bytes.
        let lastA = haystack[..<(haystack.count - 20)].lastIndex(of: UInt8(ascii: "a"))!
        let expectedEnd = lastA + 21
        #expect(found.first == Match(pattern: 0, start: 0, end: expectedEnd))
        #expect(stats.transitions <= 3 * haystack.count, "\(stats)")
        #expect(stats.nfaFallbacks == 0)
        #expect(stats.lazyStatesBuilt < 10_000)
    }

    /// On random input the lazy cache thrashes; the search still agrees with the
    /// PikeVM and does bounded work per byte.
    @Test func exponentialDFAOnRandomInputWithATinyCache() throws {
        let regex = try RegexCompiler().limits(Limits(maxStates: 10_000, maxTableBytes: 1 << 20, maxCacheBytes: 64 << 10))
            .compile("(a|b)*a(a|b){20}")
        #expect(regex.engineKind == .lazy)
        var rng = SeededGenerator(defaultSeed: 99)
        let haystack = (0..<20_000).map { _ in Bool.random(using: &rng) ? UInt8(ascii: "a") : UInt8(ascii: "b") }
        var stats = RegexAutomaton.SearchStats()
        let found = regex.matches(in: haystack, stats: &stats)
        let reference = haystack.withUnsafeBufferPointer { PikeVM(nfa: regex.forwardNFA).matches(in: $0, utf8: true) }
        #expect(found == reference, "seed \(rng.seed)")
        #expect(stats.transitions <= 3 * haystack.count + 3, "\(stats)")
        // The cache filled up and was cleared; past the thrash limit the search is
        // handed to the PikeVM (linear in n × NFA size), with the same result.
        #expect(stats.cacheClears > 0, "\(stats)")
    }

    @Test func longBoundedRepetition() throws {
        let regex = try RegexCompiler().compile("[a-z]{1,1000}")
        var haystack: [UInt8] = []
        var rng = SeededGenerator(defaultSeed: 7)
        var words = 0
        while haystack.count < Self.megabyte {
            let length = Int.random(in: 1...2000, using: &rng)
            haystack += (0..<length).map { _ in UInt8.random(in: 0x61...0x7A, using: &rng) }
            haystack.append(0x20)
            words += (length + 999) / 1000
        }
        var stats = RegexAutomaton.SearchStats()
        let found = regex.matches(in: haystack, stats: &stats)
        #expect(found.count == words)
        #expect(found.allSatisfy { $0.end - $0.start <= 1000 })
        #expect(stats.transitions <= 3 * haystack.count, "\(stats)")
        #expect(stats.nfaFallbacks == 0)
    }
}
