import Testing
import AutomatonCore

/// Forward, reverse and overlapping search over hand-built automata, with both match
/// timings; every expected answer below was worked out by hand from the drawn DFA.
@Suite struct DenseDFASearchTests {
    static let a = UInt8(ascii: "a"), b = UInt8(ascii: "b")

    /// Unanchored, immediate, overlapping: patterns "ab" (0) and "b" (1).
    /// S --a--> A, A --b--> AB [0, 1], others --b--> B [1], any other byte --> S.
    static func abAndB() throws -> DenseDFA {
        var builder = DenseDFABuilder(byteClasses: .singletons, patternCount: 2)
        let s = builder.addState(), sawA = builder.addState()
        let sawAB = builder.addState(patterns: [0, 1]), sawB = builder.addState(patterns: [1])
        for state in [s, sawA, sawAB, sawB] {
            builder.setTransition(from: state, bytes: 0...255, to: s)
            builder.setTransition(from: state, byte: a, to: sawA)
            builder.setTransition(from: state, byte: b, to: state == sawA ? sawAB : sawB)
        }
        builder.setStart(s)
        return try builder.build()
    }

    /// Anchored, immediate: `ab+`. S --a--> A --b--> M [0] --b--> M.
    static func abPlus() throws -> DenseDFA {
        var builder = DenseDFABuilder(byteClasses: .singletons, patternCount: 1)
        let s = builder.addState(), sawA = builder.addState(), m = builder.addState(patterns: [0])
        builder.setTransition(from: s, byte: a, to: sawA)
        builder.setTransition(from: sawA, byte: b, to: m)
        builder.setTransition(from: m, byte: b, to: m)
        builder.setStart(s)
        return try builder.build()
    }

    /// Unanchored, delayed by one: `a\b` (an `a` followed by a non-word byte or the end).
    /// S --a--> A; A --non-word or EOI--> M [0]; M and S share their byte transitions.
    static func aWordBoundary() throws -> DenseDFA {
        var builder = DenseDFABuilder(byteClasses: .singletons, patternCount: 1)
        let s = builder.addState(), sawA = builder.addState(), m = builder.addState(patterns: [0])
        for state in [s, sawA, m] {
            builder.setTransition(from: state, bytes: 0...255, to: s)
            builder.setTransition(from: state, byte: a, to: sawA)
        }
        for byte in UInt8(0)...255 where !isASCIIWordByte(byte) {
            builder.setTransition(from: sawA, byte: byte, to: m)
        }
        builder.setEOITransition(from: sawA, to: m)
        builder.setStart(s)
        return try builder.build(matchTiming: .delayedByOne)
    }

    static func forward(_ dfa: DenseDFA, _ text: String, _ range: Range<Int>? = nil,
                        anchored: Bool = false, earliest: Bool = false) -> MatchEnd? {
        Array(text.utf8).withUnsafeBufferPointer {
            dfa.searchForward($0, in: range ?? 0..<$0.count, anchored: anchored, earliest: earliest)
        }
    }

    static func reverse(_ dfa: DenseDFA, _ text: String, _ range: Range<Int>? = nil,
                        anchored: Bool = true, earliest: Bool = false) -> MatchEnd? {
        Array(text.utf8).withUnsafeBufferPointer {
            dfa.searchReverse($0, in: range ?? 0..<$0.count, anchored: anchored, earliest: earliest)
        }
    }

    @Test func overlappingMatchEnds() throws {
        let dfa = try Self.abAndB()
        #expect(dfa.matchEnds(in: "xabb") == [MatchEnd(pattern: 0, end: 3), MatchEnd(pattern: 1, end: 3), MatchEnd(pattern: 1, end: 4)])
        #expect(dfa.matchEnds(in: "aaa").isEmpty)
        #expect(dfa.matchEnds(in: "").isEmpty)
        #expect(dfa.matchEnds(in: Array("bab".utf8)) == [MatchEnd(pattern: 1, end: 1), MatchEnd(pattern: 0, end: 3), MatchEnd(pattern: 1, end: 3)])
        // forEachMatchEnd hands over every pattern of a state at once, and stops on request.
        var seen: [(Int, [UInt32])] = []
        Array("ababab".utf8).withUnsafeBufferPointer { h in
            dfa.forEachMatchEnd(h, in: 0..<h.count) { end, patterns in
                seen.append((end, Array(patterns)))
                return seen.count < 2
            }
        }
        #expect(seen.map(\.0) == [2, 4])
        #expect(seen.map(\.1) == [[0, 1], [0, 1]])
    }

    @Test func forwardSearchImmediate() throws {
        let dfa = try Self.abAndB()
        #expect(Self.forward(dfa, "xabb", earliest: true) == MatchEnd(pattern: 0, end: 3))
        #expect(Self.forward(dfa, "xabb") == MatchEnd(pattern: 1, end: 4), "unanchored, never dead: the last match seen")
        #expect(Self.forward(dfa, "xabb", 0..<3) == MatchEnd(pattern: 0, end: 3))
        #expect(Self.forward(dfa, "xabb", 2..<4, earliest: true) == MatchEnd(pattern: 1, end: 3), "the range starts after the a")
        #expect(Self.forward(dfa, "xyz") == nil)
        #expect(dfa.isMatch(in: "zzb") && !dfa.isMatch(in: "zza"))
        #expect(dfa.earliestMatchEnd(in: "cab") == MatchEnd(pattern: 0, end: 3))
        #expect(dfa.earliestMatchEnd(in: Array("cb".utf8)) == MatchEnd(pattern: 1, end: 2))

        let plus = try Self.abPlus()
        #expect(Self.forward(plus, "abbbc", anchored: true) == MatchEnd(pattern: 0, end: 4), "longest: runs to the dead state")
        #expect(Self.forward(plus, "abbbc", anchored: true, earliest: true) == MatchEnd(pattern: 0, end: 2))
        #expect(Self.forward(plus, "abbbc", 1..<5, anchored: true) == nil)
        #expect(Self.forward(plus, "xabb", 1..<4, anchored: true) == MatchEnd(pattern: 0, end: 4))
        #expect(Self.forward(plus, "abbb", 0..<3, anchored: true) == MatchEnd(pattern: 0, end: 3), "the range bounds the scan")
        #expect(Self.forward(plus, "a", anchored: true) == nil)
        #expect(!plus.isMatch(in: "xab"), "no self-loop on the start state: anchored in effect")
    }

    @Test func forwardSearchDelayedByOne() throws {
        let dfa = try Self.aWordBoundary()
        // "ab a-a": the a at 0 is followed by b (word), the a at 3 by '-', the a at 5 by the end.
        #expect(dfa.matchEnds(in: "ab a-a") == [MatchEnd(pattern: 0, end: 4), MatchEnd(pattern: 0, end: 6)])
        #expect(Self.forward(dfa, "ab a-a", earliest: true) == MatchEnd(pattern: 0, end: 4))
        #expect(Self.forward(dfa, "ab a-a") == MatchEnd(pattern: 0, end: 6))
        #expect(Self.forward(dfa, "ba") == MatchEnd(pattern: 0, end: 2), "end-of-input completes the match")
        #expect(Self.forward(dfa, "ab") == nil)
        // The range ends before the haystack: the byte after it is fed, not end-of-input.
        #expect(Self.forward(dfa, "ab", 0..<1) == nil, "b follows, so no boundary")
        #expect(Self.forward(dfa, "a b", 0..<1) == MatchEnd(pattern: 0, end: 1), "space follows")
        #expect(dfa.matchEnds(in: "a") == [MatchEnd(pattern: 0, end: 1)])
        #expect(dfa.matchEnds(in: "aa a") == [MatchEnd(pattern: 0, end: 2), MatchEnd(pattern: 0, end: 4)])
        #expect(!dfa.isMatch(in: "abc") && dfa.isMatch(in: "ca."))
    }

    @Test func startContextsSelectTheStartState() throws {
        // Start only matches `a` after text start or a newline: a hand-built `(?m)^a`.
        var builder = DenseDFABuilder(byteClasses: .singletons, patternCount: 1)
        let s = builder.addState(), m = builder.addState(patterns: [0])
        builder.setTransition(from: s, byte: Self.a, to: m)
        builder.setStart(0)
        builder.setStart(s, context: .textStart)
        builder.setStart(s, context: .lineStart)
        let dfa = try builder.build()
        #expect(Self.forward(dfa, "b\na", 2..<3) == MatchEnd(pattern: 0, end: 3))
        #expect(Self.forward(dfa, "ba", 1..<2) == nil, "after a word byte")
        #expect(Self.forward(dfa, " a", 1..<2) == nil, "after another byte")
        #expect(Self.forward(dfa, "a") == MatchEnd(pattern: 0, end: 1))
    }

    @Test func reverseSearch() throws {
        // Reverse of the anchored pattern "ab": read b then a going left.
        var builder = DenseDFABuilder(byteClasses: .singletons, patternCount: 1)
        let s = builder.addState(), sawB = builder.addState(), m = builder.addState(patterns: [0])
        builder.setTransition(from: s, byte: Self.b, to: sawB)
        builder.setTransition(from: sawB, byte: Self.a, to: m)
        builder.setStart(s)
        let dfa = try builder.build()
        #expect(Self.reverse(dfa, "xxab") == MatchEnd(pattern: 0, end: 2))
        #expect(Self.reverse(dfa, "xxab", 0..<4, earliest: true) == MatchEnd(pattern: 0, end: 2))
        #expect(Self.reverse(dfa, "xxabab", 0..<4) == MatchEnd(pattern: 0, end: 2))
        #expect(Self.reverse(dfa, "ab", 1..<2) == nil, "the range stops before the a")
        #expect(Self.reverse(dfa, "xxba") == nil)

        // Reverse, delayed by one: `^a` read backward — an a, then text start (EOI going left).
        var delayed = DenseDFABuilder(byteClasses: .singletons, patternCount: 1)
        let d = delayed.addState(), sawA = delayed.addState(), dm = delayed.addState(patterns: [0])
        delayed.setTransition(from: d, byte: Self.a, to: sawA)
        delayed.setEOITransition(from: sawA, to: dm)
        delayed.setStart(d)
        let start = try delayed.build(matchTiming: .delayedByOne)
        #expect(Self.reverse(start, "ab", 0..<1) == MatchEnd(pattern: 0, end: 0))
        #expect(Self.reverse(start, "ba", 1..<2) == nil, "b precedes the range, not text start")
        #expect(Self.reverse(start, "a") == MatchEnd(pattern: 0, end: 0))
    }

    @Test func lowLevelSteppingMatchesTheLoops() throws {
        let dfa = try Self.aWordBoundary()
        var state = dfa.startState()
        var ends: [Int] = []
        let text = Array("a a-ab".utf8)
        for (i, byte) in text.enumerated() {
            state = dfa.next(state, byte)
            if dfa.isMatchState(state) { ends.append(i) }
        }
        state = dfa.nextEOI(state)
        if dfa.isMatchState(state) { ends.append(text.count) }
        #expect(ends == dfa.matchEnds(in: text).map(\.end))
        #expect(ends == [1, 3])
    }

    @Test func rawBufferAndEmptyHaystacks() throws {
        let dfa = try Self.abAndB()
        let bytes = Array("zab".utf8)
        #expect(bytes.withUnsafeBytes { dfa.isMatch(in: $0) })
        #expect(!dfa.isMatch(in: ""))
        let empty: [UInt8] = []
        #expect(empty.withUnsafeBufferPointer { dfa.searchForward($0, in: 0..<0) } == nil)
        #expect(empty.withUnsafeBufferPointer { dfa.searchReverse($0, in: 0..<0) } == nil)
    }
}

@Suite struct DenseDFASearchRangeTests {
    @Test func aRangeOutsideTheHaystackTraps() async throws {
        await #expect(processExitsWith: .failure) {
            let dfa = try DenseDFASearchTests.abPlus()
            let bytes: [UInt8] = [0x61, 0x62]
            _ = bytes.withUnsafeBufferPointer { dfa.searchForward($0, in: 0..<5, anchored: true) }
        }
        await #expect(processExitsWith: .failure) {
            let dfa = try DenseDFASearchTests.abPlus()
            let bytes: [UInt8] = [0x61, 0x62]
            _ = bytes.withUnsafeBufferPointer { dfa.searchReverse($0, in: 1..<3) }
        }
    }
}
