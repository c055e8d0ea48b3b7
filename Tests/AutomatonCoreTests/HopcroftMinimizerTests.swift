import Testing
import AutomatonCore
import TestSupport

@Suite struct HopcroftMinimizerTests {
    /// The subset-construction DFA for `(a|b)*abb` (Aho, Sethi, Ullman, Fig. 3.36):
    /// five live states A–E, where A and C are equivalent.
    static func textbookABB() throws -> DenseDFA {
        var set = ByteClassSet()
        set.add(UInt8(ascii: "a"))
        set.add(UInt8(ascii: "b"))
        var b = DenseDFABuilder(byteClasses: set.byteClasses(), patternCount: 1)
        let A = b.addState(), B = b.addState(), C = b.addState(), D = b.addState()
        let E = b.addState(patterns: [0])
        let a = UInt8(ascii: "a"), bb = UInt8(ascii: "b")
        for (from, onA, onB) in [(A, B, C), (B, B, D), (C, B, C), (D, B, E), (E, B, C)] {
            b.setTransition(from: from, byte: a, to: onA)
            b.setTransition(from: from, byte: bb, to: onB)
        }
        b.setStart(A)
        return try b.build()
    }

    @Test func textbookABBMinimizesToFourLiveStates() throws {
        let dfa = try Self.textbookABB()
        #expect(dfa.stateCount == 6)
        let small = dfa.minimized()
        #expect(small.stateCount == 5, "4 live states plus the dead state")
        #expect(small.matchStateCount == 1)
        #expect(small.patternCount == 1)
        #expect(small.byteClasses == dfa.byteClasses)
        #expect(small.matchTiming == dfa.matchTiming)
        #expect(small.isDeadState(small.next(small.startState(), UInt8(ascii: "c"))))
        #expect(DFATestHelpers.firstDifference(dfa, small, alphabet: Array("abc".utf8)) == nil)
        // Hand-checked anchored answers.
        for (text, accepted) in [("abb", true), ("aabb", true), ("babb", true), ("ab", false),
                                 ("abba", false), ("", false), ("abbabb", true)] {
            let end = Array(text.utf8).withUnsafeBufferPointer {
                small.searchForward($0, in: 0..<$0.count, anchored: true)
            }
            #expect((end?.end == text.utf8.count) == accepted, "\(text)")
        }
    }

    @Test func textbookWithRedundantCopiesMinimizesToTheSameSize() throws {
        var rng = SeededGenerator(defaultSeed: 0xABB)
        let big = try DFATestHelpers.duplicated(try Self.textbookABB(), copies: 4, using: &rng)
        #expect(big.stateCount == 21, "seed \(rng.seed)")
        let small = big.minimized()
        #expect(small.stateCount == 5, "seed \(rng.seed)")
        #expect(DFATestHelpers.firstDifference(big, small) == nil, "seed \(rng.seed)")
    }

    @Test func unreachableStatesAreDropped() throws {
        var b = DenseDFABuilder(byteClasses: .singletons, patternCount: 1)
        let start = b.addState()
        let end = b.addState(patterns: [0])
        let orphan = b.addState(patterns: [0])
        b.setTransition(from: start, byte: 0x61, to: end)
        b.setTransition(from: orphan, byte: 0x61, to: start)
        b.setStart(start)
        let dfa = try b.build()
        let small = dfa.minimized()
        #expect(small.stateCount == 3)
        #expect(small.matchStateCount == 1)
        #expect(small.isMatch(in: "a"))
    }

    @Test func statesThatCannotMatchMergeWithTheDeadState() throws {
        var b = DenseDFABuilder(byteClasses: .singletons, patternCount: 1)
        let start = b.addState()
        let trap = b.addState()  // loops forever without a match
        b.setTransition(from: start, bytes: 0...255, to: trap)
        b.setTransition(from: trap, bytes: 0...255, to: trap)
        b.setStart(start)
        let small = try b.build().minimized()
        #expect(small.stateCount == 1)
        #expect(small.isDeadState(small.startState()))
        #expect(!small.isMatch(in: "anything"))
    }

    @Test func patternListsStayApart() throws {
        // Two states that differ only in the order of their pattern lists must not merge.
        var b = DenseDFABuilder(byteClasses: .singletons, patternCount: 2)
        let start = b.addState()
        let x = b.addState(patterns: [0, 1]), y = b.addState(patterns: [1, 0]), z = b.addState(patterns: [0, 1])
        b.setTransition(from: start, byte: 0x61, to: x)
        b.setTransition(from: start, byte: 0x62, to: y)
        b.setTransition(from: start, byte: 0x63, to: z)
        b.setStart(start)
        let dfa = try b.build()
        let small = dfa.minimized()
        #expect(small.stateCount == 4, "x and z merge; y stays apart")
        #expect(small.matchEnds(in: "b") == [MatchEnd(pattern: 1, end: 1), MatchEnd(pattern: 0, end: 1)])
        #expect(small.matchEnds(in: "c") == [MatchEnd(pattern: 0, end: 1), MatchEnd(pattern: 1, end: 1)])
    }

    @Test func everyStartStateIsPreserved() throws {
        var b = DenseDFABuilder(byteClasses: .singletons, patternCount: 2)
        let s1 = b.addState(), s2 = b.addState()
        let m0 = b.addState(patterns: [0]), m1 = b.addState(patterns: [1])
        b.setTransition(from: s1, byte: 0x61, to: m0)
        b.setTransition(from: s2, byte: 0x61, to: m1)
        b.setStart(s1)
        b.setStart(s2, context: .lineStart, anchored: true)
        b.setStart(0, context: .wordByte, anchored: false)
        let dfa = try b.build()
        let small = dfa.minimized()
        #expect(small.stateCount == 5)
        #expect(DFATestHelpers.firstDifference(dfa, small, alphabet: [0x61, 0x62]) == nil)
        #expect(small.isDeadState(small.startState(.wordByte, anchored: false)))
        #expect(small.patterns(of: small.next(small.startState(.lineStart, anchored: true), 0x61)) == [1])
        #expect(small.patterns(of: small.next(small.startState(.textStart, anchored: true), 0x61)) == [0])
    }

    @Test func endOfInputSeparatesStates() throws {
        // p and q agree on every byte but only p reaches a match on end-of-input.
        var b = DenseDFABuilder(byteClasses: .single, patternCount: 1)
        let start = b.addState(), p = b.addState(), q = b.addState(), m = b.addState(patterns: [0])
        b.setTransition(from: start, class: 0, to: p)
        b.setTransition(from: p, class: 0, to: q)
        b.setTransition(from: q, class: 0, to: p)
        b.setEOITransition(from: p, to: m)
        b.setStart(start)
        let dfa = try b.build(matchTiming: .delayedByOne)
        let small = dfa.minimized()
        // start and q are equivalent (a byte leads to p, end-of-input to the dead state);
        // p differs from them only on end-of-input and must stay apart.
        #expect(small.stateCount == 4)
        #expect(small.index(of: small.next(small.startState(), 0x78)) != small.index(of: small.startState()))
        #expect(small.matchTiming == .delayedByOne)
        for text in ["", "x", "xy", "xyz", "wxyz"] {
            #expect(small.matchEnds(in: text) == dfa.matchEnds(in: text), "\(text)")
        }
        #expect(small.matchEnds(in: "xyz") == [MatchEnd(pattern: 0, end: 3)])
        #expect(small.matchEnds(in: "xy").isEmpty)
    }

    @Test func delayedWordBoundaryKeepsItsMatches() throws {
        let dfa = try DenseDFASearchTests.aWordBoundary()
        let small = dfa.minimized()
        #expect(small.stateCount == dfa.stateCount, "already minimal: S and M differ in their pattern lists")
        #expect(small.serializedTableForTests == dfa.serializedTableForTests)
        #expect(small.matchEnds(in: "ab a-a") == [MatchEnd(pattern: 0, end: 4), MatchEnd(pattern: 0, end: 6)])
    }

    @Test(arguments: [DenseDFA.MatchTiming.immediate, .delayedByOne])
    func randomAutomataKeepTheirLanguage(timing: DenseDFA.MatchTiming) throws {
        var rng = SeededGenerator(defaultSeed: timing == .immediate ? 0x5EED_0001 : 0x5EED_0002)
        for round in 0..<25 {
            let states = Int.random(in: 1...12, using: &rng)
            let patternCount = Int.random(in: 1...3, using: &rng)
            let wild = round % 4 == 3
            let base = try DFATestHelpers.randomDFA(
                states: states, patternCount: patternCount, timing: timing, wildBytes: wild, using: &rng)
            let dfa = round.isMultiple(of: 2) ? base : try DFATestHelpers.duplicated(base, copies: 3, using: &rng)
            let small = dfa.minimized()
            let context = "seed \(rng.seed), round \(round)"
            #expect(DFATestHelpers.firstDifference(dfa, small) == nil, "\(context)")
            if wild {
                // Bytes outside {a, b, c} matter too: walk them, on shorter strings.
                let bytes = Array("abc\0z".utf8)
                #expect(DFATestHelpers.firstDifference(dfa, small, alphabet: bytes, maxLength: 5) == nil, "\(context)")
            }
            #expect(small.stateCount == DFATestHelpers.mooreMinimalStateCount(dfa), "\(context)")
            #expect(small.stateCount == base.minimized().stateCount, "\(context)")
            #expect(small.stateCount <= dfa.stateCount, "\(context)")
            #expect(small.matchTiming == timing && small.patternCount == patternCount, "\(context)")
            let twice = small.minimized()
            #expect(twice.stateCount == small.stateCount, "\(context)")
            #expect(twice.serializedTableForTests == small.serializedTableForTests, "minimizing a minimal DFA keeps its numbering; \(context)")
            #expect(DFATestHelpers.firstDifference(small, twice) == nil, "\(context)")
        }
    }
}

extension DenseDFA {
    /// Every transition, start and pattern list, for comparing two automata exactly.
    var serializedTableForTests: [UInt32] {
        var out: [UInt32] = []
        for i in 0..<stateCount {
            for c in 0..<byteClasses.alphabetLength { out.append(next(id(ofIndex: i), class: c)) }
            out.append(0xFFFF_FFFF)
            out.append(contentsOf: patterns(of: id(ofIndex: i)))
            out.append(0xFFFF_FFFF)
        }
        for ctx in StartContext.allCases {
            for anchored in [false, true] { out.append(startState(ctx, anchored: anchored)) }
        }
        return out
    }
}
