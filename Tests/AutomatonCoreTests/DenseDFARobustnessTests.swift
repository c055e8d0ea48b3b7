// DenseDFA under stress: one DenseDFA searched by many tasks at once, the builder's
// limits as typed errors, and the loader on hostile bytes (the libFuzzer target
// Fuzz/Sources/FuzzLoader does the same at scale; its findings go in Regression*.swift).

import AutomatonCore
import Testing
import TestSupport

@Suite("DenseDFA: shared by tasks, builder limits, hostile loader input")
struct DenseDFARobustnessTests {
    static let sanitized = ConcurrentChecks.sanitized

    @Test("8 tasks × 1,000 searches of one DenseDFA give identical results")
    func sharedDenseDFA() async throws {
        var rng = SeededGenerator(defaultSeed: 0xD0D0)
        let dfa = try DFATestHelpers.randomDFA(states: 40, patternCount: 3, timing: .immediate, using: &rng)
        let haystacks: [[UInt8]] = (0..<16).map { _ in
            (0..<200).map { _ in Array("abcx".utf8).randomElement(using: &rng)! }
        }
        @Sendable func signature(_ h: [UInt8]) -> [Int] {
            let ends = dfa.matchEnds(in: h).flatMap { [$0.end, $0.pattern] }
            let fwd = h.withUnsafeBufferPointer { dfa.searchForward($0, in: 0..<$0.count).map { [$0.end, $0.pattern] } ?? [-1] }
            let rev = h.withUnsafeBufferPointer { dfa.searchReverse($0, in: 0..<$0.count).map { [$0.end, $0.pattern] } ?? [-1] }
            return ends + fwd + rev + [dfa.isMatch(in: h) ? 1 : 0]
        }
        let expected = haystacks.map(signature)
        let rounds = Self.sanitized ? 100 : 1_000
        let mismatches = await ConcurrentChecks.failures(rounds: rounds) { task, i in
            signature(haystacks[(i + task) % 16]) == expected[(i + task) % 16]
        }
        #expect(mismatches == 0)
    }

    @Test("DenseDFABuilder: over maxStates or maxTableBytes is a typed error naming the limit")
    func builderLimits() throws {
        var rng = SeededGenerator(defaultSeed: 7)
        let dfa = try DFATestHelpers.randomDFA(states: 50, patternCount: 1, timing: .immediate, using: &rng)
        _ = dfa
        var b = DenseDFABuilder(byteClasses: DFATestHelpers.abcClasses, patternCount: 1)
        for _ in 0..<100 { b.addState(patterns: []) }
        for ctx in StartContext.allCases { for a in [false, true] { b.setStart(1, context: ctx, anchored: a) } }
        #expect(throws: AutomatonError(.tooManyStates(limit: 50))) {
            try b.build(matchTiming: .immediate, limits: Limits(maxStates: 50))
        }
        #expect(throws: AutomatonError(.tableTooLarge(limit: 1_000))) {
            try b.build(matchTiming: .immediate, limits: Limits(maxTableBytes: 1_000))
        }
        #expect(AutomatonError(.tableTooLarge(limit: 1_000)).description.contains("Limits.maxTableBytes"))
        #expect(AutomatonError(.tooManyStates(limit: 50)).description.contains("Limits.maxStates"))
    }

    @Test("the loader: every truncation and every single-byte change of a valid file throws; resealed, it loads or throws, never traps")
    func loaderMutations() throws {
        var rng = SeededGenerator(defaultSeed: 0x10AD)
        let dfa = try DFATestHelpers.randomDFA(states: 6, patternCount: 3, timing: .delayedByOne, using: &rng)
        let bytes = dfa.serialized()
        let haystack = Array(0...255) + Array("abcabc".utf8)
        for n in 0..<bytes.count {
            #expect(throws: AutomatonError.self) { try DenseDFA(deserializing: Array(bytes.prefix(n))) }
        }
        for i in bytes.indices {
            for value: UInt8 in [0, 1, 0x7F, 0x80, 0xFF, bytes[i] &+ 1, bytes[i] &- 1] where value != bytes[i] {
                var copy = bytes
                copy[i] = value
                #expect(throws: AutomatonError.self, "byte \(i) = \(value)") { try DenseDFA(deserializing: copy) }
                // With the checksum recomputed (a hand-made file), the field checks answer.
                if i >= SavedContainer.headerSize, let loaded = try? DenseDFA(deserializing: SavedContainer.resealed(copy)) {
                    // A file that loads must be searchable without reading out of bounds.
                    _ = loaded.matchEnds(in: haystack)
                    haystack.withUnsafeBufferPointer { h in
                        _ = loaded.searchReverse(h, in: 0..<h.count, anchored: false)
                        _ = loaded.searchForward(h, in: 0..<h.count, anchored: true)
                    }
                    #expect((try? DenseDFA(deserializing: loaded.serialized())) != nil)
                }
            }
        }
    }
}
