// Hand-checked cases for the PCRE2 oracle: the global loop, the fixed options that
// make PCRE2 agree with Turnstile's semantics, both encodings, errors, the literal
// helpers, and JIT on versus off. Every expected range was worked out by hand from
// the haystack's byte offsets (noted beside the less obvious ones).

import PCRE2Oracle
import Testing

private func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

@Suite("PCRE2 oracle")
struct PCRE2RegexTests {
    // MARK: The global loop

    @Test("a* on ab: the empty match at 1 is followed by one at 2")
    func starGlobalLoop() throws {
        let regex = try PCRE2Regex(pattern: "a*")
        #expect(try regex.matches(in: bytes("ab")) == [0..<1, 1..<1, 2..<2])
        #expect(try regex.count(in: bytes("ab")) == 3)
    }

    @Test("|a on a: after the empty match at 0, the anchored non-empty retry finds a")
    func emptyThenNonEmptyAtSamePosition() throws {
        let regex = try PCRE2Regex(pattern: "|a")
        #expect(try regex.matches(in: bytes("a")) == [0..<0, 0..<1, 1..<1])
        #expect(try regex.matches(in: "a") == [0..<0, 0..<1, 1..<1])
    }

    @Test("empty haystack: a* matches once at 0, a never")
    func emptyHaystack() throws {
        #expect(try PCRE2Regex(pattern: "a*").matches(in: [UInt8]()) == [0..<0])
        #expect(try PCRE2Regex(pattern: "a").matches(in: [UInt8]()) == [])
        #expect(try PCRE2Regex(pattern: "").matches(in: "") == [0..<0])
    }

    @Test("firstMatch, isMatch and count agree with matches")
    func searchVocabulary() throws {
        let regex = try PCRE2Regex(pattern: "an")
        let haystack = bytes("banana")  // b0 a1 n2 a3 n4 a5
        #expect(try regex.matches(in: haystack) == [1..<3, 3..<5])
        #expect(try regex.firstMatch(in: haystack) == 1..<3)
        #expect(try regex.firstMatch(in: haystack, from: 2) == 3..<5)
        #expect(try regex.firstMatch(in: haystack, from: 4) == nil)
        #expect(try regex.isMatch(in: haystack))
        #expect(try !regex.isMatch(in: "bnn"))
        #expect(try regex.count(in: "banana") == 2)
        let viaBuffer = try haystack.withUnsafeBufferPointer { buffer throws(PCRE2Error) in
            try regex.count(in: buffer)
        }
        #expect(viaBuffer == 2)
    }

    // MARK: Anchors and word boundaries

    @Test(#"\b is an ASCII word boundary"#)
    func wordBoundary() throws {
        let regex = try PCRE2Regex(pattern: #"\bcat\b"#)
        // c0 a1 t2 _3 c4 o5 n6 c7 a8 t9 _10 c11 a12 t13 _14 _15 c16 a17 t18 .19
        let haystack = "cat concat cat_ cat."
        #expect(try regex.matches(in: haystack) == [0..<3, 16..<19])
        // NEVER_UCP: é is not a word character, so \b sits between é and c.
        #expect(try regex.matches(in: "écat") == [2..<5])
    }

    @Test("^ and $ without multiline: $ only at the very end (DOLLAR_ENDONLY)")
    func anchorsSingleLine() throws {
        #expect(try PCRE2Regex(pattern: "a$").matches(in: "a\n") == [])
        #expect(try PCRE2Regex(pattern: "a$").matches(in: "ba") == [1..<2])
        #expect(try PCRE2Regex(pattern: "^a").matches(in: "a\na\n") == [0..<1])
    }

    @Test("^ and $ with multiline, and ^ after a final newline (ALT_CIRCUMFLEX)")
    func anchorsMultiline() throws {
        let multiline = PCRE2Options(multiline: true)
        #expect(try PCRE2Regex(pattern: "a$", options: multiline).matches(in: "a\n") == [0..<1])
        #expect(try PCRE2Regex(pattern: "^a", options: multiline).matches(in: "a\na\n") == [0..<1, 2..<3])
        // Without PCRE2_ALT_CIRCUMFLEX, ^ would not match at 2 (after the final \n).
        #expect(try PCRE2Regex(pattern: "^", options: multiline).matches(in: "a\n") == [0..<0, 2..<2])
        // Newline is LF only: \r is an ordinary character.
        #expect(try PCRE2Regex(pattern: "a$", options: multiline).matches(in: "a\r\na") == [3..<4])
    }

    // MARK: Flags

    @Test("caseless matches ASCII in either case")
    func caseless() throws {
        let regex = try PCRE2Regex(pattern: "abc", options: PCRE2Options(caseless: true))
        #expect(try regex.matches(in: "xABcabC") == [1..<4, 4..<7])
        #expect(try PCRE2Regex(pattern: "abc").matches(in: "xABcabC") == [])
    }

    @Test(". skips \\n unless dotall")
    func dotall() throws {
        #expect(try PCRE2Regex(pattern: "a.b").matches(in: "a\nb") == [])
        #expect(try PCRE2Regex(pattern: "a.b", options: PCRE2Options(dotall: true)).matches(in: "a\nb") == [0..<3])
    }

    // MARK: Encodings

    @Test(#"bytes mode: \xFF matches byte 0xFF and . matches one byte"#)
    func bytesMode() throws {
        let options = PCRE2Options(encoding: .bytes)
        let regex = try PCRE2Regex(pattern: #"\xFF"#, options: options)
        #expect(try regex.matches(in: [0x61, 0xFF, 0xFE, 0xFF]) == [1..<2, 3..<4])
        // "é" is C3 A9: two characters in bytes mode.
        #expect(try PCRE2Regex(pattern: ".", options: options).matches(in: [0xC3, 0xA9]) == [0..<1, 1..<2])
        // An empty match steps one byte, even inside a UTF-8 sequence.
        #expect(try PCRE2Regex(pattern: "x*", options: options).matches(in: [0xC3, 0xA9]) == [0..<0, 1..<1, 2..<2])
    }

    @Test("utf mode: . consumes a whole scalar and empty matches step by scalar")
    func utfMode() throws {
        // é is 2 bytes (C3 A9), ! is 1.
        #expect(try PCRE2Regex(pattern: ".").matches(in: "é!") == [0..<2, 2..<3])
        // The empty match at 0 steps over both bytes of é, so there is no match at 1.
        #expect(try PCRE2Regex(pattern: "a*").matches(in: "é") == [0..<0, 2..<2])
        // 😀 is 4 bytes.
        #expect(try PCRE2Regex(pattern: "x*").matches(in: "😀") == [0..<0, 4..<4])
    }

    @Test("utf mode: invalid UTF-8 is a typed match error")
    func invalidUTF8() throws {
        let regex = try PCRE2Regex(pattern: "a")
        #expect(throws: PCRE2Error.self) { try regex.matches(in: [0x61, 0xFF]) }
        do {
            _ = try regex.matches(in: [0x61, 0xFF])
            Issue.record("expected a UTF-8 error")
        } catch {
            // PCRE2_ERROR_UTF8_ERR21 = -23.
            #expect(error.kind == .match(code: -23, message: "UTF-8 error: illegal byte (0xfe or 0xff)"))
        }
        // The same bytes are fine in bytes mode.
        let bytesRegex = try PCRE2Regex(pattern: "a", options: PCRE2Options(encoding: .bytes))
        #expect(try bytesRegex.matches(in: [0x61, 0xFF]) == [0..<1])
    }

    @Test("firstMatch from inside a scalar or past the end is a typed match error")
    func badStartOffsets() throws {
        let regex = try PCRE2Regex(pattern: "x*")
        // é is C3 A9: offset 1 is inside it (PCRE2_ERROR_BADUTFOFFSET = -36).
        #expect(throws: PCRE2Error(kind: .match(code: -36, message: "bad offset into UTF string"), pattern: Array("x*".utf8))) {
            try regex.firstMatch(in: "é", from: 1)
        }
        #expect(try regex.firstMatch(in: "é", from: 2) == 2..<2)
        // Past the end (PCRE2_ERROR_BADOFFSET = -33).
        #expect(throws: PCRE2Error(kind: .match(code: -33, message: "bad offset value"), pattern: Array("x*".utf8))) {
            try regex.firstMatch(in: "é", from: 3)
        }
    }

    @Test("raw compile and extra options are passed through")
    func rawOptions() throws {
        // PCRE2_UNGREEDY = 0x40000: a+ becomes lazy, so each a is its own match.
        let lazy = try PCRE2Regex(pattern: "a+", options: PCRE2Options(rawCompileOptions: 0x4_0000))
        #expect(try lazy.matches(in: "aaa") == [0..<1, 1..<2, 2..<3])
        #expect(try PCRE2Regex(pattern: "a+").matches(in: "aaa") == [0..<3])
        // PCRE2_LITERAL = 0x02000000 is rejected: it does not combine with the fixed options.
        #expect(throws: PCRE2Error.self) { try PCRE2Regex(pattern: "a.b", options: PCRE2Options(rawCompileOptions: 0x0200_0000)) }
        // PCRE2_EXTRA_MATCH_WORD = 0x4: as if wrapped in \b(?:...)\b.
        let word = try PCRE2Regex(pattern: "cat", options: PCRE2Options(rawExtraOptions: 0x4))
        #expect(try word.matches(in: "concat cat") == [7..<10])
    }

    // MARK: Errors

    @Test("compile errors carry PCRE2's message and offset")
    func compileErrors() {
        let cases: [(pattern: String, offset: Int, message: String)] = [
            ("a(", 2, "missing closing parenthesis"),
            ("a)", 1, "unmatched closing parenthesis"),
            ("[b-a]", 3, "range out of order in character class"),
            // The fixed options forbid \C and (*UCP).
            (#"\C"#, 2, "using \\C is disabled by the application"),
            ("(*UCP)a", 6, "using UCP is disabled by the application"),
        ]
        for item in cases {
            do {
                _ = try PCRE2Regex(pattern: item.pattern)
                Issue.record("expected /\(item.pattern)/ to fail")
            } catch {
                #expect(error.kind == .compile(message: item.message, offset: item.offset), "\(item.pattern)")
                #expect(error.pattern == Array(item.pattern.utf8))
            }
        }
        #expect(throws: Never.self) { try PCRE2Regex(pattern: "(?<=a)b") }
    }

    @Test("errors describe themselves in one sentence")
    func errorDescription() {
        let error = PCRE2Error(kind: .compile(message: "missing closing parenthesis", offset: 2), pattern: Array("a(".utf8))
        #expect(error.description == "PCRE2 compile error at offset 2 in /a(/: missing closing parenthesis")
    }

    // MARK: Literal helpers

    @Test("escapeLiteral escapes every ASCII non-alphanumeric")
    func escapeLiteral() throws {
        #expect(PCRE2Regex.escapeLiteral("c++ (v2)") == #"c\+\+\ \(v2\)"#)
        #expect(PCRE2Regex.escapeLiteral("a\tb") == #"a\x09b"#)
        #expect(PCRE2Regex.escapeLiteral("héllo") == "héllo")
        let tricky = #"^$.|?*+()[]{}\/-#"#
        let regex = try PCRE2Regex(pattern: PCRE2Regex.escapeLiteral(tricky))
        #expect(try regex.matches(in: "x" + tricky) == [1..<(1 + tricky.utf8.count)])
    }

    @Test("alternation matches words with metacharacters literally")
    func alternationLiteral() throws {
        let pattern = PCRE2Regex.alternation(of: ["a.b", "c++"], wholeWord: false)
        #expect(pattern == #"(?:a\.b|c\+\+)"#)
        // a0 .1 b2 _3 a4 x5 b6 _7 c8 +9 +10 _11 c12 c13
        #expect(try PCRE2Regex(pattern: pattern).matches(in: "a.b axb c++ cc") == [0..<3, 8..<11])
    }

    @Test("alternation keeps leftmost-first order and supports whole words")
    func alternationOrderAndWholeWord() throws {
        let shortFirst = try PCRE2Regex(pattern: PCRE2Regex.alternation(of: ["ab", "abc"], wholeWord: false))
        let longFirst = try PCRE2Regex(pattern: PCRE2Regex.alternation(of: ["abc", "ab"], wholeWord: false))
        #expect(try shortFirst.matches(in: "abc") == [0..<2])
        #expect(try longFirst.matches(in: "abc") == [0..<3])

        let whole = PCRE2Regex.alternation(of: ["cat", "dog"], wholeWord: true)
        #expect(whole == #"\b(?:cat|dog)\b"#)
        // c0 a1 t2 _3 d4 o5 g6 s7 _8 h9 o10 t11 d12 o13 g14 _15 d16 o17 g18
        #expect(try PCRE2Regex(pattern: whole).matches(in: "cat dogs hotdog dog") == [0..<3, 16..<19])
        // No words: a pattern that never matches.
        #expect(try PCRE2Regex(pattern: PCRE2Regex.alternation(of: [], wholeWord: false)).matches(in: "abc") == [])
    }

    // MARK: JIT and sharing

    @Test("JIT on and off give the same matches")
    func jitAgreement() throws {
        #expect(PCRE2Regex.isJITAvailable)
        let patterns = ["a*", "|a", #"\b\w+\b"#, "(?m)^.*$", "[a-c]+?x|b", "(a|ab)(c|bcd)", #"\d{2,}"#, "é+|."]
        let haystacks = ["", "ab", "abcbx ab abcd\nzz 123 4", "ééa\n\nb", "x 12 345 6"]
        for pattern in patterns {
            let jit = try PCRE2Regex(pattern: pattern, options: PCRE2Options(jit: true))
            let interpreted = try PCRE2Regex(pattern: pattern, options: PCRE2Options(jit: false))
            for haystack in haystacks {
                #expect(try jit.matches(in: haystack) == interpreted.matches(in: haystack), "/\(pattern)/ on \(haystack.debugDescription)")
            }
        }
        // One of them checked by hand: \d{2,} on "x 12 345 6" (x0 _1 1 2 2 3 _4 3 5 4 6 5 7 _8 6 9).
        #expect(try PCRE2Regex(pattern: #"\d{2,}"#, options: PCRE2Options(jit: true)).matches(in: "x 12 345 6") == [2..<4, 5..<8])
    }

    @Test("one compiled pattern can be searched from many tasks at once")
    func concurrentSearches() async throws {
        let regex = try PCRE2Regex(pattern: "an")
        let haystack = Array(String(repeating: "banana ", count: 1000).utf8)
        let counts = try await withThrowingTaskGroup(of: Int.self) { group in
            for _ in 0..<8 {
                group.addTask { try regex.count(in: haystack) }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(counts == Array(repeating: 2000, count: 8))
    }
}
