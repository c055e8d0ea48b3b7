import AutomatonCore
import LiteralAutomata
import TestSupport
import Testing

@Suite struct ReplacementTests {
    @Test func replaceEveryLeftmostMatch() throws {
        let ac = try AhoCorasick.Builder().asciiCaseInsensitive(true).build(["darn", "heck"])
        #expect(ac.replaceAll(in: "Darn it, heck!", with: ["d***", "h***"]) == "d*** it, h***!")
        #expect(ac.replaceAll(in: Array("heckdarn".utf8)) { Array("<\($0.pattern)>".utf8) } == Array("<1><0>".utf8))
    }

    @Test func maskKeepsLengthAndCharacters() throws {
        let ac = try AhoCorasick.Builder().asciiCaseInsensitive(true).wholeWord(true).build(["free", "win", "café"])
        #expect(ac.masked("WIN a FREE prize", with: "#") == "### a #### prize")
        // "é" is two non-word bytes, so `\b` after "café" needs a word byte after it
        // (PCRE2's ASCII `\b`): as a whole word it does not match before a space.
        #expect(ac.masked("un café free", with: "•") == "un café ••••")
        let anywhere = try AhoCorasick.Builder().build(["café"])
        #expect(anywhere.masked("un café!", with: "•") == "un ••••!")
        #expect(ac.masked(Array("free freedom".utf8)) == Array("**** freedom".utf8))
    }

    @Test func kmpReplace() throws {
        let kmp = try KMP("aa")
        #expect(kmp.replaceAll(in: "aaaaa", with: "b") == "bba")
        #expect(kmp.masked(Array("xaax".utf8)) == Array("x**x".utf8))
    }

    /// Masking agrees with the naive leftmost matches on random inputs.
    @Test func maskAgreesWithNaive() throws {
        var rng = SeededGenerator(defaultSeed: 0x3A5C_0001)
        let seed = rng.seed
        for round in 0..<200 {
            let patterns = (0..<Int.random(in: 1...3, using: &rng)).map { _ in rng.bytes(from: Array("ab ".utf8), maxLength: 3) }
            let haystack = rng.bytes(from: Array("ab ".utf8), maxLength: 20)
            let ac = try AhoCorasick.Builder().matchKind(.leftmostLongest).build(patterns)
            var expected = haystack
            for m in NaiveLiteralMatcher(patterns: patterns, kind: .leftmostLongest).matches(in: haystack) {
                for i in m.range { expected[i] = UInt8(ascii: "*") }
            }
            #expect(ac.masked(haystack) == expected, "seed \(seed) round \(round) patterns \(show(patterns)) haystack \(show(haystack))")
        }
    }
}

@Suite("The masking rule")
struct MaskingRuleTests {
    @Test("one mask per Unicode scalar, as turnstile filter --mask: a combining accent is its own scalar")
    func onePerScalar() throws {
        let ac = try AhoCorasick.Builder().build(["cafe\u{301}"])   // e + combining acute: 2 scalars, 1 Character
        #expect(ac.masked("un cafe\u{301}!", with: "•") == "un •••••!")
        let bytes: [UInt8] = [0xE9, 0x80, 0x41]   // invalid UTF-8: a lone lead byte, a stray continuation
        #expect(bytes.withUnsafeBufferPointer { maskLength(of: $0) } == 2)
        #expect(bytes.withUnsafeBufferPointer { maskLength(of: UnsafeBufferPointer(rebasing: $0[1...])) } == 2,
                "a range starting on a continuation byte still masks its first byte")
    }
}
