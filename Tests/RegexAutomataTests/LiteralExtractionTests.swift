// Literal extraction (Syntax/LiteralExtraction.swift): exact versus prefix sets,
// case folding, bounds and classes; plus the property every set must have: each
// match of the regex starts with one of its literals (checked against PCRE2-agreeing
// matches on random patterns).
import AutomatonCore
@testable import RegexAutomata
import Testing
import TestSupport

private func prefixes(_ pattern: String, bytes: Bool = false) -> LiteralSet? {
    var options = RegexSyntax.Options()
    if bytes { options.mode = .bytes }
    return LiteralSet.prefixes(of: try! RegexSyntax.parse(pattern, options: options))
}

private func strings(_ set: LiteralSet?) -> [String] {
    (set?.literals ?? []).map { String(decoding: $0, as: UTF8.self) }
}

@Suite("Literal extraction")
struct LiteralExtractionTests {
    @Test func alternationOfLiteralsIsExactInPriorityOrder() {
        let set = prefixes("free|win|winner|cash|prize")
        #expect(strings(set) == ["free", "win", "winner", "cash", "prize"])
        #expect(set?.isExact == true)
        #expect(set?.isASCIICaseInsensitive == false)
    }

    @Test func concatenationIsALeftMajorCrossProduct() {
        let set = prefixes("(?:a|ab)(?:c|bcd)")
        #expect(strings(set) == ["ac", "abcd", "abc", "abbcd"])
        #expect(set?.isExact == true)
    }

    @Test func optionalKeepsExactnessAndOrder() {
        #expect(strings(prefixes("https?")) == ["https", "http"])
        #expect(prefixes("https?")?.isExact == true)
        #expect(strings(prefixes("https??")) == ["http", "https"])
    }

    @Test func aTailThatIsNotLiteralMakesPrefixes() {
        let set = prefixes("https?://[a-z0-9.-]+")
        #expect(strings(set) == ["https://", "http://"])
        #expect(set?.isExact == false)
    }

    @Test func caseInsensitiveIsOneFoldedLiteral() {
        // UTF-8 mode folds s with U+017F LONG S (as PCRE2 with PCRE2_UTF): two literals.
        let set = prefixes("(?i)congratulations")
        #expect(strings(set) == ["congratulations", "congratulationſ"])
        #expect(set?.isExact == true)
        #expect(set?.isASCIICaseInsensitive == true)
        // Small: the case-sensitive expansion is exact and preferred.
        let small = prefixes("(?i)ab")
        #expect(small?.isExact == true)
        #expect(small?.isASCIICaseInsensitive == false)
        #expect(small?.literals.count == 4)
    }

    @Test func mixedCaseFoldedIsAPrefixSetOnly() {
        // `x` is case-sensitive, the rest folded: too many variants for the plain set,
        // and folding `x` would admit `X`.
        let set = prefixes("x(?i)congratulations")
        #expect(set?.isExact == false)
        #expect(set?.isASCIICaseInsensitive == true)
        #expect(strings(set) == ["xcongratulations", "xcongratulationſ"])
    }

    @Test func smallClassesExpandLargeOnesStop() {
        #expect(strings(prefixes("[0-2]x")) == ["0x", "1x", "2x"])
        #expect(prefixes("[0-2]x")?.isExact == true)
        #expect(strings(prefixes("ab[a-z]")) == ["ab"])
        #expect(prefixes("ab[a-z]")?.isExact == false)
        #expect(prefixes("[a-z]+ing") == nil)
        #expect(prefixes(".x") == nil)
    }

    @Test func emptyMatchesGiveNoSet() {
        #expect(prefixes("a*") == nil)
        #expect(prefixes("a|") == nil)
        #expect(prefixes("") == nil)
    }

    @Test func repetitions() {
        #expect(strings(prefixes("a{3}")) == ["aaa"])
        #expect(prefixes("a{3}")?.isExact == true)
        #expect(strings(prefixes("a{2,5}")) == ["aa"])
        #expect(prefixes("a{2,5}")?.isExact == false)
        #expect(strings(prefixes("a+b")) == ["a"])
        #expect(strings(prefixes("a*b")) == ["a", "b"])
        #expect(prefixes("a*b")?.isExact == false)
    }

    @Test func looksAreSkippedButNotExact() {
        let set = prefixes("\\bfoo\\b")
        #expect(strings(set) == ["foo"])
        #expect(set?.isExact == false)
    }

    @Test func boundsCutLiteralsIntoPrefixes() {
        // 3 × 3 × 3 × 3 = 81 > 64: the fourth class is not appended.
        let set = prefixes("[abc][abc][abc][abc]")
        #expect(set?.literals.count == 27)
        #expect(set?.isExact == false)
        let long = String(repeating: "ab", count: 40)
        let cut = prefixes(long)
        #expect(cut?.literals.first?.count == LiteralSet.maxLiteralBytes)
        #expect(cut?.isExact == false)
        let many = (0..<70).map { "w\($0)x" }.joined(separator: "|")
        #expect(prefixes(many) == nil)
    }

    @Test func utf8ScalarsAndDuplicates() {
        #expect(strings(prefixes("é|e")) == ["é", "e"])
        #expect(strings(prefixes("ab|ab|c")) == ["ab", "c"])
    }

    /// Every match (PCRE2-agreeing engine) starts with a literal of the set; when the
    /// set is exact every match *is* one, with ASCII case folded when folded.
    @Test func everyMatchStartsWithALiteral() {
        var gen = RandomRegexGenerator(seed: 20_261_125, mode: .bytes)
        var checked = 0
        for _ in 0..<400 {
            let pattern = gen.pattern()
            var options = RegexSyntax.Options()
            options.mode = .bytes
            options.caseInsensitive = gen.flags().caseInsensitive
            guard let hir = try? RegexSyntax.parse(pattern, options: options),
                  let set = LiteralSet.prefixes(of: hir),
                  let regex = try? RegexCompiler().syntax(options).prefilter(false).compile(pattern)
            else { continue }
            for _ in 0..<5 {
                let haystack = gen.haystack(maxLength: 16)
                for m in regex.matches(in: haystack) {
                    checked += 1
                    let text = Array(haystack[m.start..<m.end])
                    let fold: ([UInt8]) -> [UInt8] = { set.isASCIICaseInsensitive ? $0.map { (($0 | 0x20) >= 0x61 && ($0 | 0x20) <= 0x7A) ? $0 | 0x20 : $0 } : $0 }
                    let ok = set.literals.contains { lit in
                        set.isExact ? fold(text) == lit : fold(Array(haystack[m.start...].prefix(lit.count))) == lit
                    }
                    #expect(ok, "seed \(gen.seed): /\(pattern)/ match \(m.range) \(text) not covered by \(set)")
                    if !ok { return }
                }
            }
        }
        print("literal extraction property: \(checked) matches checked, seed \(gen.seed)")
    }
}
