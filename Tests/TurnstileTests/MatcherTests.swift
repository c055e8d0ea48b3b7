import Testing
import TestSupport
@testable import Turnstile

@Suite("Matcher: engine choice and agreement with the naive reference")
struct MatcherTests {
    static func literal(_ kind: MatchKind = .leftmostFirst, ci: Bool = false, ww: Bool = false) -> Matcher.Options {
        var o = Matcher.Options()
        o.syntax = .literal
        o.matchKind = kind
        o.caseInsensitive = ci
        o.wholeWord = ww
        return o
    }

    @Test("one literal → KMP, several → Aho-Corasick, regex → regex, none → empty")
    func engineChoice() throws {
        #expect(try Matcher(patterns: ["spam"], options: Self.literal()).representation == .kmp)
        #expect(try Matcher(patterns: ["spam", "ham"], options: Self.literal()).representation == .ahoCorasick)
        #expect(try Matcher(patterns: ["sp(a|e)m"], options: .init()).representation == .regex)
        let empty = try Matcher(patterns: [], options: .init())
        #expect(empty.representation == .empty)
        #expect(empty.matches(in: "anything").isEmpty)
    }

    @Test("Options.limits applies to regexes and literals alike; nil keeps each engine's defaults")
    func limitsApplyToEveryEngine() throws {
        var regex = Matcher.Options()
        #expect(regex.limits == nil)
        // `.{1000}x` in UTF-8 mode needs more NFA states than the regex default allows.
        #expect(throws: TurnstileError.self) { _ = try Matcher(patterns: [".{1000}x"], options: regex) }
        regex.limits = Limits(maxStates: 100_000, maxTableBytes: 4 << 20)
        let long = try Matcher(patterns: [".{1000}x"], options: regex)
        let text = Array(String(repeating: "y", count: 1000).utf8) + Array("x".utf8)
        #expect(long.matches(in: text).count == 1)
        regex.limits = Limits(maxStates: 5, maxTableBytes: 4 << 20)
        #expect(throws: TurnstileError.self) { _ = try Matcher(patterns: ["abc|abd"], options: regex) }

        var words = Self.literal()
        #expect(try Matcher(patterns: ["abc", "abd"], options: words).matches(in: Array("abd".utf8)).count == 1)
        words.limits = Limits(maxStates: 3)
        #expect(throws: TurnstileError.self) { _ = try Matcher(patterns: ["abc", "abd"], options: words) }
        #expect(Matcher.Options.defaultLimits(for: .literal) == Limits())
        #expect(Matcher.Options.defaultLimits(for: .regex).maxStates == 10_000)
    }

    @Test("isMatch and firstMatch agree with matches on every engine")
    func searchVocabulary() throws {
        let matchers = [try Matcher(patterns: ["win"], options: Self.literal(ww: true)),
                        try Matcher(patterns: ["win", "prize"], options: Self.literal(ww: true)),
                        try Matcher(patterns: ["w[aeiou]n", "prize"], options: .init())]
        for m in matchers {
            for text in ["a win", "winner prize", "nothing", ""] {
                #expect(m.isMatch(in: text) == !m.matches(in: text).isEmpty, "\(m.representation) \(text)")
                #expect(m.firstMatch(in: text) == m.matches(in: text).first, "\(m.representation) \(text)")
            }
        }
    }

    @Test("KMP's whole-word and leftmost selection")
    func kmpSelection() throws {
        let m = try Matcher(patterns: ["aa"], options: Self.literal())
        #expect(m.matches(in: "aaaaa").map(\.range) == [0..<2, 2..<4])
        let o = try Matcher(patterns: ["aa"], options: Self.literal(.overlapping))
        #expect(o.matches(in: "aaaa").map(\.range) == [0..<2, 1..<3, 2..<4])
        let w = try Matcher(patterns: ["Win"], options: Self.literal(ci: true, ww: true))
        #expect(w.matches(in: "win winner WIN_ x-win").map(\.range) == [0..<3, 18..<21])
    }

    @Test("literal matches agree with NaiveLiteralMatcher over a seeded sample",
          arguments: [MatchKind.leftmostFirst, .leftmostLongest, .overlapping])
    func agreesWithNaive(kind: MatchKind) throws {
        var rng = SeededGenerator(defaultSeed: 0x5EED_0005)
        let alphabet: [UInt8] = Array("ab A-".utf8)
        for _ in 0..<300 {
            let count = Int.random(in: 1...4, using: &rng)
            let patterns = (0..<count).map { _ in
                (0..<Int.random(in: 1...3, using: &rng)).map { _ in alphabet.randomElement(using: &rng)! }
            }
            let haystack = (0..<Int.random(in: 0...20, using: &rng)).map { _ in alphabet.randomElement(using: &rng)! }
            let ci = Bool.random(using: &rng), ww = Bool.random(using: &rng)
            let matcher = try Matcher(bytePatterns: patterns, options: Self.literal(kind, ci: ci, ww: ww))
            let naiveKind: NaiveLiteralMatcher.Kind =
                kind == .overlapping ? .overlapping : kind == .leftmostFirst ? .leftmostFirst : .leftmostLongest
            let expected = NaiveLiteralMatcher(patterns: patterns, kind: naiveKind, caseInsensitive: ci, wholeWord: ww,
                                               wordRule: .grep).matches(in: haystack)
            let got: [Match] = matcher.matches(in: haystack)
            let sortedGot = kind == .overlapping ? got.sorted { ($0.end, $0.pattern) < ($1.end, $1.pattern) } : got
            let sortedExpected = kind == .overlapping
                ? expected.sorted { ($0.end, $0.pattern) < ($1.end, $1.pattern) } : expected
            #expect(sortedGot == sortedExpected,
                    "seed \(rng.seed) patterns \(patterns) haystack \(haystack) ci \(ci) ww \(ww)")
        }
    }

    @Test("regex: case folding, whole words, bytes mode")
    func regexOptions() throws {
        var o = Matcher.Options()
        o.caseInsensitive = true
        o.wholeWord = true
        let m = try Matcher(patterns: ["win+er"], options: o)
        #expect(m.matches(in: "WINNER winners winer").map(\.range) == [0..<6, 15..<20])
        var b = Matcher.Options()
        b.bytesMode = true
        let anyByte = try Matcher(bytePatterns: [Array("a.b".utf8)], options: b)
        #expect(anyByte.matches(in: [0x61, 0xFF, 0x62]).map(\.range) == [0..<3])
    }

    @Test("a regex syntax error names the pattern and points at the offset")
    func regexError() {
        #expect {
            _ = try Matcher(patterns: ["ok", "a(b"], options: .init())
        } throws: { error in
            let text = (error as? TurnstileError)?.description ?? ""
            return text.contains("pattern 1") && text.contains("unclosed group") && text.contains("    a(b\n     ^")
        }
    }

    @Test("leftmost-longest and overlapping need literal syntax")
    func matchKindNeedsLiterals() {
        var o = Matcher.Options()
        o.matchKind = .overlapping
        #expect(throws: TurnstileError.self) { _ = try Matcher(patterns: ["a"], options: o) }
    }

    @Test("canSearchAcross: literals without the delimiter byte only")
    func searchAcross() throws {
        #expect(try Matcher(patterns: ["ab"], options: Self.literal()).canSearchAcross(delimiter: 0x0A))
        #expect(try !Matcher(patterns: ["a\nb"], options: Self.literal()).canSearchAcross(delimiter: 0x0A))
        // A regex that is an alternation of literals is searched as literals.
        #expect(try Matcher(patterns: ["ab|cd"], options: .init()).canSearchAcross(delimiter: 0x0A))
        #expect(try !Matcher(patterns: ["a\nb|c"], options: .init()).canSearchAcross(delimiter: 0x0A))
        #expect(try !Matcher(patterns: ["(?s)a.b"], options: .init()).canSearchAcross(delimiter: 0x0A))
        #expect(try Matcher(patterns: ["a.b"], options: .init()).canSearchAcross(delimiter: 0x0A))
        // Regexes: no match may hold the delimiter, nor depend on the record's edges.
        #expect(try Matcher(patterns: ["https?://[a-z]+"], options: .init()).canSearchAcross(delimiter: 0x0A))
        #expect(try Matcher(patterns: ["\\bx[0-9]+\\b"], options: .init()).canSearchAcross(delimiter: 0x0A))
        #expect(try !Matcher(patterns: ["^foo"], options: .init()).canSearchAcross(delimiter: 0x0A))
        #expect(try !Matcher(patterns: ["foo\\z"], options: .init()).canSearchAcross(delimiter: 0x0A))
        #expect(try Matcher(patterns: ["(?m)^foo"], options: .init()).canSearchAcross(delimiter: 0x0A))
        #expect(try !Matcher(patterns: ["(?m)^foo"], options: .init()).canSearchAcross(delimiter: 0x00))
        #expect(try !Matcher(patterns: ["a\\sb"], options: .init()).canSearchAcross(delimiter: 0x0A))
        #expect(try !Matcher(patterns: ["a[^x]"], options: .init()).canSearchAcross(delimiter: 0x0A))
        #expect(try !Matcher(patterns: ["x*"], options: .init()).canSearchAcross(delimiter: 0x0A))
    }

    /// Where canSearchAcross holds, one search over a block of records finds each
    /// record's matches, and a search from a record start finds the rest.
    @Test("regex search across records equals record by record")
    func regexSearchAcrossRecords() throws {
        var rng = SeededGenerator(defaultSeed: 20_261_128)
        let patterns = ["https?://[a-z.]+", "(?m)^ab+", "(?m)c$", "\\bab\\b", "a[bc]{2,}", "(?i)ABC|b", "[0-9]+x"]
        for pattern in patterns {
            let m = try Matcher(patterns: [pattern], options: .init())
            #expect(m.canSearchAcross(delimiter: 0x0A), "/\(pattern)/")
            for _ in 0..<50 {
                let records = (0..<Int.random(in: 0...6, using: &rng)).map { _ in
                    (0..<Int.random(in: 0...12, using: &rng)).map { _ in Array("abcAB1x:/. ".utf8).randomElement(using: &rng)! }
                        + (Bool.random(using: &rng) ? Array("http://a.b".utf8) : [])
                }
                var block: [UInt8] = []
                var expected: [Match] = []
                var starts: [Int] = []
                for r in records {
                    starts.append(block.count)
                    expected += m.matches(in: r).map { Match(pattern: $0.pattern, start: $0.start + block.count, end: $0.end + block.count) }
                    block += r + [0x0A]
                }
                #expect(m.matches(in: block) == expected, "seed \(rng.seed): /\(pattern)/ on \(block)")
                for s in starts {
                    var got: [Match] = []
                    block.withUnsafeBufferPointer { b in m.forEachMatch(in: b, from: s) { got.append($0); return true } }
                    #expect(got == expected.filter { $0.start >= s }, "seed \(rng.seed): /\(pattern)/ from \(s)")
                }
            }
        }
    }
}

@Suite("Matcher: literal prefilters never change a result")
struct MatcherPrefilterTests {
    static func options(_ kind: MatchKind, ci: Bool, ww: Bool, prefilter: Bool) -> Matcher.Options {
        var o = MatcherTests.literal(kind, ci: ci, ww: ww)
        o.prefilter = prefilter
        return o
    }

    @Test("one or several literals, with and without prefilters, agree with NaiveLiteralMatcher",
          arguments: [MatchKind.leftmostFirst, .leftmostLongest, .overlapping])
    func prefilterAgreesWithNaive(kind: MatchKind) throws {
        var rng = SeededGenerator(defaultSeed: 0x5EED_0008)
        // Few distinct bytes make candidates dense (the fallback to KMP), long
        // haystacks of mostly one byte make them sparse (the memchr path).
        let alphabets: [[UInt8]] = [Array("ab A-".utf8), Array("aAbB'_ \n".utf8), Array("xyzXYZ\u{00}\u{FF}".utf8)]
        for round in 0..<400 {
            let alphabet = alphabets[round % alphabets.count]
            let count = round % 3 == 0 ? 1 : Int.random(in: 1...5, using: &rng)
            let patterns = (0..<count).map { _ in
                (0..<Int.random(in: 1...6, using: &rng)).map { _ in alphabet.randomElement(using: &rng)! }
            }
            let filler = alphabet.randomElement(using: &rng)!
            let haystack = (0..<Int.random(in: 0...(round % 2 == 0 ? 40 : 3000), using: &rng)).map { _ in
                Int.random(in: 0..<8, using: &rng) == 0 ? alphabet.randomElement(using: &rng)! : filler
            }
            let ci = Bool.random(using: &rng), ww = Bool.random(using: &rng)
            let naiveKind: NaiveLiteralMatcher.Kind =
                kind == .overlapping ? .overlapping : kind == .leftmostFirst ? .leftmostFirst : .leftmostLongest
            let order: (Match, Match) -> Bool = { ($0.end, $0.pattern) < ($1.end, $1.pattern) }
            // Matcher's -w is grep's rule; bytes mode keeps it to ASCII word bytes (the
            // letters beyond ASCII are compared with GNU grep in GrepIdiomTests).
            var expected = NaiveLiteralMatcher(patterns: patterns, kind: naiveKind, caseInsensitive: ci, wholeWord: ww,
                                               wordRule: .grep).matches(in: haystack)
            if kind == .overlapping { expected.sort(by: order) }
            for prefilter in [true, false] {
                var options = Self.options(kind, ci: ci, ww: ww, prefilter: prefilter)
                options.bytesMode = true
                let matcher = try Matcher(bytePatterns: patterns, options: options)
                var got: [Match] = matcher.matches(in: haystack)
                if kind == .overlapping { got.sort(by: order) }
                #expect(got == expected,
                        "seed \(rng.seed) round \(round) prefilter \(prefilter) patterns \(patterns) ci \(ci) ww \(ww) haystack \(haystack.count) bytes")
            }
        }
    }

    @Test("rare-byte prefilter: a rare match deep in a long haystack, and a dense worst case")
    func rareByteEdges() throws {
        for ci in [false, true] {
            let word = Matcher(try: ["Detroit's"], ci: ci)
            var hay = [UInt8](repeating: UInt8(ascii: "e"), count: 100_000)
            hay.replaceSubrange(99_000..<99_009, with: Array((ci ? "dEtRoIt'S" : "Detroit's").utf8))
            #expect(word.matches(in: hay).map(\.range) == [99_000..<99_009])
            // Every byte is a candidate for "bbbbbbba" (b is the rarer byte): KMP takes
            // over and agrees.
            let dense = Matcher(try: ["bbbbbbba"], ci: ci)
            var a = [UInt8](repeating: UInt8(ascii: "b"), count: 50_000)
            a.append(UInt8(ascii: "a"))
            #expect(dense.matches(in: a).map(\.range) == [(50_001 - 8)..<50_001])
        }
    }
}

extension Matcher {
    fileprivate init(try patterns: [String], ci: Bool) {
        var o = MatcherTests.literal(ci: ci)
        o.prefilter = true
        self = try! Matcher(patterns: patterns, options: o)
    }
}
