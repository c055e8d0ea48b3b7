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
            let expected = NaiveLiteralMatcher(patterns: patterns, kind: naiveKind, caseInsensitive: ci, wholeWord: ww)
                .matches(in: haystack)
            let got = matcher.matches(in: haystack)
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
        #expect(try !Matcher(patterns: ["ab"], options: .init()).canSearchAcross(delimiter: 0x0A))
    }
}
