// The lazy DFA's cache cleared in the middle of a search, and one compiled regex (with
// its shared pool of lazy caches) searched from two threads at once: the results agree
// with the PikeVM. The cache's states are interned in a StateKeyTable whose indices are
// valid for one epoch only, and the determinizer memoizes closures by (index, epoch);
// a stale memo or a cache handed to two threads at once would show here as a wrong match.
import AutomatonCore
import Dispatch
@testable import RegexAutomata
import Testing
import TestSupport

@Suite struct LazyCacheResetTests {
    /// Random a and b: `(a|b)*a(a|b){20}` has 2^21 DFA states, far more than a 64 KiB
    /// cache holds, so the cache clears (no literal prefilter takes the search away).
    static func haystack(seed: UInt64) -> [UInt8] {
        var rng = SeededGenerator(defaultSeed: seed)
        return (0..<20_000).map { _ in Bool.random(using: &rng) ? UInt8(ascii: "a") : UInt8(ascii: "b") }
    }

    static func compiled() throws -> RegexAutomaton {
        try RegexCompiler().forceLazy(true)
            .limits(Limits(maxStates: 10_000, maxTableBytes: 1 << 20, maxCacheBytes: 64 << 10))
            .compile("(a|b)*a(a|b){20}")
    }

    @Test func manyClearsInOneSearchAgreeWithPikeVM() throws {
        let regex = try Self.compiled()
        #expect(regex.engineKind == .lazy)
        let haystack = Self.haystack(seed: 53)
        var stats = RegexAutomaton.SearchStats()
        let found = regex.matches(in: haystack, stats: &stats)
        let reference = haystack.withUnsafeBufferPointer { PikeVM(nfa: regex.forwardNFA).matches(in: $0, utf8: true) }
        #expect(!reference.isEmpty)
        #expect(found == reference)
        #expect(stats.cacheClears >= 1, "\(stats)")
    }

    @Test func oneRegexSearchedFromTwoThreadsWhileItsCachesClear() throws {
        let regex = try Self.compiled()
        let haystacks = [Self.haystack(seed: 1), Self.haystack(seed: 2)]
        let references = haystacks.map { h in
            h.withUnsafeBufferPointer { PikeVM(nfa: regex.forwardNFA).matches(in: $0, utf8: true) }
        }
        let rounds = 6
        let results = ThreadSlots()
        defer { results.slots.deallocate() }
        DispatchQueue.concurrentPerform(iterations: 2) { t in
            var agreed = 0, clears = 0
            for _ in 0..<rounds {
                var stats = RegexAutomaton.SearchStats()
                if regex.matches(in: haystacks[t], stats: &stats) == references[t] { agreed += 1 }
                clears += stats.cacheClears
            }
            results.slots[t] = (agreed, clears)
        }
        for t in 0..<2 {
            #expect(results.slots[t].agreed == rounds, "thread \(t)")
            #expect(results.slots[t].clears >= rounds, "thread \(t): \(results.slots[t].clears) clears")
        }
    }
}

/// One result slot per thread; each thread writes only its own, the test reads them
/// after `concurrentPerform` returns.
private struct ThreadSlots: @unchecked Sendable {
    let slots: UnsafeMutableBufferPointer<(agreed: Int, clears: Int)>
    init() {
        slots = .allocate(capacity: 2)
        slots.initialize(repeating: (0, 0))
    }
}
