// The line-candidate strategy (RegexAutomata/Strategy/LineCandidates.swift) on and off:
// which lines of a block hold a match, found by the required-literal prefilter plus the
// DFA on each candidate line, against the plain DFA over the block (prefilters off) and
// against PCRE2 run on each line alone, on random patterns × random line haystacks
// (fixed seed, printed; replay with TURNSTILE_SEED) and on the grep idioms of the speed
// tables over corpus text.
import AutomatonCore
import PCRE2Oracle
import RegexAutomata
import Testing
import TestSupport
@testable import Turnstile

private func lineMatcher(_ patterns: [String], prefilter: Bool, wholeWord: Bool = false, wholeLine: Bool = false,
                         caseInsensitive: Bool = false, literal: Bool = false) throws -> Matcher {
    var options = Matcher.Options()
    options.lineRecords = true
    options.prefilter = prefilter
    options.wholeWord = wholeWord
    options.wholeLine = wholeLine
    options.caseInsensitive = caseInsensitive
    options.syntax = literal ? .literal : .regex
    return try Matcher(patterns: patterns, options: options)
}

/// The indices of the lines of `haystack` that `matcher` selects (one pass over the block).
private func selectedLines(_ matcher: Matcher, _ haystack: [UInt8]) -> [Int] {
    guard matcher.canSearchAcross(delimiter: 0x0A) else { return [] }
    var starts: [Int] = []
    haystack.withUnsafeBufferPointer { h in
        matcher.forEachRecordMatch(in: h, delimiter: 0x0A) { m in starts.append(m.end); return true }
    }
    return starts.map { end in haystack[..<min(end, haystack.count)].filter { $0 == 0x0A }.count }
}

@Suite("Line-candidate strategy")
struct LineCandidatesStrategyTests {
    @Test func theIdiomsUseIt() throws {
        for p in ["^#", "Holmes$", "\\byou\\b", "[A-Z][a-z]+ing", "https?://[a-z0-9.-]+"] {
            #expect(try lineMatcher([p], prefilter: true).lineCandidates != nil, "/\(p)/")
            #expect(try lineMatcher([p], prefilter: false).lineCandidates == nil, "/\(p)/ with prefilters off")
        }
        // A plain word under -w is a literal: KMP's line search with its own `\b` while
        // words are ASCII; with Unicode words, KMP's matches filtered by grep's rule
        // (required-literal lines cost 40 % more there: callgrind, grep -w -c Holmes).
        let ascii = try lineMatcher(["Holmes"], prefilter: true, wholeWord: true)
        #expect(ascii.strategy.name == .singleLiteral && ascii.strategy.wrapper == .wholeWord)
        var options = Matcher.Options()
        options.lineRecords = true
        options.wholeWord = true
        options.unicodeWords = true
        let unicode = try Matcher(patterns: ["Holmes"], options: options)
        #expect(unicode.strategy.description == "whole-word(single-literal (rare-byte memmem))")
        #expect(try lineMatcher(["Yes."], prefilter: true, wholeLine: true).lineCandidates != nil)
        #expect(try lineMatcher(["}"], prefilter: true, wholeLine: true, literal: true).lineCandidates != nil)
        // Nothing required, or only bytes that are everywhere: the DFA alone.
        for p in ["", ".", "[a-z]+", "a*", "e"] {
            #expect(try lineMatcher([p], prefilter: true).lineCandidates == nil, "/\(p)/")
        }
        // `^$` requires no literal, but its lines are the ones after "\n\n".
        #expect(try lineMatcher(["^$"], prefilter: true).lineCandidates?.findsEmptyLines == true)
        #expect(LineCandidates(hirs: [try RegexSyntax.parse("[A-Z][a-z]+ing", options: .init())])?.literals.literals
                == [Array("ing".utf8)])
    }

    @Test func randomPatternsAgreeWithTheDFAAndPCRE2() throws {
        var generator = RandomRegexGenerator(seed: 0x11AE_CA4D)
        let seed = generator.seed
        var used = 0, compared = 0, engineGaps = 0
        for round in 0..<200 {
            let pattern = generator.pattern()
            let caseInsensitive = round % 5 == 0
            guard let on = try? lineMatcher([pattern], prefilter: true, caseInsensitive: caseInsensitive),
                  let off = try? lineMatcher([pattern], prefilter: false, caseInsensitive: caseInsensitive),
                  on.canSearchAcross(delimiter: 0x0A),
                  let oracle = try? PCRE2Regex(pattern: pattern, options: PCRE2Options(caseless: caseInsensitive, multiline: true))
            else { continue }
            if on.lineCandidates != nil { used += 1 }
            for _ in 0..<3 {
                let haystack = generator.haystack(maxLength: 60)
                let got = selectedLines(on, haystack)
                let context = "seed \(seed) round \(round) /\(pattern)/ i=\(caseInsensitive) haystack \(haystack)"
                #expect(got == selectedLines(off, haystack), "\(context)")
                // PCRE2 on each line alone (no line holds a newline, so a match never crosses one).
                // The DFA differs from PCRE2 on a few random patterns whatever the strategy
                // (empty matches inside a UTF-8 sequence, empty iterations of `{3,}`): those
                // are the engine's, counted and printed here; the strategy must equal the DFA.
                var expected: [Int] = []
                let lines = haystack.split(separator: 0x0A, omittingEmptySubsequences: false)
                for (i, line) in lines.enumerated() where i < lines.count - 1 || !line.isEmpty {
                    if let found = try? oracle.matches(in: Array(line)), !found.isEmpty { expected.append(i) }
                }
                compared += 1
                if got != expected {
                    engineGaps += 1
                    print("engine differs from PCRE2 (not the strategy): \(context) PCRE2 lines \(expected), DFA \(got)")
                }
            }
        }
        #expect(engineGaps * 50 <= compared, "seed \(seed): \(engineGaps) of \(compared) haystacks differ from PCRE2")
        #expect(used > 20, "seed \(seed): the strategy ran for only \(used) patterns")
    }

    @Test func requiredLiteralsOccurInEveryMatch() throws {
        var generator = RandomRegexGenerator(seed: 0x4E0_1217)
        let seed = generator.seed
        var checked = 0
        for round in 0..<600 {
            let pattern = generator.pattern()
            guard let hir = try? RegexSyntax.parse(Array(pattern.utf8), options: .init()),
                  let set = LiteralSet.required(of: hir),
                  let oracle = try? PCRE2Regex(pattern: pattern) else { continue }
            func fold(_ b: UInt8) -> UInt8 { set.isASCIICaseInsensitive && b >= 0x41 && b <= 0x5A ? b | 0x20 : b }
            for _ in 0..<3 {
                let haystack = generator.haystack(maxLength: 40)
                for m in (try? oracle.matches(in: haystack)) ?? [] {
                    let text = haystack[m].map(fold)
                    let holds = set.literals.contains { lit in
                        lit.count <= text.count && (0...(text.count - lit.count)).contains { i in
                            text[i..<(i + lit.count)].elementsEqual(lit)
                        }
                    }
                    checked += 1
                    #expect(holds, "seed \(seed) round \(round) /\(pattern)/ literals \(set.literals) match \(text)")
                }
            }
        }
        #expect(checked > 150, "seed \(seed): only \(checked) matches checked")
    }

    @Test(.enabled(if: SharedCorpora.isAvailable, "needs ../shared/corpora (see its SOURCES.md)")) func corpusIdiomsAgreeOnAndOff() throws {
        let text = try #require(SharedCorpora.bytes("rebar/opensubtitles/en-sampled.txt"))
        let haystack = Array(text.prefix(120_000))
        let cases: [(String, Bool, Bool, Bool)] = [
            ("^#", false, false, false), ("you\\?$", false, false, false), ("Holmes", true, false, false),
            ("Yes.", false, true, false), ("\\byou\\b", false, false, false), ("[A-Z][a-z]+ing", false, false, false),
            ("sherlock", false, false, true), ("No.", false, true, false)]
        for (p, w, x, i) in cases {
            let on = try lineMatcher([p], prefilter: true, wholeWord: w, wholeLine: x, caseInsensitive: i)
            let off = try lineMatcher([p], prefilter: false, wholeWord: w, wholeLine: x, caseInsensitive: i)
            let got = selectedLines(on, haystack)
            #expect(got == selectedLines(off, haystack), "/\(p)/ -w \(w) -x \(x) -i \(i)")
            // PCRE2 per line, with grep's -w and -x spelled as PCRE2 sees them.
            let spelled = x ? "^(?:\(p))$" : w ? "(?<!\\w)(?:\(p))(?!\\w)" : p
            let oracle = try PCRE2Regex(pattern: spelled, options: PCRE2Options(caseless: i))
            var expected: [Int] = []
            for (k, line) in haystack.split(separator: 0x0A, omittingEmptySubsequences: false).enumerated() {
                if try !oracle.matches(in: Array(line)).isEmpty { expected.append(k) }
            }
            #expect(got == expected.filter { $0 < haystack.filter { $0 == 0x0A }.count + (haystack.last == 0x0A ? 0 : 1) },
                    "/\(p)/ -w \(w) -x \(x) -i \(i) against PCRE2")
            #expect(!got.isEmpty, "/\(p)/ selects lines of the corpus")
        }
    }
}
