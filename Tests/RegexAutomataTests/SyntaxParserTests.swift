// The parser's output (Hir) for representative patterns, every error path with its
// kind and byte offset, and the caret rendering of errors.
import RegexAutomata
import Testing

private typealias Options = RegexSyntax.Options
private let bytesMode = Options(mode: .bytes)

private func lit(_ text: String) -> Hir { .literal(Array(text.utf8)) }
private func byte(_ c: Character) -> ClosedRange<UInt8> { c.asciiValue!...c.asciiValue! }
private func folded(_ c: Character) -> Hir {
    let lower = Character(c.lowercased()), upper = Character(c.uppercased())
    return .byteClass([byte(upper), byte(lower)])
}

/// The error `pattern` raises, or nil when it parses.
private func parseError(_ pattern: String, _ options: Options = Options()) -> RegexSyntaxError? {
    do {
        _ = try RegexSyntax.parse(pattern, options: options)
        return nil
    } catch {
        return error
    }
}

@Suite("Regex parser: Hir output")
struct SyntaxParserHirTests {
    struct HirCase: Sendable, CustomStringConvertible {
        var pattern: String
        var options: RegexSyntax.Options = RegexSyntax.Options()
        var hir: Hir
        var description: String { "\(pattern) \(options.mode)" }
    }

    static let allScalarsButNewline: [ClosedRange<UInt32>] = [0...0x09, 0x0B...0xD7FF, 0xE000...0x10FFFF]

    static let hirCases: [HirCase] = [
        HirCase(pattern: "", hir: .empty),
        HirCase(pattern: "abc", hir: lit("abc")),
        HirCase(pattern: "a|b", hir: .alternation([lit("a"), lit("b")])),
        HirCase(pattern: "a|", hir: .alternation([lit("a"), .empty])),
        HirCase(pattern: "|", hir: .alternation([.empty, .empty])),
        HirCase(pattern: "ab*", hir: .concat([lit("a"), .repetition(lit("b"), min: 0, max: nil, greedy: true)])),
        HirCase(pattern: "a+?", hir: .repetition(lit("a"), min: 1, max: nil, greedy: false)),
        HirCase(pattern: "a??", hir: .repetition(lit("a"), min: 0, max: 1, greedy: false)),
        HirCase(pattern: "(?:ab)*?", hir: .repetition(lit("ab"), min: 0, max: nil, greedy: false)),
        HirCase(pattern: "(ab){2,5}", hir: .repetition(lit("ab"), min: 2, max: 5, greedy: true)),
        HirCase(pattern: "a{3}", hir: .repetition(lit("a"), min: 3, max: 3, greedy: true)),
        HirCase(pattern: "a{3,}?", hir: .repetition(lit("a"), min: 3, max: nil, greedy: false)),
        HirCase(pattern: "a{0}", hir: .repetition(lit("a"), min: 0, max: 0, greedy: true)),
        HirCase(pattern: "a{1000}", hir: .repetition(lit("a"), min: 1000, max: 1000, greedy: true)),
        HirCase(pattern: "a{", hir: lit("a{")),
        HirCase(pattern: "a{x}", hir: lit("a{x}")),
        HirCase(pattern: "a{1,2", hir: lit("a{1,2")),
        HirCase(pattern: "{*", hir: .repetition(lit("{"), min: 0, max: nil, greedy: true)),
        HirCase(pattern: "()", hir: .empty),
        HirCase(pattern: "(?:)*", hir: .repetition(.empty, min: 0, max: nil, greedy: true)),
        HirCase(pattern: "a()b", hir: lit("ab")),
        HirCase(pattern: "\\.\\*\\\\\\-\\ ", hir: lit(".*\\- ")),
        HirCase(pattern: "\\t\\n\\r\\f", hir: .literal([9, 10, 13, 12])),
        HirCase(pattern: "\\x41\\x4\\x{42}\\x{000043}", hir: .literal([0x41, 0x04, 0x42, 0x43])),
        HirCase(pattern: "\\xff", hir: .literal([0xC3, 0xBF])),
        HirCase(pattern: "\\xff", options: bytesMode, hir: .literal([0xFF])),
        HirCase(pattern: "\\x{1F600}", hir: lit("😀")),
        HirCase(pattern: "é", hir: lit("é")),
        HirCase(pattern: "é+", hir: .repetition(lit("é"), min: 1, max: nil, greedy: true)),
        HirCase(
            pattern: "é+", options: bytesMode,
            hir: .concat([.literal([0xC3]), .repetition(.literal([0xA9]), min: 1, max: nil, greedy: true)])),
        HirCase(pattern: ".", hir: .scalarClass(allScalarsButNewline)),
        HirCase(pattern: "(?s).", hir: .scalarClass([0...0xD7FF, 0xE000...0x10FFFF])),
        HirCase(pattern: ".", options: bytesMode, hir: .byteClass([0...0x09, 0x0B...0xFF])),
        HirCase(pattern: ".", options: Options(dotMatchesNewline: true, mode: .bytes), hir: .byteClass([0...0xFF])),
        HirCase(pattern: "^$", hir: .concat([.look(.textStart), .look(.textEnd)])),
        HirCase(pattern: "^$", options: Options(multiLine: true), hir: .concat([.look(.lineStart), .look(.lineEnd)])),
        HirCase(pattern: "(?m)^(?-m)^", hir: .concat([.look(.lineStart), .look(.textStart)])),
        HirCase(
            pattern: "\\A\\z\\b\\B",
            hir: .concat([.look(.textStart), .look(.textEnd), .look(.wordBoundary), .look(.notWordBoundary)])),
        HirCase(pattern: "[a-c]", hir: .byteClass([0x61...0x63])),
        HirCase(pattern: "[cba]", hir: .byteClass([0x61...0x63])),
        HirCase(pattern: "[]a]", hir: .byteClass([byte("]"), byte("a")])),
        HirCase(pattern: "[a-]", hir: .byteClass([byte("-"), byte("a")])),
        HirCase(pattern: "[\\b]", hir: .byteClass([8...8])),
        HirCase(pattern: "[%--]", hir: .byteClass([0x25...0x2D])),
        HirCase(pattern: "[^a]", hir: .scalarClass([0...0x60, 0x62...0xD7FF, 0xE000...0x10FFFF])),
        HirCase(pattern: "[^a]", options: bytesMode, hir: .byteClass([0...0x60, 0x62...0xFF])),
        HirCase(pattern: "[é]", hir: .scalarClass([0xE9...0xE9])),
        HirCase(pattern: "[é]", options: bytesMode, hir: .byteClass([0xA9...0xA9, 0xC3...0xC3])),
        HirCase(pattern: "[\\x80-\\xff]", options: bytesMode, hir: .byteClass([0x80...0xFF])),
        HirCase(pattern: "\\d", hir: .byteClass([0x30...0x39])),
        HirCase(pattern: "\\w", hir: .byteClass([0x30...0x39, 0x41...0x5A, 0x5F...0x5F, 0x61...0x7A])),
        HirCase(pattern: "\\s", hir: .byteClass([0x09...0x0D, 0x20...0x20])),
        HirCase(pattern: "\\D", hir: .scalarClass([0...0x2F, 0x3A...0xD7FF, 0xE000...0x10FFFF])),
        HirCase(pattern: "\\S", options: bytesMode, hir: .byteClass([0...0x08, 0x0E...0x1F, 0x21...0xFF])),
        HirCase(pattern: "[\\d\\s]", hir: .byteClass([0x09...0x0D, 0x20...0x20, 0x30...0x39])),
        HirCase(pattern: "[[:xdigit:]]", hir: .byteClass([0x30...0x39, 0x41...0x46, 0x61...0x66])),
        HirCase(pattern: "[[:^ascii:]]", options: bytesMode, hir: .byteClass([0x80...0xFF])),
        HirCase(pattern: "[[:^ascii:]]", hir: .scalarClass([0x80...0xD7FF, 0xE000...0x10FFFF])),
        HirCase(pattern: "[[:alpha:][:digit:]_]", hir: .byteClass([0x30...0x39, 0x41...0x5A, 0x5F...0x5F, 0x61...0x7A])),
        // PCRE2 10.42 drops scalars above U+00FF from this class (a bug); we keep plain set union.
        HirCase(pattern: "[\\W[:ascii:]]", hir: .scalarClass([0...0xD7FF, 0xE000...0x10FFFF])),
        HirCase(pattern: "[^\\x00-\\x{10FFFF}]", hir: .byteClass([])),
        HirCase(pattern: "[^\\x00-\\xff]", options: bytesMode, hir: .byteClass([])),
        HirCase(pattern: "[:a]", hir: .byteClass([byte(":"), byte("a")])),
        // Case folding: ASCII only, also in classes, before negation; upper/lower become alpha.
        HirCase(pattern: "(?i)ab", hir: .concat([folded("a"), folded("b")])),
        HirCase(pattern: "ab", options: Options(caseInsensitive: true), hir: .concat([folded("a"), folded("b")])),
        // UTF-8 mode: Unicode simple case folding (é with É; k with U+212A, s with U+017F).
        HirCase(pattern: "(?i)1é", hir: .concat([lit("1"), .scalarClass([0xC9...0xC9, 0xE9...0xE9])])),
        HirCase(pattern: "(?i)[a-c]", hir: .byteClass([0x41...0x43, 0x61...0x63])),
        HirCase(pattern: "(?i)[^a]", options: bytesMode, hir: .byteClass([0...0x40, 0x42...0x60, 0x62...0xFF])),
        // POSIX classes are not folded (PCRE2 10.42: `(?i)[[:upper:]]` does not match U+212A or ſ).
        HirCase(pattern: "(?i)[[:upper:]]", hir: .byteClass([0x41...0x5A, 0x61...0x7A])),
        HirCase(pattern: "(?i)\\x41", hir: folded("a")),
        HirCase(pattern: "(?i:a)a", hir: .concat([folded("a"), lit("a")])),
        HirCase(pattern: "(a(?i)b|c)d", hir: .concat([.alternation([.concat([lit("a"), folded("b")]), folded("c")]), lit("d")])),
        HirCase(pattern: "(?i)a(?-i)a", hir: .concat([folded("a"), lit("a")])),
        HirCase(pattern: "(?is-i)a.", options: bytesMode, hir: .concat([lit("a"), .byteClass([0...0xFF])])),
    ]

    @Test(arguments: hirCases)
    func parsesTo(_ c: HirCase) throws {
        #expect(try RegexSyntax.parse(c.pattern, options: c.options) == c.hir)
    }

    @Test func bytePatternsInBytesMode() throws {
        #expect(try RegexSyntax.parse([0xFF, 0x2A], options: bytesMode) == .repetition(.literal([0xFF]), min: 0, max: nil, greedy: true))
        #expect(try RegexSyntax.parse([0x5B, 0x80, 0x2D, 0xFF, 0x5D], options: bytesMode) == .byteClass([0x80...0xFF]))
    }

    @Test func nestingUpToTheLimitIsFine() throws {
        let depth = RegexSyntax.maxNesting
        let pattern = String(repeating: "(", count: depth) + "a" + String(repeating: ")", count: depth)
        #expect(try RegexSyntax.parse(pattern) == lit("a"))
    }
}

@Suite("Regex parser: errors")
struct SyntaxParserErrorTests {
    struct ErrorCase: Sendable, CustomStringConvertible {
        var pattern: String
        var kind: RegexSyntaxError.Kind
        var offset: Int
        var options: RegexSyntax.Options = RegexSyntax.Options()
        var description: String { "\(pattern) → \(kind) at \(offset)" }
    }

    static let errorCases: [ErrorCase] = [
        // Unbalanced groups.
        ErrorCase(pattern: "(", kind: .unclosedGroup, offset: 0),
        ErrorCase(pattern: "a(b", kind: .unclosedGroup, offset: 1),
        ErrorCase(pattern: "((a)", kind: .unclosedGroup, offset: 0),
        ErrorCase(pattern: "(?:a", kind: .unclosedGroup, offset: 0),
        ErrorCase(pattern: "(?i:a", kind: .unclosedGroup, offset: 0),
        ErrorCase(pattern: "(?i", kind: .unclosedGroup, offset: 0),
        ErrorCase(pattern: "a(?", kind: .unclosedGroup, offset: 1),
        ErrorCase(pattern: ")", kind: .unmatchedCloseParen, offset: 0),
        ErrorCase(pattern: "a)", kind: .unmatchedCloseParen, offset: 1),
        ErrorCase(pattern: "(a))", kind: .unmatchedCloseParen, offset: 3),
        // Classes.
        ErrorCase(pattern: "[]", kind: .unclosedClass, offset: 0),
        ErrorCase(pattern: "[^]", kind: .unclosedClass, offset: 0),
        ErrorCase(pattern: "x[a", kind: .unclosedClass, offset: 1),
        ErrorCase(pattern: "[a-", kind: .unclosedClass, offset: 0),
        ErrorCase(pattern: "[\\]", kind: .unclosedClass, offset: 0),
        ErrorCase(pattern: "[[:alpha:]", kind: .unclosedClass, offset: 0),
        ErrorCase(pattern: "[z-a]", kind: .invalidClassRange, offset: 1),
        ErrorCase(pattern: "[ab-a]", kind: .invalidClassRange, offset: 2),
        ErrorCase(pattern: "[a-\\x{41}]", kind: .invalidClassRange, offset: 1),
        ErrorCase(pattern: "[a-\\d]", kind: .classInRange, offset: 3),
        ErrorCase(pattern: "[\\d-z]", kind: .classInRange, offset: 1),
        ErrorCase(pattern: "[[:alpha:]-z]", kind: .classInRange, offset: 1),
        ErrorCase(pattern: "[a-[:digit:]]", kind: .classInRange, offset: 3),
        ErrorCase(pattern: "[[:foo:]]", kind: .unknownPOSIXClass, offset: 1),
        ErrorCase(pattern: "[[:ALPHA:]]", kind: .unknownPOSIXClass, offset: 1),
        ErrorCase(pattern: "[[:<:]]", kind: .unknownPOSIXClass, offset: 1),
        ErrorCase(pattern: "[:alpha:]", kind: .posixClassOutsideClass, offset: 0),
        ErrorCase(pattern: "a[:^digit:]", kind: .posixClassOutsideClass, offset: 1),
        ErrorCase(pattern: "[[.a.]]", kind: .posixCollatingElement, offset: 1),
        ErrorCase(pattern: "[[=a=]]", kind: .posixCollatingElement, offset: 1),
        ErrorCase(pattern: "[\\B]", kind: .invalidEscapeInClass, offset: 1),
        ErrorCase(pattern: "[\\A]", kind: .invalidEscapeInClass, offset: 1),
        ErrorCase(pattern: "[a\\z]", kind: .invalidEscapeInClass, offset: 2),
        // Quantifiers.
        ErrorCase(pattern: "*a", kind: .repetitionMissingOperand, offset: 0),
        ErrorCase(pattern: "+", kind: .repetitionMissingOperand, offset: 0),
        ErrorCase(pattern: "a|?", kind: .repetitionMissingOperand, offset: 2),
        ErrorCase(pattern: "(*)", kind: .repetitionMissingOperand, offset: 1),
        ErrorCase(pattern: "{2}", kind: .repetitionMissingOperand, offset: 0),
        ErrorCase(pattern: "(?i)*", kind: .repetitionMissingOperand, offset: 4),
        ErrorCase(pattern: "a(?i)?", kind: .repetitionMissingOperand, offset: 5),
        ErrorCase(pattern: "a**", kind: .repetitionOfRepetition, offset: 2),
        ErrorCase(pattern: "a*?*", kind: .repetitionOfRepetition, offset: 3),
        ErrorCase(pattern: "a+??", kind: .repetitionOfRepetition, offset: 3),
        ErrorCase(pattern: "a{2}{3}", kind: .repetitionOfRepetition, offset: 4),
        ErrorCase(pattern: "^*", kind: .repetitionOfAssertion, offset: 1),
        ErrorCase(pattern: "$?", kind: .repetitionOfAssertion, offset: 1),
        ErrorCase(pattern: "\\b+", kind: .repetitionOfAssertion, offset: 2),
        ErrorCase(pattern: "a\\z{2}", kind: .repetitionOfAssertion, offset: 3),
        ErrorCase(pattern: "a{1001}", kind: .repetitionBoundTooLarge, offset: 2),
        ErrorCase(pattern: "a{1,1001}", kind: .repetitionBoundTooLarge, offset: 4),
        ErrorCase(pattern: "a{99999999999999999999}", kind: .repetitionBoundTooLarge, offset: 2),
        ErrorCase(pattern: "a{3,2}", kind: .repetitionBoundsOutOfOrder, offset: 1),
        ErrorCase(pattern: "a{,3}", kind: .ambiguousBrace, offset: 1),
        ErrorCase(pattern: "a{ 2 }", kind: .ambiguousBrace, offset: 1),
        ErrorCase(pattern: "a{2, 3}", kind: .ambiguousBrace, offset: 1),
        // Escapes.
        ErrorCase(pattern: "a\\", kind: .trailingBackslash, offset: 1),
        ErrorCase(pattern: "[a\\", kind: .trailingBackslash, offset: 2),
        ErrorCase(pattern: "\\q", kind: .unknownEscape, offset: 0),
        ErrorCase(pattern: "a\\y", kind: .unknownEscape, offset: 1),
        ErrorCase(pattern: "[\\i]", kind: .unknownEscape, offset: 1),
        ErrorCase(pattern: "a\\c", kind: .invalidControlEscape, offset: 1),
        ErrorCase(pattern: "\\c\u{7}", kind: .invalidControlEscape, offset: 0),
        ErrorCase(pattern: "x\\o{9}", kind: .invalidOctalEscape, offset: 1),
        ErrorCase(pattern: "[\\N]", kind: .invalidEscapeInClass, offset: 1),
        ErrorCase(pattern: "\\R", kind: .unsupportedEscape, offset: 0),
        ErrorCase(pattern: "\\X", kind: .unsupportedEscape, offset: 0),
        ErrorCase(pattern: "\\p{Foo}", kind: .unknownProperty, offset: 0),
        ErrorCase(pattern: "a\\Z", kind: .unsupportedEscape, offset: 1),
        ErrorCase(pattern: "\\G", kind: .unsupportedEscape, offset: 0),
        ErrorCase(pattern: "\\u0041", kind: .unsupportedEscape, offset: 0),
        ErrorCase(pattern: "[\\R]", kind: .unsupportedEscape, offset: 1),
        ErrorCase(pattern: "\\x", kind: .invalidHexEscape, offset: 0),
        ErrorCase(pattern: "\\xg", kind: .invalidHexEscape, offset: 0),
        ErrorCase(pattern: "\\x{", kind: .invalidHexEscape, offset: 0),
        ErrorCase(pattern: "\\x{}", kind: .invalidHexEscape, offset: 0),
        ErrorCase(pattern: "a\\x{41", kind: .invalidHexEscape, offset: 1),
        ErrorCase(pattern: "\\x{4g}", kind: .invalidHexEscape, offset: 0),
        ErrorCase(pattern: "\\x{110000}", kind: .codePointTooLarge, offset: 0),
        ErrorCase(pattern: "\\x{FFFFFFFFFFFF}", kind: .codePointTooLarge, offset: 0),
        ErrorCase(pattern: "\\x{100}", kind: .codePointTooLarge, offset: 0, options: bytesMode),
        ErrorCase(pattern: "[a\\x{100}]", kind: .codePointTooLarge, offset: 2, options: bytesMode),
        ErrorCase(pattern: "\\x{d800}", kind: .surrogateCodePoint, offset: 0),
        ErrorCase(pattern: "a\\x{DFFF}", kind: .surrogateCodePoint, offset: 1),
        // Flags and group syntax.
        ErrorCase(pattern: "(?x)", kind: .unknownFlag, offset: 2),
        ErrorCase(pattern: "(?z)", kind: .unknownFlag, offset: 2),
        ErrorCase(pattern: "(?U)a", kind: .unknownFlag, offset: 2),
        ErrorCase(pattern: "(?in:a)", kind: .unknownFlag, offset: 3),
        ErrorCase(pattern: "(?i-)", kind: .unknownFlag, offset: 3),
        ErrorCase(pattern: "(?-)", kind: .unknownFlag, offset: 2),
        ErrorCase(pattern: "(?--i)", kind: .unknownFlag, offset: 3),
        ErrorCase(pattern: "(?)", kind: .emptyFlagGroup, offset: 0),
        ErrorCase(pattern: "(?<1n>a)", kind: .invalidGroupName, offset: 0),
        ErrorCase(pattern: "(?P<n a)", kind: .invalidGroupName, offset: 0),
        ErrorCase(pattern: "(?'n>a)", kind: .invalidGroupName, offset: 0),
        ErrorCase(pattern: "(?<n>a)(?<n>b)", kind: .duplicateGroupName, offset: 7),
        ErrorCase(pattern: "a(?#note", kind: .unclosedGroup, offset: 1),
        ErrorCase(pattern: "(?C1)", kind: .unsupportedGroup, offset: 0),
        ErrorCase(pattern: "(?^i)", kind: .unsupportedGroup, offset: 0),
        // Non-regular PCRE constructs.
        ErrorCase(pattern: "(a)\\1", kind: .notRegular(.backreference), offset: 3),
        ErrorCase(pattern: "\\9", kind: .notRegular(.backreference), offset: 0),
        ErrorCase(pattern: "(a)(b)(c)(d)(e)(f)(g)(h)(i)(j)\\10", kind: .notRegular(.backreference), offset: 30),
        ErrorCase(pattern: "\\81", kind: .notRegular(.backreference), offset: 0),
        ErrorCase(pattern: "\\g1", kind: .notRegular(.backreference), offset: 0),
        ErrorCase(pattern: "\\g{-1}", kind: .notRegular(.backreference), offset: 0),
        ErrorCase(pattern: "\\k<n>", kind: .notRegular(.backreference), offset: 0),
        ErrorCase(pattern: "(?P=n)", kind: .notRegular(.backreference), offset: 0),
        ErrorCase(pattern: "a(?=b)", kind: .notRegular(.lookahead), offset: 1),
        ErrorCase(pattern: "(?!b)", kind: .notRegular(.lookahead), offset: 0),
        ErrorCase(pattern: "(?*b)", kind: .notRegular(.lookahead), offset: 0),
        ErrorCase(pattern: "(?<=a)", kind: .notRegular(.lookbehind), offset: 0),
        ErrorCase(pattern: "(?<!a)", kind: .notRegular(.lookbehind), offset: 0),
        ErrorCase(pattern: "(?>a)", kind: .notRegular(.atomicGroup), offset: 0),
        ErrorCase(pattern: "a*+", kind: .notRegular(.possessiveQuantifier), offset: 2),
        ErrorCase(pattern: "a++", kind: .notRegular(.possessiveQuantifier), offset: 2),
        ErrorCase(pattern: "a?+", kind: .notRegular(.possessiveQuantifier), offset: 2),
        ErrorCase(pattern: "a{2}+", kind: .notRegular(.possessiveQuantifier), offset: 4),
        ErrorCase(pattern: "(?R)", kind: .notRegular(.recursion), offset: 0),
        ErrorCase(pattern: "(a)(?1)", kind: .notRegular(.recursion), offset: 3),
        ErrorCase(pattern: "(?-1)", kind: .notRegular(.recursion), offset: 0),
        ErrorCase(pattern: "(?+1)", kind: .notRegular(.recursion), offset: 0),
        ErrorCase(pattern: "(?&n)", kind: .notRegular(.recursion), offset: 0),
        ErrorCase(pattern: "(?P>n)", kind: .notRegular(.recursion), offset: 0),
        ErrorCase(pattern: "a\\K", kind: .notRegular(.resetMatchStart), offset: 1),
        ErrorCase(pattern: "(*ACCEPT)", kind: .notRegular(.verb), offset: 0),
        ErrorCase(pattern: "a(*SKIP)b", kind: .notRegular(.verb), offset: 1),
        ErrorCase(pattern: "(*CR)a", kind: .notRegular(.verb), offset: 0),
        ErrorCase(pattern: "(*pla:a)", kind: .notRegular(.verb), offset: 0),
        ErrorCase(pattern: "(?(1)a|b)", kind: .notRegular(.conditional), offset: 0),
    ]

    @Test(arguments: errorCases)
    func rejects(_ c: ErrorCase) {
        let error = parseError(c.pattern, c.options)
        #expect(error?.kind == c.kind)
        #expect(error?.offset == c.offset)
        #expect(error?.pattern == c.pattern)
    }

    @Test func invalidUTF8PatternInUTF8Mode() {
        #expect(throws: RegexSyntaxError(kind: .invalidUTF8, offset: 1, pattern: "a\u{FFFD}")) {
            try RegexSyntax.parse([0x61, 0xFF])
        }
        #expect(throws: RegexSyntaxError.self) { try RegexSyntax.parse([0xED, 0xA0, 0x80]) }  // a surrogate
        #expect(throws: RegexSyntaxError.self) { try RegexSyntax.parse([0xC0, 0xAF]) }  // overlong
        #expect(throws: RegexSyntaxError.self) { try RegexSyntax.parse([0xE2, 0x82]) }  // truncated
        #expect(throws: Never.self) { try RegexSyntax.parse([0x61, 0xFF], options: bytesMode) }
    }

    @Test func nestingBeyondTheLimit() {
        let depth = RegexSyntax.maxNesting + 1
        let pattern = String(repeating: "(", count: depth) + String(repeating: ")", count: depth)
        let error = parseError(pattern)
        #expect(error?.kind == .nestingTooDeep)
        #expect(error?.offset == RegexSyntax.maxNesting)
    }

    @Test func nonRegularConstructsSayWhy() {
        let error = parseError("(a)\\1")
        #expect(error?.message == "backreferences are not supported: a finite automaton cannot express them")
        #expect(parseError("(?=a)")?.message.contains("a finite automaton cannot express") == true)
    }

    @Test func caretRendering() {
        #expect(parseError("a(b")?.description == "error: unclosed group\n    a(b\n     ^")
        #expect(
            parseError("a**")?.description
                == "error: quantifier follows another quantifier (use a group, as in (?:a*)*)\n    a**\n      ^")
        // The caret counts characters, not bytes, and control characters are shown escaped.
        #expect(parseError("é)")?.description == "error: unmatched closing parenthesis\n    é)\n     ^")
        #expect(parseError("a\n)")?.description == "error: unmatched closing parenthesis\n    a\\n)\n       ^")
        // Bytes that are not UTF-8 are shown as \xHH.
        do {
            _ = try RegexSyntax.parse([0x61, 0xFF, 0x29], options: bytesMode)
            Issue.record("expected an error")
        } catch {
            #expect(error.description == "error: unmatched closing parenthesis\n    a\\xFF)\n         ^")
        }
        // An error at the very end puts the caret just past the last character.
        #expect(parseError("a\\")?.description == "error: pattern ends with a lone backslash\n    a\\\n     ^")
    }
}
