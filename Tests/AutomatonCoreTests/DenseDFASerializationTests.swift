import Testing
import AutomatonCore
import TestSupport

@Suite struct DenseDFASerializationTests {
    /// The error kind loading `bytes` throws, or nil when it loads.
    static func loadError(_ bytes: [UInt8]) -> AutomatonError.Kind? {
        do {
            _ = try DenseDFA(deserializing: bytes)
            return nil
        } catch {
            return error.kind
        }
    }

    static func samples() throws -> [DenseDFA] {
        var rng = SeededGenerator(defaultSeed: 0x5E71_A115)
        var result = [try HopcroftMinimizerTests.textbookABB(), try DenseDFADOTTests.sample()]
        result.append(try DenseDFABuilder(byteClasses: .singletons, patternCount: 0).build())
        for timing in [DenseDFA.MatchTiming.immediate, .delayedByOne] {
            result.append(try DFATestHelpers.randomDFA(states: 9, patternCount: 3, timing: timing, using: &rng))
        }
        return result
    }

    /// Every search result this test suite compares between two automata.
    static func searchResults(_ dfa: DenseDFA, _ haystack: [UInt8]) -> [String] {
        haystack.withUnsafeBufferPointer { h in
            var out: [String] = []
            out.append("\(dfa.matchEnds(in: haystack))")
            for anchored in [false, true] {
                for earliest in [false, true] {
                    for start in [0, h.count / 2] {
                        out.append("\(String(describing: dfa.searchForward(h, in: start..<h.count, anchored: anchored, earliest: earliest)))")
                        out.append("\(String(describing: dfa.searchReverse(h, in: 0..<(h.count - start), anchored: anchored, earliest: earliest)))")
                    }
                }
            }
            return out
        }
    }

    @Test func roundTripPreservesEverything() throws {
        var rng = SeededGenerator(defaultSeed: 0x70A0)
        for (n, dfa) in try Self.samples().enumerated() {
            let bytes = dfa.serialized()
            let loaded = try DenseDFA(deserializing: bytes)
            #expect(loaded.serializedTableForTests == dfa.serializedTableForTests, "sample \(n)")
            #expect(loaded.byteClasses == dfa.byteClasses && loaded.matchTiming == dfa.matchTiming, "sample \(n)")
            #expect(loaded.patternCount == dfa.patternCount && loaded.stateCount == dfa.stateCount, "sample \(n)")
            #expect(loaded.maxMatchID == dfa.maxMatchID && loaded.stride == dfa.stride, "sample \(n)")
            #expect(loaded.serialized() == bytes, "sample \(n)")
            let viaRaw = try bytes.withUnsafeBytes { raw throws(AutomatonError) in try DenseDFA(deserializing: raw) }
            #expect(viaRaw.serialized() == bytes, "sample \(n)")
            for _ in 0..<50 {
                let haystack = (0..<Int.random(in: 0...24, using: &rng)).map { _ in
                    Array("abcz\0\n\"-09".utf8).randomElement(using: &rng)!
                }
                #expect(Self.searchResults(loaded, haystack) == Self.searchResults(dfa, haystack),
                        "sample \(n), haystack \(haystack), seed \(rng.seed)")
            }
        }
    }

    @Test func headerLayoutIsAsDocumented() throws {
        let bytes = try HopcroftMinimizerTests.textbookABB().serialized()
        #expect(Array(bytes[0..<8]) == Array("TRNSTDFA".utf8))
        #expect(Array(bytes[8..<12]) == [2, 0, 0, 0], "version 2, little-endian")
        let length = bytes.count - 24
        #expect(Array(bytes[12..<20]) == [UInt8(length & 0xFF), UInt8(length >> 8), 0, 0, 0, 0, 0, 0], "payload length")
        let crc = CRC32C.checksum(Array(bytes[24...]), continuing: CRC32C.checksum(Array(bytes[0..<20])))
        #expect(Array(bytes[20..<24]) == (0..<4).map { UInt8(truncatingIfNeeded: crc >> (8 * $0)) }, "CRC-32C")
        #expect(Array(bytes[24..<28]) == [0, 0, 0, 0], "immediate timing")
        #expect(bytes[28 + 0x61] == 1 && bytes[28 + 0x62] == 2 && bytes[28 + 0x63] == 3)
        #expect(Array(bytes[284..<288]) == [4, 0, 0, 0], "4 classes")
        #expect(Array(bytes[288..<292]) == [6, 0, 0, 0], "6 states")
        #expect(Array(bytes[292..<296]) == [3, 0, 0, 0], "stride 8")
        #expect(Array(bytes[296..<300]) == [1, 0, 0, 0], "1 match state")
        // header + 2 offsets + 1 pattern + 6 rows of 8
        #expect(bytes.count == 336 + 8 + 4 + 6 * 8 * 4)
    }

    /// Every proper prefix of a saved file is `.truncated`, and every file that differs
    /// from a saved one in one byte — each position, each of the 255 other values — is
    /// refused with a typed error (the checksum catches what the field checks would
    /// let through), on every sample.
    @Test func everyTruncationAndEveryChangedByteIsRefused() throws {
        for (n, dfa) in try Self.samples().enumerated() {
            let bytes = dfa.serialized()
            for length in 0..<bytes.count {
                guard case .truncated? = Self.loadError(Array(bytes[0..<length])) else {
                    Issue.record("sample \(n), length \(length): \(String(describing: Self.loadError(Array(bytes[0..<length]))))")
                    continue
                }
            }
            var copy = bytes
            var refused = 0
            for i in bytes.indices {
                for delta in 1...255 {
                    copy[i] = bytes[i] &+ UInt8(delta)
                    if Self.loadError(copy) != nil { refused += 1 } else {
                        Issue.record("sample \(n): byte \(i) changed from \(bytes[i]) to \(copy[i]) loads")
                    }
                }
                copy[i] = bytes[i]
            }
            #expect(refused == bytes.count * 255, "sample \(n)")
        }
    }

    @Test func everyTruncationIsATypedError() throws {
        for (n, dfa) in try Self.samples().enumerated() {
            let bytes = dfa.serialized()
            for length in 0..<bytes.count {
                let kind = Self.loadError(Array(bytes[0..<length]))
                guard case .truncated(let needed, let available)? = kind else {
                    Issue.record("sample \(n), length \(length): \(String(describing: kind))")
                    continue
                }
                #expect(available == length && needed > length, "sample \(n), length \(length)")
            }
        }
    }

    /// Changed fields with the checksum recomputed (a hand-made file): each is refused
    /// by the check that names it.
    @Test func specificCorruptionsNameTheirCheck() throws {
        let good = try HopcroftMinimizerTests.textbookABB().serialized()
        func patched(_ offset: Int, _ values: [UInt8]) -> [UInt8] {
            var b = good
            b.replaceSubrange(offset..<(offset + values.count), with: values)
            return SavedContainer.resealed(b)
        }
        func corruptMessage(_ bytes: [UInt8]) -> String? {
            if case .corrupt(let why)? = Self.loadError(bytes) { return why }
            return nil
        }
        #expect(Self.loadError(patched(0, [0x58])) == .notAnAutomaton)
        #expect(Self.loadError(Array("hello".utf8)) == .notAnAutomaton)
        #expect(Self.loadError(patched(8, [1])) == .unsupportedVersion(found: 1, supported: 2))
        #expect(corruptMessage(good + [0])?.contains("trailing") == true)
        var changed = good
        changed[100] ^= 1
        guard case .checksumMismatch? = Self.loadError(changed) else {
            Issue.record("a changed byte: \(String(describing: Self.loadError(changed)))")
            return
        }
        #expect(corruptMessage(patched(24, [7]))?.contains("match timing") == true)
        #expect(corruptMessage(patched(28 + 0x61, [9]))?.contains("class map") == true)
        #expect(corruptMessage(patched(284, [5]))?.contains("class count") == true)
        #expect(corruptMessage(patched(292, [4]))?.contains("stride shift") == true)
        #expect(corruptMessage(patched(288, [0]))?.contains("state count is 0") == true)
        #expect(corruptMessage(patched(296, [6]))?.contains("match state count") == true)
        #expect(corruptMessage(patched(304, [9]))?.contains("start state 0") == true)
        #expect(corruptMessage(patched(336, [1]))?.contains("first pattern offset") == true)
        #expect(corruptMessage(patched(344, [1]))?.contains("pattern count") == true)
        let table = 348
        #expect(corruptMessage(patched(table + 4, [8]))?.contains("dead state's row") == true)
        #expect(corruptMessage(patched(table + 32 + 4, [4]))?.contains("not a multiple") == true)
        #expect(corruptMessage(patched(table + 32 + 4, [48]))?.contains("not a multiple") == true, "48 = 6 × 8 is past the last state")
        #expect(corruptMessage(patched(table + 32 + 4 * 6, [8]))?.contains("past the alphabet") == true)
        // Match state count 0 with the pattern list still present: the sizes disagree.
        #expect(Self.loadError(patched(296, [0])) != nil)
    }

    @Test func hugeDeclaredSizesFailWithoutAllocating() throws {
        let good = try HopcroftMinimizerTests.textbookABB().serialized()
        var b = good
        b.replaceSubrange(288..<292, with: [0xFF, 0xFF, 0xFF, 0xFF])  // 4 billion states
        b.replaceSubrange(296..<300, with: [0xFE, 0xFF, 0xFF, 0xFF])  // and as many match states
        #expect(Self.loadError(SavedContainer.resealed(b)) == .truncated(needed: 336 + 4 * 0xFFFF_FFFF, available: good.count))
        var c = good
        c.replaceSubrange(340..<344, with: [0xFF, 0xFF, 0xFF, 0xFF])  // a 4-billion-entry pattern list
        guard case .truncated? = Self.loadError(SavedContainer.resealed(c)) else {
            Issue.record("expected .truncated, got \(String(describing: Self.loadError(SavedContainer.resealed(c))))")
            return
        }
        var d = good
        d.replaceSubrange(12..<20, with: [0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0xFF, 0x7F])  // an 8-exabyte payload
        guard case .truncated? = Self.loadError(d) else {
            Issue.record("expected .truncated, got \(String(describing: Self.loadError(d)))")
            return
        }
    }

    @Test func randomCorruptionsNeverCrash() throws {
        var rng = SeededGenerator(defaultSeed: 0xC0_22_07)
        let sources = try Self.samples().filter { $0.stateCount > 1 }
        let files = sources.map { $0.serialized() }
        let haystacks: [[UInt8]] = ["", "abb", "xabbabc", "a\nb c\0\"09z", "ccccbbbbaaaa"].map { Array($0.utf8) }
        var loadedCount = 0, rejected = 0
        for round in 0..<10_000 {
            var bytes = files[round % files.count]
            let rewire = Int.random(in: 0..<3, using: &rng) == 0
            for _ in 0..<(rewire ? 0 : Int.random(in: 1...3, using: &rng)) {
                // Half the corruptions land after the class map, where sizes and the table live.
                let position = Bool.random(using: &rng)
                    ? Int.random(in: 0..<bytes.count, using: &rng)
                    : Int.random(in: 284..<bytes.count, using: &rng)
                bytes[position] = Bool.random(using: &rng) ? UInt8.random(in: 0...255, using: &rng) : bytes[position] ^ (1 << UInt8.random(in: 0..<8, using: &rng))
            }
            if rewire {
                // A plausible rewiring: a valid id written over a start or table entry.
                let dfa = sources[round % sources.count]
                let id = UInt32(Int.random(in: 0..<dfa.stateCount, using: &rng) * dfa.stride)
                let tableStart = bytes.count - dfa.stateCount * dfa.stride * 4
                let slot = Bool.random(using: &rng)
                    ? 304 + 4 * Int.random(in: 0..<8, using: &rng)
                    : tableStart + 4 * Int.random(in: 0..<(dfa.stateCount * dfa.stride), using: &rng)
                for j in 0..<4 { bytes[slot + j] = UInt8(truncatingIfNeeded: id >> (8 * UInt32(j))) }
            }
            // Resealed, so the field checks rather than the checksum must answer (a
            // hand-made file), except for the truncated ones.
            bytes = SavedContainer.resealed(bytes)
            if Bool.random(using: &rng), Int.random(in: 0..<10, using: &rng) == 0 {
                bytes.removeLast(Int.random(in: 0..<min(8, bytes.count), using: &rng))
            }
            do {
                let dfa = try DenseDFA(deserializing: bytes)
                loadedCount += 1
                for h in haystacks {
                    _ = Self.searchResults(dfa, h)
                    _ = dfa.isMatch(in: h)
                }
                if round.isMultiple(of: 16) {
                    let small = dfa.minimized()
                    #expect(DFATestHelpers.firstDifference(dfa, small, maxLength: 3) == nil, "seed \(rng.seed), round \(round)")
                    _ = dfa.dot()
                }
            } catch {
                rejected += 1
            }
        }
        #expect(loadedCount + rejected == 10_000, "seed \(rng.seed)")
        #expect(rejected > 0 && loadedCount > 0, "both outcomes should occur; seed \(rng.seed): \(loadedCount) loaded, \(rejected) rejected")
    }
}
