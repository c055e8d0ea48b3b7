import AutomatonCore
import LiteralAutomata
import TestSupport
import Testing

/// Random patterns over small alphabets, where overlaps are common, against the
/// naive reference — for every match kind, option, engine and representation.
@Suite struct NaiveDifferentialTests {
    struct Options: CustomStringConvertible, Sendable {
        var kind: MatchKind
        var caseInsensitive: Bool
        var wholeWord: Bool
        var description: String { "\(kind) ci=\(caseInsensitive) ww=\(wholeWord)" }
        static let all: [Options] = MatchKind.allCases.flatMap { k in
            [false, true].flatMap { ci in [false, true].map { ww in Options(kind: k, caseInsensitive: ci, wholeWord: ww) } }
        }
    }

    /// Every configuration's matches equal the naive reference's; false (after
    /// recording the difference) at the first that does not.
    static func agreesWithNaive(_ patterns: [[UInt8]], _ haystack: [UInt8], _ options: Options, _ context: String) throws -> Bool {
        let expected = NaiveLiteralMatcher(patterns: patterns, kind: options.kind.naive,
                                           caseInsensitive: options.caseInsensitive, wholeWord: options.wholeWord)
            .matches(in: haystack)
        for config in LiteralConfiguration.all(patternCount: patterns.count) {
            let got = try config.matches(patterns, kind: options.kind, caseInsensitive: options.caseInsensitive,
                                         wholeWord: options.wholeWord, haystack: haystack)
            #expect(got == expected, """
                \(context) \(config) \(options) patterns \(show(patterns)) \
                haystack \(show(haystack)): got \(got), expected \(expected)
                """)
            if got != expected { return false }
        }
        return true
    }

    @Test(arguments: Options.all)
    func randomPatternSets(_ options: Options) throws {
        var rng = SeededGenerator(defaultSeed: 0x5EED_0003)
        let seed = rng.seed
        // Word bytes, case pairs, and non-word bytes so `\b` varies inside patterns too.
        let alphabet: [UInt8] = options.wholeWord ? Array("abA -".utf8) : (options.caseInsensitive ? Array("abAB".utf8) : Array("ab".utf8))
        for round in 0..<150 {
            let count = Int.random(in: 1...5, using: &rng)
            var patterns = (0..<count).map { _ in rng.bytes(from: alphabet, maxLength: 4) }
            if round % 5 != 0 { patterns = patterns.map { $0.isEmpty ? [alphabet[0]] : $0 } }   // empties now and then
            let haystack = rng.bytes(from: alphabet, maxLength: 24)
            if try !Self.agreesWithNaive(patterns, haystack, options, "seed \(seed) round \(round)") { return }
        }
    }

    /// Lists with many duplicates and empty words (as word lists with repeated and blank
    /// lines are): every duplicate is drawn from the words already chosen.
    @Test(arguments: Options.all)
    func duplicateAndEmptyPatterns(_ options: Options) throws {
        var rng = SeededGenerator(defaultSeed: 0x5EED_0028)
        let seed = rng.seed
        let alphabet: [UInt8] = options.wholeWord ? Array("abA -".utf8) : Array("abAB".utf8)
        for round in 0..<100 {
            var patterns: [[UInt8]] = []
            for _ in 0..<Int.random(in: 2...8, using: &rng) {
                if !patterns.isEmpty, Bool.random(using: &rng) {
                    var copy = patterns.randomElement(using: &rng)!
                    if options.caseInsensitive {
                        // Another case of the same word: a duplicate once folded.
                        for i in copy.indices where (0x61...0x7A).contains(copy[i] | 0x20) && Bool.random(using: &rng) {
                            copy[i] ^= 0x20
                        }
                    }
                    patterns.append(copy)
                } else {
                    patterns.append(rng.bytes(from: alphabet, maxLength: 3))
                }
            }
            let haystack = rng.bytes(from: alphabet, maxLength: 20)
            if try !Self.agreesWithNaive(patterns, haystack, options, "seed \(seed) round \(round)") { return }
        }
    }

    /// isMatch and firstMatch agree with the full match list.
    @Test(arguments: Options.all)
    func isMatchAndFirstMatch(_ options: Options) throws {
        var rng = SeededGenerator(defaultSeed: 0x5EED_0004)
        let seed = rng.seed
        let alphabet: [UInt8] = Array("ab -".utf8)
        for round in 0..<100 {
            let patterns = (0..<Int.random(in: 1...3, using: &rng)).map { _ in rng.bytes(from: alphabet, maxLength: 3) }
            let haystack = rng.bytes(from: alphabet, maxLength: 16)
            let expected = NaiveLiteralMatcher(patterns: patterns, kind: options.kind.naive,
                                               caseInsensitive: options.caseInsensitive, wholeWord: options.wholeWord)
                .matches(in: haystack)
            for config in LiteralConfiguration.ahoCorasick {
                let ac = try config.build(patterns, kind: options.kind, caseInsensitive: options.caseInsensitive,
                                          wholeWord: options.wholeWord)
                let context = "seed \(seed) round \(round) \(config) \(options) patterns \(show(patterns)) haystack \(show(haystack))"
                #expect(ac.isMatch(in: haystack) == !expected.isEmpty, "\(context)")
                #expect(ac.firstMatch(in: haystack) == expected.first, "\(context)")
            }
        }
    }

    /// Exhaustive: every haystack up to length 7 over {a, b} for a few tricky sets.
    @Test(arguments: [
        ["a", "ab", "abab", "b"], ["aba", "ba", "b"], ["", "a", "ab"], ["ab", "ab", "a"], ["bab", "ab", "abb", ""],
        // Duplicates and repeated empty words: the automaton holds each once and reports
        // the others with it (DuplicatePatterns), interleaved by id with other words.
        ["", "b", "", "ab", "b", ""], ["b", "ab", "b", "abb", "ab", "b"], ["a", "", "a", "", "ba", "a"],
    ])
    func exhaustiveSmallHaystacks(_ words: [String]) throws {
        let patterns = words.map { Array($0.utf8) }
        var haystacks: [[UInt8]] = [[]]
        var frontier: [[UInt8]] = [[]]
        for _ in 0..<7 {
            frontier = frontier.flatMap { [$0 + [0x61], $0 + [0x62]] }
            haystacks += frontier
        }
        for kind in MatchKind.allCases {
            let expectedOf = NaiveLiteralMatcher(patterns: patterns, kind: kind.naive)
            for config in LiteralConfiguration.ahoCorasick {
                let ac = try config.build(patterns, kind: kind, caseInsensitive: false, wholeWord: false)
                for h in haystacks {
                    let got: [Match] = ac.matches(in: h), expected: [Match] = expectedOf.matches(in: h)
                    #expect(got == expected, "\(config) \(kind) patterns \(words) haystack \(show(h))")
                    if got != expected { return }
                }
            }
        }
    }
}
