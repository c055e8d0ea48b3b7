import AutomatonCore
import LiteralAutomata
import PCRE2Oracle
import TestSupport
import Testing

/// Leftmost-first against PCRE2's `(?:w1|w2|…)` / `\b(?:w1|w2|…)\b` with every word
/// escaped: word lists sampled at test time from the shared dictionary and stop-word
/// list, haystacks sliced from the shared corpora. Skips (with a message) when
/// `../shared/corpora/` is absent. PCRE2 runs in bytes mode, where caseless matching
/// folds ASCII only — exactly the literal automata's case-insensitivity.
@Suite struct PCRE2DifferentialTests {
    struct Options: CustomStringConvertible, Sendable {
        var caseInsensitive: Bool
        var wholeWord: Bool
        var description: String { "ci=\(caseInsensitive) ww=\(wholeWord)" }
    }

    static let options: [Options] = [
        .init(caseInsensitive: false, wholeWord: false), .init(caseInsensitive: true, wholeWord: false),
        .init(caseInsensitive: false, wholeWord: true), .init(caseInsensitive: true, wholeWord: true),
    ]

    static func oracle(_ words: [String], _ o: Options) throws -> PCRE2Regex {
        var po = PCRE2Options(encoding: .bytes)
        po.caseless = o.caseInsensitive
        return try PCRE2Regex(pattern: PCRE2Regex.alternation(of: words, wholeWord: o.wholeWord), options: po)
    }

    @Test(.enabled(if: SharedCorpora.isAvailable, "needs ../shared/corpora (see its SOURCES.md)"), arguments: options)
    func sampledWordListsOverCorpora(_ o: Options) throws {
        let dictionary = try #require(SharedCorpora.lines("rebar/dictionary/english/sorted.txt"))
        let stopWords = try #require(SharedCorpora.lines("stopwords/stopwords-en.txt"))
        let sherlock = try #require(SharedCorpora.bytes("rebar/sherlock.txt"))
        let subtitles = try #require(SharedCorpora.bytes("rebar/opensubtitles/en-sampled.txt"))
        var rng = SeededGenerator(defaultSeed: 0x9C8E_0001)
        let seed = rng.seed
        let texts = [sherlock, subtitles]
        for round in 0..<8 {
            // A mix: some stop words (short, overlapping, with apostrophes) and some
            // dictionary words (mixed case, some non-ASCII).
            var words: [String] = []
            let stopCount = Int.random(in: 1...60, using: &rng)
            let dictCount = round % 3 == 0 ? Int.random(in: 200...1000, using: &rng) : Int.random(in: 0...40, using: &rng)
            for _ in 0..<stopCount { words.append(stopWords.randomElement(using: &rng)!) }
            for _ in 0..<dictCount { words.append(dictionary.randomElement(using: &rng)!) }
            words.shuffle(using: &rng)
            let text = texts[round % 2]
            let length = min(text.count, 15_000)
            let offset = Int.random(in: 0...(text.count - length), using: &rng)
            let haystack = Array(text[offset..<(offset + length)])
            let expected = try Self.oracle(words, o).matches(in: haystack)
            for config in LiteralConfiguration.ahoCorasick {
                let ac = try config.build(words.map { Array($0.utf8) }, kind: .leftmostFirst,
                                          caseInsensitive: o.caseInsensitive, wholeWord: o.wholeWord)
                let got = ac.matches(in: haystack)
                let ranges = got.map(\.range)
                if ranges != expected {
                    let i = (0..<min(ranges.count, expected.count)).first { ranges[$0] != expected[$0] } ?? min(ranges.count, expected.count)
                    Issue.record("""
                        seed \(seed) round \(round) \(config) \(o): \(words.count) words (first: \(words.prefix(8))), \
                        text offset \(offset) length \(length): first difference at match #\(i): \
                        got \(got.dropFirst(i).prefix(3)) expected \(expected.dropFirst(i).prefix(3))
                        """)
                    return
                }
                // Every match's bytes are its pattern (modulo ASCII case).
                for m in got.prefix(200) {
                    let word = Array(words[m.pattern].utf8), found = Array(haystack[m.range])
                    let same = o.caseInsensitive
                        ? word.map(Self.fold) == found.map(Self.fold) : word == found
                    #expect(same, "seed \(seed) round \(round) \(config): match \(m) is not pattern \(show(word))")
                }
            }
        }
    }

    static func fold(_ b: UInt8) -> UInt8 { (b >= 0x41 && b <= 0x5A) ? b | 0x20 : b }

    /// Small alphabets with empty words and words that begin or end with non-word
    /// bytes: PCRE2's empty-match and `\b` rules, exactly.
    @Test(arguments: options)
    func randomSmallAlphabetAgainstPCRE2(_ o: Options) throws {
        var rng = SeededGenerator(defaultSeed: 0x9C8E_0002)
        let seed = rng.seed
        let alphabet = Array("aB -".utf8)
        for round in 0..<200 {
            let words = (0..<Int.random(in: 1...4, using: &rng)).map { _ in
                String(decoding: rng.bytes(from: alphabet, maxLength: 3), as: UTF8.self)
            }
            let haystack = rng.bytes(from: Array("abAB -".utf8), maxLength: 20)
            let expected = try Self.oracle(words, o).matches(in: haystack)
            for config in LiteralConfiguration.ahoCorasick {
                let got = try config.build(words.map { Array($0.utf8) }, kind: .leftmostFirst,
                                           caseInsensitive: o.caseInsensitive, wholeWord: o.wholeWord)
                    .matches(in: haystack).map(\.range)
                #expect(got == expected, """
                    seed \(seed) round \(round) \(config) \(o) words \(words) haystack \(show(haystack))
                    """)
                if got != expected { return }
            }
        }
    }

    /// The naive reference itself agrees with PCRE2 (so the other differential tests
    /// check against PCRE2's semantics too).
    @Test func naiveReferenceAgreesWithPCRE2() throws {
        var rng = SeededGenerator(defaultSeed: 0x9C8E_0003)
        let seed = rng.seed
        for round in 0..<300 {
            let o = Self.options[round % 4]
            let words = (0..<Int.random(in: 1...4, using: &rng)).map { _ in
                String(decoding: rng.bytes(from: Array("ab-".utf8), maxLength: 3), as: UTF8.self)
            }
            let haystack = rng.bytes(from: Array("aAb -".utf8), maxLength: 16)
            let expected = try Self.oracle(words, o).matches(in: haystack)
            let naive = NaiveLiteralMatcher(patterns: words, kind: .leftmostFirst,
                                            caseInsensitive: o.caseInsensitive, wholeWord: o.wholeWord)
                .matches(in: haystack).map(\.range)
            #expect(naive == expected, "seed \(seed) round \(round) \(o) words \(words) haystack \(show(haystack))")
        }
    }
}

/// Leftmost-longest is leftmost-first over the words sorted longest first (ties in
/// list order), so PCRE2 checks it too.
@Suite struct PCRE2LeftmostLongestTests {
    @Test(.enabled(if: SharedCorpora.isAvailable, "needs ../shared/corpora (see its SOURCES.md)")) func sampledStopWordsLongestFirst() throws {
        let stopWords = try #require(SharedCorpora.lines("stopwords/stopwords-en.txt"))
        let text = try #require(SharedCorpora.bytes("rebar/opensubtitles/en-sampled.txt"))
        var rng = SeededGenerator(defaultSeed: 0x9C8E_0004)
        let seed = rng.seed
        for round in 0..<6 {
            let words = (0..<Int.random(in: 5...300, using: &rng)).map { _ in stopWords.randomElement(using: &rng)! }
            let sorted = words.enumerated().sorted { ($0.element.utf8.count, -$0.offset) > ($1.element.utf8.count, -$1.offset) }.map(\.element)
            let ci = round % 2 == 1, ww = round % 3 == 2
            var po = PCRE2Options(encoding: .bytes)
            po.caseless = ci
            let oracle = try PCRE2Regex(pattern: PCRE2Regex.alternation(of: sorted, wholeWord: ww), options: po)
            let offset = Int.random(in: 0...(text.count - 20_000), using: &rng)
            let haystack = Array(text[offset..<(offset + 20_000)])
            let expected = try oracle.matches(in: haystack)
            #expect(!expected.isEmpty, "seed \(seed) round \(round): the sample should match")
            for representation in LiteralRepresentation.allCases {
                let got = try AhoCorasick.Builder().matchKind(.leftmostLongest).asciiCaseInsensitive(ci).wholeWord(ww)
                    .representation(representation).build(words).matches(in: haystack).map(\.range)
                #expect(got == expected, "seed \(seed) round \(round) \(representation) ci=\(ci) ww=\(ww) \(words.count) words, offset \(offset)")
            }
        }
    }
}
