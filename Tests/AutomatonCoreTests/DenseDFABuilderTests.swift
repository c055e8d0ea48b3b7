import Testing
import AutomatonCore

@Suite struct DenseDFABuilderTests {
    @Test func statesAreRenumberedDeadThenMatchThenOthers() throws {
        var b = DenseDFABuilder(byteClasses: DFATestHelpers.abcClasses, patternCount: 2)
        let s1 = b.addState()
        let m1 = b.addState(patterns: [1, 0])
        let s2 = b.addState()
        let m2 = b.addState(patterns: [0])
        b.setTransition(from: s1, byte: UInt8(ascii: "a"), to: m1)
        b.setTransition(from: m1, byte: UInt8(ascii: "b"), to: s2)
        b.setTransition(from: s2, byte: UInt8(ascii: "c"), to: m2)
        b.setStart(s1)
        let dfa = try b.build()
        #expect(dfa.stride == 8, "5 classes + EOI = 6 symbols → stride 8")
        #expect(dfa.strideShift == 3)
        #expect(dfa.stateCount == 5)
        #expect(dfa.matchStateCount == 2)
        #expect(dfa.maxMatchID == 16)
        // m1 → 1, m2 → 2, s1 → 3, s2 → 4
        #expect(dfa.startState() == 24)
        #expect(dfa.next(24, UInt8(ascii: "a")) == 8)
        #expect(Array(dfa.patterns(of: 8)) == [1, 0])
        #expect(dfa.firstPattern(of: 8) == 1)
        #expect(dfa.next(8, UInt8(ascii: "b")) == 32)
        #expect(dfa.next(32, UInt8(ascii: "c")) == 16)
        #expect(Array(dfa.patterns(of: 16)) == [0])
        #expect(dfa.patterns(of: 24).isEmpty)
        #expect(dfa.isMatchState(8) && dfa.isMatchState(16) && !dfa.isMatchState(24) && !dfa.isMatchState(0))
        #expect(dfa.isSpecialState(0) && dfa.isDeadState(0) && !dfa.isSpecialState(24))
        #expect(dfa.next(24, UInt8(ascii: "z")) == 0)
        #expect(dfa.nextEOI(24) == 0)
        #expect(dfa.index(of: 32) == 4 && dfa.id(ofIndex: 4) == 32)
        for state in 0..<dfa.stateCount {
            for c in 0..<dfa.byteClasses.alphabetLength {
                #expect(dfa.next(dfa.id(ofIndex: state), class: c) % 8 == 0)
            }
        }
    }

    @Test func startStatesByContextAndAnchoring() throws {
        var b = DenseDFABuilder(byteClasses: .single, patternCount: 0)
        let a = b.addState(), c = b.addState()
        b.setStart(a)
        b.setStart(c, context: .lineStart)
        b.setStart(0, context: .wordByte, anchored: true)
        #expect(b.start(.textStart, anchored: true) == a)
        #expect(b.start(.lineStart, anchored: false) == c && b.start(.lineStart, anchored: true) == c)
        #expect(b.start(.wordByte, anchored: true) == 0 && b.start(.wordByte, anchored: false) == a)
        let dfa = try b.build()
        #expect(dfa.startState(.otherByte, anchored: true) == dfa.id(ofIndex: a))
        #expect(dfa.startState(.lineStart, anchored: false) == dfa.id(ofIndex: c))
        #expect(dfa.startState(.wordByte, anchored: true) == 0)
    }

    @Test func invalidBuildsThrow() throws {
        var dead = DenseDFABuilder(byteClasses: .single, patternCount: 1)
        dead.setPatterns(0, [0])
        #expect(throws: AutomatonError(.invalidBuild("the dead state cannot be a match state"))) { try dead.build() }

        var outOfRange = DenseDFABuilder(byteClasses: .single, patternCount: 1)
        outOfRange.addState(patterns: [1])
        #expect(throws: AutomatonError(.invalidBuild("pattern id 1 is not below the pattern count 1"))) { try outOfRange.build() }

        var forward = DenseDFABuilder(byteClasses: .single, patternCount: 0)
        let s = forward.addState()
        forward.setTransition(from: s, class: 0, to: 2)  // state 2 not added yet
        forward.setStart(s)
        #expect(throws: AutomatonError.self) { try forward.build() }
        forward.addState()
        #expect(try forward.build().stateCount == 3, "a forward reference is fine once the state exists")

        var badStart = DenseDFABuilder(byteClasses: .single, patternCount: 0)
        badStart.setStart(5)
        #expect(throws: AutomatonError.self) { try badStart.build() }
    }

    @Test func limitsAreEnforced() throws {
        var b = DenseDFABuilder(byteClasses: .singletons, patternCount: 0)
        for _ in 0..<9 { b.addState() }
        #expect(throws: AutomatonError(.tooManyStates(limit: 5))) { try b.build(limits: Limits(maxStates: 5)) }
        // 10 states × stride 512 × 4 bytes = 20,480 bytes.
        #expect(throws: AutomatonError(.tableTooLarge(limit: 20_000))) { try b.build(limits: Limits(maxTableBytes: 20_000)) }
        #expect(try b.build(limits: Limits(maxStates: 10, maxTableBytes: 20_480)).stateCount == 10)
        #expect(AutomatonError(.tooManyStates(limit: 5)).description.contains("Limits.maxStates"))
    }

    @Test func strideIsTheNextPowerOfTwo() {
        #expect(DenseDFABuilder.stride(for: .single) == (2, 1))
        #expect(DenseDFABuilder.stride(for: .singletons) == (512, 9))
        #expect(DenseDFABuilder.stride(for: DFATestHelpers.abcClasses) == (8, 3))
        var set = ByteClassSet()
        set.add(0x10...0x20)  // 3 classes + EOI = 4 → stride 4
        #expect(DenseDFABuilder.stride(for: set.byteClasses()) == (4, 2))
    }

    @Test func toBuilderRoundTrips() throws {
        let dfa = try DenseDFADOTTests.sample()
        let again = try dfa.toBuilder().build(matchTiming: dfa.matchTiming)
        #expect(again.serializedTableForTests == dfa.serializedTableForTests)
        let b = dfa.toBuilder()
        #expect(b.stateCount == dfa.stateCount && b.patternCount == 3)
        #expect(b.patterns(of: 2) == [1, 0])
        #expect(b.transition(from: 1, class: dfa.byteClasses.eoi) == 3)
    }
}
