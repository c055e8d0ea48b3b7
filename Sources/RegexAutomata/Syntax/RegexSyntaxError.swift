// RegexSyntaxError: why a pattern was rejected, where, and a rendering with a caret.

/// A pattern the parser rejects: what is wrong (``kind``), the byte ``offset`` where the
/// offending construct starts, and the ``pattern`` itself.
///
/// `description` echoes the pattern with a caret under the offending character, for
/// the command line:
///
/// ```swift
/// do { _ = try RegexSyntax.parse("a(b") } catch { print(error) }
/// // error: unclosed group
/// //     a(b
/// //      ^
/// ```
public struct RegexSyntaxError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A construct that PCRE2 accepts but a finite automaton cannot express.
    public enum NonRegularConstruct: Sendable, Hashable {
        /// `\1`, `\g1`, `\g{-1}`, `\k<name>`, `(?P=name)`.
        case backreference
        /// `(?=…)`, `(?!…)`, `(*pla:…)` and friends.
        case lookahead
        /// `(?<=…)`, `(?<!…)`.
        case lookbehind
        /// `(?>…)`.
        case atomicGroup
        /// `a*+`, `a++`, `a?+`, `a{2}+`.
        case possessiveQuantifier
        /// `(?R)`, `(?1)`, `(?-1)`, `(?&name)`, `(?P>name)`, `\g<1>`.
        case recursion
        /// `\K`.
        case resetMatchStart
        /// `(*ACCEPT)`, `(*FAIL)`, `(*UTF)`, `(*pla:…)` and every other `(*…)`.
        case verb
        /// `(?(cond)yes|no)`.
        case conditional

        var sentence: String {
            switch self {
            case .backreference: "backreferences are"
            case .lookahead: "lookahead assertions are"
            case .lookbehind: "lookbehind assertions are"
            case .atomicGroup: "atomic groups are"
            case .possessiveQuantifier: "possessive quantifiers are"
            case .recursion: "recursion and subroutine calls are"
            case .resetMatchStart: "\\K (reset match start) is"
            case .verb: "(*VERB) and (*alpha:…) constructs are"
            case .conditional: "conditional groups are"
            }
        }
    }

    /// What is wrong with the pattern.
    public enum Kind: Sendable, Hashable {
        /// `(` without its `)`; the offset is the `(`.
        case unclosedGroup
        /// `)` without its `(`.
        case unmatchedCloseParen
        /// `[` without its `]` (note that `]` right after `[` or `[^` is a literal, so
        /// `[]` and `[^]` are unclosed).
        case unclosedClass
        /// A range whose start is above its end, such as `[z-a]`; the offset is the start.
        case invalidClassRange
        /// A class escape or POSIX class used as a range end point, such as `[a-\d]`.
        case classInRange
        /// `[[:foo:]]`: not one of alpha digit alnum upper lower space punct print graph
        /// cntrl xdigit blank word ascii.
        case unknownPOSIXClass
        /// `[:alpha:]` outside brackets (PCRE2 rejects it too; write `[[:alpha:]]`).
        case posixClassOutsideClass
        /// `[[.a.]]` or `[[=a=]]`.
        case posixCollatingElement
        /// A quantifier with nothing before it: `*a`, `(+`, `a|?`, `(?i)*`.
        case repetitionMissingOperand
        /// A quantifier right after another: `a**`, `a{2}{3}` (write `(?:a*)*`).
        case repetitionOfRepetition
        /// A quantifier after an assertion: `^*`, `\b+` (PCRE2 rejects these too).
        case repetitionOfAssertion
        /// A bound above ``RegexSyntax/maxRepetitionBound``; the offset is the number.
        case repetitionBoundTooLarge
        /// `{n,m}` with `n > m`.
        case repetitionBoundsOutOfOrder
        /// `{,n}` or a brace with spaces such as `{ 2 }`, which PCRE2 10.42 reads as a
        /// literal and later PCRE2 versions as a quantifier: write `{0,n}` or `\{`.
        case ambiguousBrace
        /// A `\` at the end of the pattern.
        case trailingBackslash
        /// `\` followed by a letter or digit that has no meaning (such as `\q`).
        case unknownEscape
        /// An escape PCRE2 knows that this engine does not implement (`\a`, `\e`, `\0`,
        /// octal, `\c`, `\Q…\E`, `\R`, `\X`, `\N`, `\G`, `\Z`, …).
        case unsupportedEscape
        /// `\p` or `\P` not followed by a letter or a `{…}`, or `\p{` without its `}`.
        case malformedProperty
        /// `\p{…}` naming no property PCRE2 10.42 knows that this engine offers
        /// (general categories, scripts, `Any`, `Xan`, `Xps`, `Xsp`, `Xwd`, `Xuc`).
        case unknownProperty
        /// `\b`, `\B`, `\<` or `\>` under (*UCP): a Unicode word boundary needs the
        /// whole character on each side, which the one-byte look-around cannot see.
        case unicodeWordBoundary
        /// An escape that is not allowed inside a class, such as `[\B]` or `[\A]`.
        case invalidEscapeInClass
        /// `\x` not followed by hex digits, or `\x{…}` unclosed or with a non-hex digit.
        case invalidHexEscape
        /// `\x{…}` above U+10FFFF (UTF-8 mode) or above 0xFF (bytes mode).
        case codePointTooLarge
        /// `\x{D800}`–`\x{DFFF}` in UTF-8 mode.
        case surrogateCodePoint
        /// An inline flag other than `i`, `m`, `s`, or a `-` with no flag after it.
        case unknownFlag
        /// `(?)` or `(?-)`: a flag group that sets nothing.
        case emptyFlagGroup
        /// A group kind this engine does not offer: callouts `(?C…)`, `(?^…)`.
        case unsupportedGroup
        /// `\c` at the end of the pattern or before a character that is not printable
        /// ASCII (`\cé`).
        case invalidControlEscape
        /// `\o` without `{`, octal digits and `}`: `\o{8}`, `\o{}`.
        case invalidOctalEscape
        /// `\N{U+hh}` in bytes mode (PCRE2 takes it in UTF mode only).
        case codePointNameNeedsUTF8
        /// A named group whose name is not a letter or `_` followed by letters, digits
        /// and `_` (at most 32), or is not closed by its `>` or `'`: `(?<1a>x)`, `(?<a`.
        case invalidGroupName
        /// Two named groups with one name: `(?<a>x)(?<a>y)` (PCRE2 refuses it too).
        case duplicateGroupName
        /// The pattern bytes are not valid UTF-8 (UTF-8 mode only).
        case invalidUTF8
        /// Groups or classes nested deeper than ``RegexSyntax/maxNesting``.
        case nestingTooDeep
        /// A PCRE construct that a finite automaton cannot express.
        case notRegular(NonRegularConstruct)
    }

    /// What is wrong.
    public var kind: Kind
    /// The byte offset in the pattern where the offending construct starts
    /// (`0 ... pattern.utf8.count`; equal to the count for "unexpected end").
    public var offset: Int
    /// The pattern as given (bytes that are not UTF-8 shown as U+FFFD).
    public var pattern: String

    /// The pattern bytes as given, for rendering (a byte pattern need not be UTF-8).
    private let patternBytes: [UInt8]

    /// Creates an error; the parser is the usual source of these.
    public init(kind: Kind, offset: Int, pattern: String) {
        self.kind = kind
        self.offset = offset
        self.pattern = pattern
        self.patternBytes = Array(pattern.utf8)
    }

    /// Creates an error for a pattern given as bytes.
    init(kind: Kind, offset: Int, patternBytes: [UInt8]) {
        self.kind = kind
        self.offset = offset
        self.pattern = String(decoding: patternBytes, as: UTF8.self)
        self.patternBytes = patternBytes
    }

    /// Errors are equal when kind, offset and pattern text are.
    public static func == (lhs: RegexSyntaxError, rhs: RegexSyntaxError) -> Bool {
        lhs.kind == rhs.kind && lhs.offset == rhs.offset && lhs.pattern == rhs.pattern
    }

    /// One sentence naming the problem, without the pattern.
    public var message: String {
        switch kind {
        case .unclosedGroup: "unclosed group"
        case .unmatchedCloseParen: "unmatched closing parenthesis"
        case .unclosedClass: "unclosed character class (a ']' right after '[' or '[^' is a literal)"
        case .invalidClassRange: "invalid range in character class: start is greater than end"
        case .classInRange: "a class such as \\d or [:alpha:] cannot be the end of a range"
        case .unknownPOSIXClass:
            "unknown POSIX class name (expected alpha, digit, alnum, upper, lower, space, punct, print, graph, cntrl, xdigit, blank, word or ascii)"
        case .posixClassOutsideClass: "POSIX class names are allowed only inside brackets, as in [[:alpha:]]"
        case .posixCollatingElement: "POSIX collating elements [. .] and [= =] are not supported"
        case .repetitionMissingOperand: "quantifier has nothing to repeat"
        case .repetitionOfRepetition: "quantifier follows another quantifier (use a group, as in (?:a*)*)"
        case .repetitionOfAssertion: "quantifier follows an assertion, which cannot be repeated"
        case .repetitionBoundTooLarge: "repetition bound is larger than \(RegexSyntax.maxRepetitionBound)"
        case .repetitionBoundsOutOfOrder: "repetition bounds out of order: {n,m} needs n <= m"
        case .ambiguousBrace:
            "ambiguous '{': PCRE2 versions disagree on whether this is a quantifier; write {0,n} or \\{"
        case .trailingBackslash: "pattern ends with a lone backslash"
        case .unknownEscape: "unknown escape sequence"
        case .unsupportedEscape: "escape sequence is not supported"
        case .malformedProperty: "malformed \\p or \\P: expected \\pL or \\p{Name}"
        case .unknownProperty:
            "unknown Unicode property (expected a general category such as L or Lu, a script such as Greek or sc=Greek, or Any)"
        case .unicodeWordBoundary:
            "word boundaries (\\b, \\B, \\<, \\>) are not supported under (*UCP): write them without UCP (ASCII words)"
        case .invalidEscapeInClass: "escape sequence is not allowed inside a character class"
        case .invalidHexEscape: "invalid hexadecimal escape: expected \\xHH or \\x{H...}"
        case .codePointTooLarge: "code point is too large (above U+10FFFF, or above 0xFF in bytes mode)"
        case .surrogateCodePoint: "surrogate code points (U+D800-U+DFFF) are not scalars"
        case .unknownFlag: "unknown inline flag: only i, m and s are supported, with - to turn them off"
        case .emptyFlagGroup: "flag group sets no flag"
        case .unsupportedGroup:
            "group syntax not supported ((?C and (?^ are not available; use (...) or (?:...))"
        case .invalidControlEscape: "\\c must be followed by a printable ASCII character"
        case .invalidOctalEscape: "invalid octal escape: expected \\o{ddd} with octal digits"
        case .codePointNameNeedsUTF8: "\\N{U+hhhh} is supported only in UTF-8 mode"
        case .invalidGroupName: "invalid group name: a letter or _ first, then letters, digits and _ (at most 32), closed by > or '"
        case .duplicateGroupName: "two named groups have the same name"
        case .invalidUTF8: "pattern is not valid UTF-8 (use bytes mode for byte patterns)"
        case .nestingTooDeep: "groups or classes nested more than \(RegexSyntax.maxNesting) deep"
        case .notRegular(let construct):
            "\(construct.sentence) not supported: a finite automaton cannot express them"
        }
    }

    /// `error: <message>`, then the pattern and a caret under the offending character,
    /// each indented by four spaces. Control characters and bytes that are not UTF-8 are
    /// shown escaped (`\n`, `\t`, `\x01`, `\xFF`) so the caret stays aligned.
    public var description: String {
        var shown = ""
        var caretColumn: Int? = nil
        var i = 0
        while i < patternBytes.count {
            if caretColumn == nil && i >= offset { caretColumn = shown.unicodeScalars.count }
            if let (scalar, length) = Self.decodeScalar(patternBytes, at: i) {
                shown += Self.display(scalar)
                i += length
            } else {
                shown += "\\x" + Self.hex(patternBytes[i])
                i += 1
            }
        }
        let column = caretColumn ?? shown.unicodeScalars.count
        return "error: \(message)\n    \(shown)\n    \(String(repeating: " ", count: column))^"
    }

    private static func decodeScalar(_ bytes: [UInt8], at i: Int) -> (Unicode.Scalar, Int)? {
        let lead = bytes[i]
        if lead < 0x80 { return (Unicode.Scalar(lead), 1) }
        let length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC2 ? 2 : 0
        guard length > 0, i + length <= bytes.count else { return nil }
        var decoder = UTF8()
        var iterator = bytes[i..<(i + length)].makeIterator()
        guard case .scalarValue(let scalar) = decoder.decode(&iterator), UTF8.width(scalar) == length else { return nil }
        return (scalar, length)
    }

    private static func hex(_ value: UInt32) -> String {
        let digits = String(value, radix: 16, uppercase: true)
        return digits.count < 2 ? "0" + digits : digits
    }

    private static func hex(_ byte: UInt8) -> String { hex(UInt32(byte)) }

    private static func display(_ scalar: Unicode.Scalar) -> String {
        switch scalar {
        case "\n": return "\\n"
        case "\t": return "\\t"
        case "\r": return "\\r"
        default:
            if scalar.value < 0x20 || scalar.value == 0x7F { return "\\x" + hex(scalar.value) }
            return String(scalar)
        }
    }
}
