// Unicode simple case folding under `i` in UTF-8 mode, against PCRE2 10.42 with
// PCRE2_UTF | PCRE2_CASELESS: curated examples (é/É, σ/Σ/ς, с/С, no ß → ss, K/U+212A)
// and generated patterns over cased scalars, fixed seed printed (replay: TURNSTILE_SEED).
import Foundation
import PCRE2Oracle
@testable import RegexAutomata
import Testing
import TestSupport

private let caseless = RegexSyntax.Options(caseInsensitive: true)

@Suite("Unicode case folding")
struct UnicodeCaseFoldingTests {
    /// (pattern, haystack, the match ranges PCRE2 and we must both report).
    static let curated: [(String, String, [Range<Int>])] = [
        ("école", "ÉCOLE école", [0..<6, 7..<13]),           // É and é are 2 bytes each
        ("ÉCOLE", "école", [0..<6]),
        ("σοφια", "ΣΟΦΙΑ", [0..<10]),
        ("σ", "Σσς", [0..<2, 2..<4, 4..<6]),                  // final sigma folds too
        ("ς", "Σ", [0..<2]),
        ("страх", "СТРАХ страх", [0..<10, 11..<21]),
        ("strasse", "straße", []),                            // no full folding
        ("ß", "ss SS ẞ", [6..<9]),                            // ß and ẞ (U+1E9E) are an orbit (S)
        ("k", "K\u{212A}k", [0..<1, 1..<4, 4..<5]),           // KELVIN SIGN
        ("s", "\u{17F}", [0..<2]),                            // LONG S
        ("[à-ÿ]+", "ÀÉÎÕÜ", [0..<10]),
        ("[^é]", "É", []),                                    // folded before negated
        ("Ǆ", "ǅǆ", [0..<2, 2..<4]),                          // title case orbit
        ("i", "İı", []),                                      // no Turkish folding (F/T only)
    ]

    @Test("curated examples: the expected ranges, and PCRE2 agrees")
    func curatedExamples() throws {
        for (pattern, haystack, expected) in Self.curated {
            let oracle = try PCRE2Regex(pattern: pattern, options: PCRE2Options(caseless))
            #expect(try oracle.matches(in: haystack) == expected, "PCRE2 on /\(pattern)/i")
            let regex = try RegexCompiler().caseInsensitive(true).compile(pattern)
            #expect(regex.matches(in: Array(haystack.utf8)).map(\.range) == expected, "/\(pattern)/i")
            #expect(disagreement(pattern, caseless, Array(haystack.utf8)) == nil, "/\(pattern)/i")
        }
    }

    @Test("the table covers the Unicode version it names, and orbits are closed cycles")
    func tableShape() {
        #expect(caseFoldingUnicodeVersion == "14.0.0")
        #expect(caseFoldingScalars == caseFoldingScalars.sorted())
        for (i, s) in caseFoldingScalars.enumerated() {
            var n = caseFoldingNext[i], steps = 1
            while n != s && steps < 5 { n = ScalarRangeSet.nextInOrbit(n); steps += 1 }
            #expect(n == s && steps >= 2, "orbit of U+\(String(s, radix: 16))")
        }
    }

    @Test("generated patterns over cased scalars agree with PCRE2 (seed printed)")
    func generated() {
        var rng = SeededGenerator(defaultSeed: 0x5EED_CA5E)
        print("UnicodeCaseFoldingTests.generated seed \(rng.seed) (replay: TURNSTILE_SEED=\(rng.seed))")
        let cased = caseFoldingScalars
        func randomCased() -> UInt32 { cased[Int.random(in: 0..<cased.count, using: &rng)] }
        func orbit(_ s: UInt32) -> [UInt32] {
            var out = [s], n = ScalarRangeSet.nextInOrbit(s)
            while n != s { out.append(n); n = ScalarRangeSet.nextInOrbit(n) }
            return out
        }
        func text(_ s: UInt32) -> String { String(Character(Unicode.Scalar(s)!)) }
        var failures = 0
        for _ in 0..<300 where failures < 3 {
            var pattern = "", pool: [UInt32] = []
            for _ in 0..<Int.random(in: 1...3, using: &rng) {
                let s = randomCased()
                pool += orbit(s)
                switch Int.random(in: 0..<4, using: &rng) {
                case 0:
                    // A class range around a cased scalar (bounds kept in one plane).
                    let hi = min(s + UInt32.random(in: 0...40, using: &rng), 0xD7FF < s ? 0x10FFFF : 0xD7FF)
                    pattern += "[\(text(s))-\(text(hi))]"
                    pool += orbit(hi)
                case 1: pattern += "[^\(text(s))]"
                case 2: pattern += "\(text(s))+"
                default: pattern += text(s)
                }
            }
            var haystack = ""
            for _ in 0..<Int.random(in: 0...12, using: &rng) {
                let s = Int.random(in: 0..<5, using: &rng) == 0 ? randomCased() : pool.randomElement(using: &rng)!
                haystack += text(s)
            }
            if let why = disagreement(pattern, caseless, Array(haystack.utf8)) {
                failures += 1
                recordDisagreement(seed: rng.seed, pattern, caseless, Array(haystack.utf8), why)
            }
        }
    }

    @Test("(?i) ASCII letters without k or s build the same DFA in UTF-8 and bytes mode")
    func asciiPatternsDoNotGrow() throws {
        for pattern in ["hello|world", "[a-j]+x", "(?i)free money", "viagra"] {
            let utf8 = try RegexCompiler().caseInsensitive(true).compile(pattern)
            let bytes = try RegexCompiler().syntax(RegexSyntax.Options(caseInsensitive: true, mode: .bytes)).compile(pattern)
            #expect(utf8.forwardDFA?.stateCount == bytes.forwardDFA?.stateCount, "/\(pattern)/i")
            #expect(utf8.forwardDFA != nil)
        }
    }
}
