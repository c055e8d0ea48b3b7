// Every named search strategy (Strategy/SearchStrategy+Choice.swift) on and off: for
// each, patterns the chooser serves with it (the test checks the name), the same
// patterns with that strategy disabled (the chooser takes the next that fits), and
// PCRE2 on random haystacks (fixed seed, printed; replay with TURNSTILE_SEED). Match
// strategies are compared match for match, line strategies line for line.
import AutomatonCore
import PCRE2Oracle
import Testing
import TestSupport
@testable import Turnstile

/// One strategy's case: what to build, what PCRE2 runs, and the haystack alphabet.
private struct StrategyCase: CustomStringConvertible {
    var name: SearchStrategy.Name
    var patterns: [String]
    var options: Matcher.Options
    /// The same search as one PCRE2 pattern.
    var oracle: String
    var oracleOptions: PCRE2Options
    /// Haystack pieces (whole scalars, so PCRE2 sees valid UTF-8).
    var alphabet: [String]
    /// Compare which lines hold a match (line strategies) instead of every match.
    var lines = false

    var description: String { "\(name) \(patterns)" }
}

private func options(_ change: (inout Matcher.Options) -> Void) -> Matcher.Options {
    var o = Matcher.Options()
    change(&o)
    return o
}

private let cases: [StrategyCase] = [
    StrategyCase(name: .singleLiteral, patterns: ["Holmes"], options: options { $0.syntax = .literal },
                 oracle: "Holmes", oracleOptions: PCRE2Options(), alphabet: ["Holmes", "Hol", "mes", "H", " ", "\n", "x"]),
    StrategyCase(name: .literalSet, patterns: ["free", "win", "winner"], options: options { $0.syntax = .literal },
                 oracle: "free|win|winner", oracleOptions: PCRE2Options(),
                 alphabet: ["free", "win", "ner", "fr", "w", " ", "\n"]),
    StrategyCase(name: .literalSet, patterns: ["Free", "WIN", "cash"],
                 options: options { $0.syntax = .literal; $0.caseInsensitive = true },
                 oracle: "(?i)free|win|cash", oracleOptions: PCRE2Options(),
                 alphabet: ["free", "FrEe", "win", "Win", "cAsh", "ca", " ", "\n"]),
    // Words beyond ASCII under -i: every case variant in Aho-Corasick (issue 45).
    StrategyCase(name: .foldedLiteralSet, patterns: ["école", "ÉTÉ", "straße"],
                 options: options { $0.syntax = .literal; $0.caseInsensitive = true },
                 oracle: "(?i)école|été|straße", oracleOptions: PCRE2Options(),
                 alphabet: ["école", "ÉCOLE", "Été", "été", "ÉTÉ", "STRAßE", "strasse", "é", "É", " ", "\n"]),
    // A plain regex word under `i`: `k` finds U+212A KELVIN SIGN as PCRE2's does.
    StrategyCase(name: .foldedLiteralSet, patterns: ["kelvin"], options: options { $0.caseInsensitive = true },
                 oracle: "kelvin", oracleOptions: PCRE2Options(caseless: true),
                 alphabet: ["kelvin", "KELVIN", "\u{212A}elvin", "kel", "vin", " ", "\n"]),
    StrategyCase(name: .literalAlternation, patterns: ["free|win|winner|cash"], options: Matcher.Options(),
                 oracle: "free|win|winner|cash", oracleOptions: PCRE2Options(),
                 alphabet: ["free", "win", "ner", "cash", "fr", " ", "\n"]),
    // A ':' after "://" may occur in a match, so "://" is no inner literal: the prefixes lead.
    StrategyCase(name: .prefixPrefilterDFA, patterns: ["https?://[a-z:]+"], options: Matcher.Options(),
                 oracle: "https?://[a-z:]+", oracleOptions: PCRE2Options(),
                 alphabet: ["http", "https", "://", ":", "ab", "x", ".", " ", "\n"]),
    // Issue 53: the rare literal inside ("://", "@") or at the end ("x") is searched first.
    StrategyCase(name: .reverseInner, patterns: ["https?://[a-z0-9.-]+"], options: Matcher.Options(),
                 oracle: "https?://[a-z0-9.-]+", oracleOptions: PCRE2Options(),
                 alphabet: ["http", "https", "://", ":", "/", "ab", "x", ".", "-", " ", "\n"]),
    StrategyCase(name: .reverseInner, patterns: ["\\w+@[a-z]+\\.com\\b"], options: Matcher.Options(),
                 oracle: "\\w+@[a-z]+\\.com\\b", oracleOptions: PCRE2Options(),
                 alphabet: ["ab", "x1", "_", "@", ".com", ".", "com", "é", " ", "\n"]),
    StrategyCase(name: .reverseSuffix, patterns: ["[a-q][^u-z]{3}x"], options: Matcher.Options(),
                 oracle: "[a-q][^u-z]{3}x", oracleOptions: PCRE2Options(),
                 alphabet: ["a", "b", "q", "r", "u", "x", "y", " ", "\n", "é"]),
    // The same on the lazy DFA (the full DFA past a small limit and work budget).
    StrategyCase(name: .reverseSuffix, patterns: ["[a-q][^u-z]{5}x"],
                 options: options { $0.limits = Limits(maxStates: 10_000, maxTableBytes: 1024, maxCacheBytes: 1 << 16) },
                 oracle: "[a-q][^u-z]{5}x", oracleOptions: PCRE2Options(),
                 alphabet: ["a", "b", "q", "r", "u", "x", "y", " ", "\n", "é"]),
    // The start rule: 'i' of "ing" recurs in [a-z]+, but only the capital starts a match.
    StrategyCase(name: .reverseSuffix, patterns: ["[A-Z][a-z]+ing"], options: Matcher.Options(),
                 oracle: "[A-Z][a-z]+ing", oracleOptions: PCRE2Options(),
                 alphabet: ["Sing", "ing", "King", "sing", "in", "A", "b", " ", "\n"]),
    StrategyCase(name: .reverseInner, patterns: ["\\b[A-Z][a-z]+ing\\b"], options: Matcher.Options(),
                 oracle: "\\b[A-Z][a-z]+ing\\b", oracleOptions: PCRE2Options(),
                 alphabet: ["Sing", "ing", "King", "sing", "dom", "A", "b", " ", "\n"]),
    StrategyCase(name: .denseDFA, patterns: ["\\w+\\d"], options: Matcher.Options(),
                 oracle: "\\w+\\d", oracleOptions: PCRE2Options(),
                 alphabet: ["a", "b", "1", "2", "_", " ", "\n", "é"]),
    StrategyCase(name: .everyRecord, patterns: ["x*"], options: options { $0.lineRecords = true },
                 oracle: "x*", oracleOptions: PCRE2Options(multiline: true), alphabet: ["x", "y", "\n"], lines: true),
    StrategyCase(name: .requiredLiteralLines, patterns: ["[A-Z][a-z]+ing"], options: options { $0.lineRecords = true },
                 oracle: "[A-Z][a-z]+ing", oracleOptions: PCRE2Options(multiline: true),
                 alphabet: ["Sing", "ing", "King", "sing", "A", "b", " ", "\n"], lines: true),
    StrategyCase(name: .requiredLiteralLines, patterns: ["^#"], options: options { $0.lineRecords = true },
                 oracle: "^#", oracleOptions: PCRE2Options(multiline: true),
                 alphabet: ["#", "a", " ", "\n"], lines: true),
    // The literal checked at its line's edges in place, no DFA (issue 51, point 4).
    StrategyCase(name: .requiredLiteralLines, patterns: ["Holmes$"], options: options { $0.lineRecords = true },
                 oracle: "Holmes$", oracleOptions: PCRE2Options(multiline: true),
                 alphabet: ["Holmes", "Hol", "mes", "s", " ", "\n"], lines: true),
    StrategyCase(name: .requiredLiteralLines, patterns: ["^ab$"], options: options { $0.lineRecords = true },
                 oracle: "^ab$", oracleOptions: PCRE2Options(multiline: true),
                 alphabet: ["ab", "a", "b", "aab", " ", "\n"], lines: true),
    // `^$`: the empty lines, found as "\n\n" (and a delimiter at the start).
    StrategyCase(name: .requiredLiteralLines, patterns: ["^$"], options: options { $0.lineRecords = true },
                 oracle: "^$", oracleOptions: PCRE2Options(multiline: true),
                 alphabet: ["\n", "\n", "a", " "], lines: true),
    StrategyCase(name: .requiredLiteralLines, patterns: ["^ab"], options: options { $0.lineRecords = true },
                 oracle: "^ab", oracleOptions: PCRE2Options(multiline: true),
                 alphabet: ["ab", "a", "b", " ", "\n"], lines: true),
    StrategyCase(name: .requiredLiteralLines, patterns: ["Yes."],
                 options: options { $0.lineRecords = true; $0.wholeLine = true },
                 oracle: "^(?:Yes.)$", oracleOptions: PCRE2Options(multiline: true),
                 alphabet: ["Yes.", "Yes!", "Yes", "No.", " ", "\n"], lines: true),
]

/// The matches of `m` as ranges (one per line start for line strategies).
private func found(_ m: Matcher, _ haystack: [UInt8], lines: Bool) -> [Int] {
    guard lines else { return m.matches(in: haystack).flatMap { [$0.start, $0.end] } }
    var selected: [Int] = []
    haystack.withUnsafeBufferPointer { h in
        m.forEachRecordMatch(in: h, delimiter: 0x0A) { match in
            selected.append(h[..<min(match.end, h.count)].filter { $0 == 0x0A }.count)
            return true
        }
    }
    return selected
}

/// What PCRE2 finds: every match, or the indices of the lines (searched one by one)
/// that hold one.
private func oracleFound(_ regex: PCRE2Regex, _ haystack: [UInt8], lines: Bool) throws -> [Int] {
    guard lines else { return try regex.matches(in: haystack).flatMap { [$0.lowerBound, $0.upperBound] } }
    if haystack.isEmpty { return [] }  // no input, no lines (as grep)
    var parts = haystack.split(separator: 0x0A, omittingEmptySubsequences: false).map(Array.init)
    if haystack.last == 0x0A { parts.removeLast() }
    return try parts.indices.filter { try regex.isMatch(in: parts[$0]) }
}

@Suite("Search strategies: each chosen by name, on and off against PCRE2")
struct SearchStrategyTests {
    @Test("each case gets its strategy, and another one with it disabled", arguments: cases.indices)
    func chosenByName(index: Int) throws {
        let c = cases[index]
        let on = try Matcher(patterns: c.patterns, options: c.options)
        #expect(on.strategy.name == c.name, "\(c): chose \(on.strategy.description)")
        var disabled = c.options
        disabled.disabledStrategies = [c.name]
        let off = try Matcher(patterns: c.patterns, options: disabled)
        #expect(off.strategy.name != c.name, "\(c) disabled: chose \(off.strategy.description)")
    }

    @Test("a literal between line anchors is decided at its edges, anything more by the DFA")
    func literalLineEdges() throws {
        let lines = options { $0.lineRecords = true }
        func edges(_ pattern: String, _ o: Matcher.Options = lines) throws -> String? {
            try Matcher(patterns: [pattern], options: o).strategy.lineCandidates?.edges.map {
                "\($0.atStart ? "^" : "")\($0.atEnd ? "$" : "")"
            }
        }
        #expect(try edges("^#") == "^")
        #expect(try edges("Holmes$") == "$")
        #expect(try edges("^Yes\\.$") == "^$")
        #expect(try edges("^$") == "^$")
        #expect(try Matcher(patterns: ["^$"], options: lines).strategy.lineCandidates?.findsEmptyLines == true)
        #expect(try edges("^#a*") == nil)
        #expect(try edges("Holmes") == nil)
        #expect(try edges("^Holmes", options { $0.lineRecords = true; $0.caseInsensitive = true }) == nil)
        #expect(try Matcher(patterns: ["Holmes$"], options: lines).strategy.description.contains("at the line's end"))
    }

    @Test("on and off agree with PCRE2 on random haystacks", arguments: cases.indices)
    func agreeWithPCRE2(index: Int) throws {
        let c = cases[index]
        var rng = SeededGenerator(defaultSeed: 20_261_129 &+ UInt64(index))
        let on = try Matcher(patterns: c.patterns, options: c.options)
        var disabled = c.options
        disabled.disabledStrategies = [c.name]
        let off = try Matcher(patterns: c.patterns, options: disabled)
        let oracle = try PCRE2Regex(pattern: c.oracle, options: c.oracleOptions)
        for round in 0..<300 {
            let haystack = Array((0..<Int.random(in: 0...24, using: &rng))
                .map { _ in c.alphabet.randomElement(using: &rng)! }.joined().utf8)
            let expected = try oracleFound(oracle, haystack, lines: c.lines)
            let label = "seed \(rng.seed) round \(round): \(c) on \(String(decoding: haystack, as: UTF8.self).debugDescription)"
            #expect(found(on, haystack, lines: c.lines) == expected, "\(label) [\(on.strategy.description)]")
            #expect(found(off, haystack, lines: c.lines) == expected, "\(label) [\(off.strategy.description)]")
            if found(on, haystack, lines: c.lines) != expected { return }
        }
    }

    @Test("the lazy DFA, when the full DFA outgrows its limits, agrees with PCRE2")
    func lazyDFA() throws {
        var o = Matcher.Options()
        o.limits = Limits(maxStates: 400, maxTableBytes: 4 << 20, maxCacheBytes: 1 << 16)
        o.disabledStrategies = [.reverseSuffix]  // else the match search starts from the "x"
        let m = try Matcher(patterns: ["[a-c][^x-z]{13}x"], options: o)
        #expect(m.strategy.name == .lazyDFA, "chose \(m.strategy.description)")
        let oracle = try PCRE2Regex(pattern: "[a-c][^x-z]{13}x", options: PCRE2Options())
        var rng = SeededGenerator(defaultSeed: 20_261_129)
        for _ in 0..<200 {
            let haystack = Array((0..<Int.random(in: 0...40, using: &rng)).map { _ in Array("abcdxyz ".utf8).randomElement(using: &rng)! })
            #expect(m.matches(in: haystack).map(\.range) == (try oracle.matches(in: haystack)), "seed \(rng.seed)")
        }
    }

    @Test("no patterns: the empty strategy finds nothing")
    func empty() throws {
        let m = try Matcher(patterns: [], options: Matcher.Options())
        #expect(m.strategy.name == .empty)
        #expect(m.matches(in: "anything").isEmpty)
    }

    @Test("whole words and whole lines are wrappers named around the strategy")
    func wrappers() throws {
        let word = try Matcher(patterns: ["win|winner"], options: options { $0.wholeWord = true })
        #expect(word.strategy.wrapper == .wholeWord)
        #expect(word.strategy.description.hasPrefix("whole-word("))
        let oracle = try PCRE2Regex(pattern: "(?<!\\w)(?:win|winner)(?!\\w)", options: PCRE2Options())
        var rng = SeededGenerator(defaultSeed: 20_261_130)
        for _ in 0..<300 {
            let haystack = Array((0..<Int.random(in: 0...12, using: &rng))
                .map { _ in ["win", "ner", "winner", "x", " ", "_"].randomElement(using: &rng)! }.joined().utf8)
            #expect(word.matches(in: haystack).map(\.range) == (try oracle.matches(in: haystack)), "seed \(rng.seed)")
        }
        let line = try Matcher(patterns: ["a|b"], options: options { $0.wholeLine = true })
        #expect(line.strategy.wrapper == .wholeLine)
        #expect(line.isMatch(in: "a") && !line.isMatch(in: "ab"))
    }

    @Test("-F -i with 2,000 dictionary words, one beyond ASCII, is a literal automaton, not a DFA past its limits")
    func largeFoldedWordList() throws {
        var words = (0..<1999).map { i in "w\(String(i, radix: 26))ord" }
        words.append("élan")
        let m = try Matcher(patterns: words, options: options { $0.syntax = .literal; $0.caseInsensitive = true })
        #expect(m.strategy.name == .foldedLiteralSet)
        #expect(m.matches(in: "un ÉLAN, W1ORD").map { [$0.pattern, $0.start, $0.end] } == [[1999, 3, 8], [1, 10, 15]])
    }

    @Test("compile --stats names the strategy")
    func statisticsNameIt() throws {
        let m = try Matcher(patterns: ["free|win"], options: Matcher.Options())
        #expect(m.statistics.strategy.hasPrefix("literal-alternation"))
    }
}
