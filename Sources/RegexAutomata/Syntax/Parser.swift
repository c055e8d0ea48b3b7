// Parser: a recursive-descent parser from PCRE-style pattern bytes straight to Hir.
//
// Sources: the PCRE2 10.42 pattern syntax (pcre2pattern(3)) and its compiler's rules for
// the fine points (which `{` starts a quantifier, `]` first in a class, POSIX name
// detection as in `check_posix_syntax`); Rust's regex-syntax for the idea of a Hir in
// which flags are already resolved; Cox, "Regular Expression Matching Can Be Simple And
// Fast" (2007) for why the non-regular constructs are rejected rather than emulated.
//
// The accepted language is a subset of what PCRE2 accepts when compiled with
// PCRE2_DOLLAR_ENDONLY | PCRE2_ALT_CIRCUMFLEX (PCRE2_UCP only under (*UCP)), newline LF, and every
// accepted pattern means what it means to PCRE2 (with PCRE2_UTF in UTF-8 mode, where `i`
// is Unicode simple case folding: é/É, σ/Σ/ς, k/U+212A, s/U+017F, no ß/ss; ASCII only in
// bytes mode). Decisions on the fine points:
//
// - `{` that does not start `{n}`, `{n,}` or `{n,m}` (digits only, no spaces) is a literal,
//   as in PCRE2 10.42 (`a{`, `a{x}`, `a{1,2`); but `{,n}` and braces with spaces such as
//   `{ 2 }`, which PCRE2 10.43 reads as quantifiers, are errors (`.ambiguousBrace`), so the
//   meaning never depends on the PCRE2 version.
// - Bounds above 1000 are errors (PCRE2 allows 65535).
// - A quantifier after an assertion (`^*`, `\b+`), after another quantifier (`a**`,
//   `a{2}{3}`), at the start of a group or branch, or after `(?i)` is an error, as in PCRE2.
//   `a*?` and `a{2,3}?` are lazy; `a*+` (possessive) is an error.
// - `]` right after `[` or `[^` is a literal (so `[]a]` is valid and `[]` is unclosed);
//   `-` is literal first, last, or right after a range; a class escape or POSIX class as
//   a range end point is an error (`[a-\d]`, `[\d-z]`), as in PCRE2; `\b` in a class is
//   backspace; `[:alpha:]` outside brackets is an error, as in PCRE2.
// - Under `i`, `[:upper:]` and `[:lower:]` mean `[:alpha:]` (PCRE2 does the same), and a
//   negated class is folded before it is negated (`(?i)[^a]` excludes `A`).
// - A class is the plain union of its members. (PCRE2 10.42 drops scalars above U+00FF
//   from a class where a positive POSIX class follows a negated escape or negated POSIX
//   class, so `[\W[:ascii:]]` does not match 日 there; we consider that a PCRE2 bug.)
// - `(?i)` lasts to the end of the enclosing group, across later `|` branches
//   (`(a(?i)b|c)` folds `c`), as in PCRE2 and Perl.
// - `\p{…}`, `\P{…}`, `\pL`, `\p{^…}` name Unicode properties (UnicodePropertySets.swift);
//   like PCRE2 10.42 they are never case-folded under `i`, even inside a class, where the
//   class's other members are (`(?i)[\p{Lu}a]` matches `A`, `a` and upper case only).
// - `(*UCP)` (and `(*UTF)` in UTF-8 mode) only at the very start, as in PCRE2; under UCP
//   `\d \s \w` and the POSIX classes but `xdigit` and `ascii` are the PCRE2_UCP
//   properties (unfolded, so `(?i)[[:upper:]]` is `\p{Lu}`), and `\b \B \< \>` are
//   errors (`.unicodeWordBoundary`): the DFA decides them from one byte on each side.
// - `\h`, `\v` (and `\H`, `\V`) are PCRE2's horizontal and vertical space sets; in
//   bytes mode their members up to 0xFF (`\xA0`, `\x85`), as PCRE2 without UTF.
// - `\1`–`\9` are back-references (refused); a longer number is one when that many
//   groups precede it, else up to three octal digits (`\101` is `A`), as in PCRE2.
// - Plain `( )` and named groups (`(?<n>…)`, `(?'n'…)`, `(?P<n>…)`) are groupings only
//   (no captures are reported), and so is branch reset `(?|…)`; `(?#…)` is a comment. `\` before any character that is not an ASCII letter or digit is that
//   character. `\a \e \0nn \o{…} \cX \N \N{U+hh} \Q…\E` read as in PCRE2 (`\N` is any
//   character but a newline, an error in a class; `\N{U+hh}` in UTF-8 mode only; `\Q…\E`
//   quotes in a class too). Escapes PCRE2 knows but we do not implement (`\R \X \G \Z
//   …`) are `.unsupportedEscape`; `\x` without hex digits is an error (PCRE2
//   reads it as NUL). `(?)`, `(?-)` are errors (PCRE2 ignores them).
// Known limits: no positioned AST is kept (the parser emits Hir directly and reports
// positions in errors only); nesting deeper than 250 groups is an error.

struct Parser {
    private let pattern: [UInt8]
    private let mode: RegexSyntax.Options.Mode
    private var flags: Flags
    /// The next byte to read; `0 ... pattern.count`.
    private var pos = 0
    private var depth = 0
    /// The capture groups opened so far: `\12` is a back-reference with 12 or more
    /// before it, else an octal escape (``parseDigitEscape(start:inClass:)``).
    private var captureCount = 0
    /// Inside `\Q…\E`: every character is itself (``skipQuoteMarks()``).
    private var quoting = false
    /// The names of the named groups read so far (PCRE2 refuses a name given twice).
    private var groupNames: Set<[UInt8]> = []

    struct Flags {
        var caseInsensitive: Bool
        var multiLine: Bool
        var dotAll: Bool
        /// (*UCP) or ``RegexSyntax/Options/ucp``: `\d \s \w` and the POSIX classes are
        /// Unicode properties (PCRE2_UCP); not an inline flag, so it never changes.
        var ucp: Bool
    }

    init(pattern: [UInt8], options: RegexSyntax.Options) {
        self.pattern = pattern
        self.mode = options.mode
        self.flags = Flags(
            caseInsensitive: options.caseInsensitive,
            multiLine: options.multiLine,
            dotAll: options.dotMatchesNewline,
            ucp: options.ucp
        )
    }

    // MARK: Entry

    mutating func parse() throws(RegexSyntaxError) -> Hir {
        if mode == .utf8, let bad = Self.firstInvalidUTF8Offset(pattern) {
            throw error(.invalidUTF8, bad)
        }
        parseStartVerbs()
        let hir = try parseAlternation()
        if pos < pattern.count {
            // parseAlternation stops only at the end or at a `)` it does not own.
            throw error(.unmatchedCloseParen, pos)
        }
        return hir
    }

    /// PCRE2's option-setting verbs at the very start: `(*UCP)` turns on UCP; `(*UTF)`
    /// changes nothing in UTF-8 mode (in bytes mode it stays an unsupported verb).
    private mutating func parseStartVerbs() {
        while true {
            if Self.startsWith(pattern, at: pos, "(*UCP)") {
                flags.ucp = true
                pos += 6
            } else if mode == .utf8, Self.startsWith(pattern, at: pos, "(*UTF)") {
                pos += 6
            } else {
                return
            }
        }
    }

    private static func startsWith(_ bytes: [UInt8], at offset: Int, _ text: String) -> Bool {
        let want = Array(text.utf8)
        return offset + want.count <= bytes.count && Array(bytes[offset..<(offset + want.count)]) == want
    }

    private func error(_ kind: RegexSyntaxError.Kind, _ offset: Int) -> RegexSyntaxError {
        RegexSyntaxError(kind: kind, offset: offset, patternBytes: pattern)
    }

    private func peek(_ ahead: Int = 0) -> UInt8? {
        pos + ahead < pattern.count ? pattern[pos + ahead] : nil
    }

    // MARK: Alternation and concatenation

    private mutating func parseAlternation() throws(RegexSyntaxError) -> Hir {
        var branches = [try parseConcat()]
        while peek() == UInt8(ascii: "|") {
            pos += 1
            branches.append(try parseConcat())
        }
        return branches.count == 1 ? branches[0] : .alternation(branches)
    }

    /// What the last item of a concatenation was, for deciding whether a quantifier may follow.
    private enum Last {
        case nothing
        case repeatable(Int)
        case assertion
        case quantified
    }

    private mutating func parseConcat() throws(RegexSyntaxError) -> Hir {
        var items: [Hir] = []
        var last = Last.nothing
        while true {
            skipQuoteMarks()
            guard let c = peek() else { break }
            if quoting {
                items.append(literal(readCharacter()))
                last = .repeatable(items.count - 1)
                continue
            }
            if c == UInt8(ascii: "|") || c == UInt8(ascii: ")") { break }
            let start = pos
            if let q = try parseQuantifier() {
                switch last {
                case .nothing: throw error(.repetitionMissingOperand, start)
                case .assertion: throw error(.repetitionOfAssertion, start)
                case .quantified: throw error(.repetitionOfRepetition, start)
                case .repeatable(let index):
                    items[index] = .repetition(items[index], min: q.min, max: q.max, greedy: q.greedy)
                    last = .quantified
                }
                continue
            }
            switch c {
            case UInt8(ascii: "("):
                if let group = try parseGroup() {
                    items.append(group)
                    last = .repeatable(items.count - 1)
                } else {
                    last = .nothing  // `(?i)`: flags changed, nothing to repeat
                }
            case UInt8(ascii: "["):
                if peek(1).map(Self.isPOSIXOpener) == true, checkPOSIXSyntax(at: pos + 1) != nil {
                    throw error(.posixClassOutsideClass, pos)
                }
                items.append(try parseClass())
                last = .repeatable(items.count - 1)
            case UInt8(ascii: "."):
                pos += 1
                items.append(dot())
                last = .repeatable(items.count - 1)
            case UInt8(ascii: "^"):
                pos += 1
                items.append(.look(flags.multiLine ? .lineStart : .textStart))
                last = .assertion
            case UInt8(ascii: "$"):
                pos += 1
                items.append(.look(flags.multiLine ? .lineEnd : .textEnd))
                last = .assertion
            case UInt8(ascii: "\\"):
                switch try parseEscape() {
                case .hir(let hir):
                    items.append(hir)
                    last = .repeatable(items.count - 1)
                case .look(let look):
                    items.append(.look(look))
                    last = .assertion
                }
            default:
                items.append(literal(readCharacter()))
                last = .repeatable(items.count - 1)
            }
        }
        return Self.concat(items)
    }

    /// Joins items, merging adjacent literals and dropping empties.
    private static func concat(_ items: [Hir]) -> Hir {
        var out: [Hir] = []
        for item in items {
            if case .empty = item { continue }
            if case .literal(let bytes) = item, case .literal(let previous)? = out.last {
                out[out.count - 1] = .literal(previous + bytes)
            } else {
                out.append(item)
            }
        }
        switch out.count {
        case 0: return .empty
        case 1: return out[0]
        default: return .concat(out)
        }
    }

    // MARK: Quantifiers

    private struct Quantifier {
        var min: Int
        var max: Int?
        var greedy: Bool
    }

    /// Reads a quantifier at `pos` with its lazy suffix, or returns nil (leaving `pos`)
    /// when there is none.
    private mutating func parseQuantifier() throws(RegexSyntaxError) -> Quantifier? {
        guard let c = peek() else { return nil }
        var q: Quantifier
        switch c {
        case UInt8(ascii: "*"): q = Quantifier(min: 0, max: nil, greedy: true); pos += 1
        case UInt8(ascii: "+"): q = Quantifier(min: 1, max: nil, greedy: true); pos += 1
        case UInt8(ascii: "?"): q = Quantifier(min: 0, max: 1, greedy: true); pos += 1
        case UInt8(ascii: "{"):
            guard let braced = try parseBraces() else { return nil }
            q = braced
        default: return nil
        }
        if peek() == UInt8(ascii: "?") {
            q.greedy = false
            pos += 1
        } else if peek() == UInt8(ascii: "+") {
            throw error(.notRegular(.possessiveQuantifier), pos)
        }
        return q
    }

    /// `{n}`, `{n,}`, `{n,m}` at `pos` (PCRE2 10.42 syntax), or nil when the `{` is a literal.
    private mutating func parseBraces() throws(RegexSyntaxError) -> Quantifier? {
        let open = pos
        var i = pos + 1
        func digits(_ i: inout Int) -> (value: Int, start: Int)? {
            let start = i
            var value = 0
            while i < pattern.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(pattern[i]) {
                value = min(value * 10 + Int(pattern[i] - UInt8(ascii: "0")), 1_000_000)
                i += 1
            }
            return i > start ? (value, start) : nil
        }
        guard let low = digits(&i) else {
            if isLaterPCRE2Quantifier(from: open) { throw error(.ambiguousBrace, open) }
            return nil
        }
        var high: (value: Int, start: Int)? = low
        if i < pattern.count, pattern[i] == UInt8(ascii: ",") {
            i += 1
            high = digits(&i)
        }
        guard i < pattern.count, pattern[i] == UInt8(ascii: "}") else {
            if isLaterPCRE2Quantifier(from: open) { throw error(.ambiguousBrace, open) }
            return nil
        }
        if low.value > RegexSyntax.maxRepetitionBound { throw error(.repetitionBoundTooLarge, low.start) }
        if let high, high.value > RegexSyntax.maxRepetitionBound {
            throw error(.repetitionBoundTooLarge, high.start)
        }
        if let high, high.value < low.value { throw error(.repetitionBoundsOutOfOrder, open) }
        pos = i + 1
        return Quantifier(min: low.value, max: high?.value, greedy: true)
    }

    /// Whether the brace at `open` is a quantifier in PCRE2 10.43 and later, which allow
    /// `{,m}` and spaces or tabs around the numbers and the comma.
    private func isLaterPCRE2Quantifier(from open: Int) -> Bool {
        var i = open + 1
        func spaces() { while i < pattern.count, pattern[i] == 0x20 || pattern[i] == 0x09 { i += 1 } }
        func digits() -> Bool {
            let start = i
            while i < pattern.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(pattern[i]) { i += 1 }
            return i > start
        }
        spaces()
        if digits() {
            spaces()
            if i < pattern.count, pattern[i] == UInt8(ascii: ",") {
                i += 1
                spaces()
                _ = digits()
                spaces()
            }
        } else if i < pattern.count, pattern[i] == UInt8(ascii: ",") {
            i += 1
            spaces()
            guard digits() else { return false }
            spaces()
        } else {
            return false
        }
        return i < pattern.count && pattern[i] == UInt8(ascii: "}")
    }

    // MARK: Groups

    /// Parses a group at `pos` (a `(`). Returns its Hir, or nil for a flag setting
    /// `(?flags)` that applies to the rest of the enclosing group.
    private mutating func parseGroup() throws(RegexSyntaxError) -> Hir? {
        let open = pos
        pos += 1
        if peek() == UInt8(ascii: "*"), let next = peek(1), Self.isASCIILetter(next) || next == UInt8(ascii: ":") {
            throw error(.notRegular(.verb), open)
        }
        guard peek() == UInt8(ascii: "?") else {
            captureCount += 1
            return try parseGroupBody(open: open, flags: flags)
        }
        pos += 1
        guard let c = peek() else { throw error(.unclosedGroup, open) }
        switch c {
        case UInt8(ascii: ":"):
            pos += 1
            return try parseGroupBody(open: open, flags: flags)
        case UInt8(ascii: "="), UInt8(ascii: "!"), UInt8(ascii: "*"):
            throw error(.notRegular(.lookahead), open)
        case UInt8(ascii: "<"):
            if let next = peek(1), next == UInt8(ascii: "=") || next == UInt8(ascii: "!") || next == UInt8(ascii: "*") {
                throw error(.notRegular(.lookbehind), open)
            }
            pos += 1
            try skipGroupName(open: open, closer: UInt8(ascii: ">"))
            return try parseGroupBody(open: open, flags: flags)
        case UInt8(ascii: "'"):
            pos += 1
            try skipGroupName(open: open, closer: UInt8(ascii: "'"))
            return try parseGroupBody(open: open, flags: flags)
        case UInt8(ascii: ">"):
            throw error(.notRegular(.atomicGroup), open)
        case UInt8(ascii: "P"):
            switch peek(1) {
            case UInt8(ascii: "="): throw error(.notRegular(.backreference), open)
            case UInt8(ascii: ">"): throw error(.notRegular(.recursion), open)
            case UInt8(ascii: "<"):
                pos += 2
                try skipGroupName(open: open, closer: UInt8(ascii: ">"))
                return try parseGroupBody(open: open, flags: flags)
            default: throw error(.unsupportedGroup, open)
            }
        case UInt8(ascii: "#"):
            // A comment: everything up to the first `)` (PCRE2 allows no nesting).
            guard let close = pattern[pos...].firstIndex(of: UInt8(ascii: ")")) else { throw error(.unclosedGroup, open) }
            pos = close + 1
            return nil
        case UInt8(ascii: "R"), UInt8(ascii: "&"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            throw error(.notRegular(.recursion), open)
        case UInt8(ascii: "+"):
            throw error(.notRegular(.recursion), open)
        case UInt8(ascii: "-") where peek(1).map(Self.isASCIIDigit) == true:
            throw error(.notRegular(.recursion), open)
        case UInt8(ascii: "("):
            throw error(.notRegular(.conditional), open)
        case UInt8(ascii: "|"):
            // Branch reset: it renumbers captures only, and none are reported.
            pos += 1
            return try parseGroupBody(open: open, flags: flags)
        case UInt8(ascii: "C"), UInt8(ascii: "^"):
            throw error(.unsupportedGroup, open)
        default:
            return try parseFlagGroup(open: open)
        }
    }

    /// A capture group's name and its closer (`>` or `'`), with `pos` at the name: a
    /// letter or `_`, then letters, digits and `_`, at most 32 bytes, each name once,
    /// as PCRE2 requires. Captures are not reported, so the name only has to be valid.
    private mutating func skipGroupName(open: Int, closer: UInt8) throws(RegexSyntaxError) {
        let start = pos
        while let c = peek(), Self.isASCIILetter(c) || Self.isASCIIDigit(c) || c == UInt8(ascii: "_") { pos += 1 }
        let name = pattern[start..<pos]
        guard let first = name.first, !Self.isASCIIDigit(first), name.count <= 32, peek() == closer else {
            throw error(.invalidGroupName, open)
        }
        guard groupNames.insert(Array(name)).inserted else { throw error(.duplicateGroupName, open) }
        captureCount += 1
        pos += 1
    }

    /// `(?ims-ims)` or `(?ims-ims:…)`, with `pos` just after the `?`.
    private mutating func parseFlagGroup(open: Int) throws(RegexSyntaxError) -> Hir? {
        var newFlags = flags
        var negate = false
        var sawFlag = false
        var sawFlagAfterMinus = false
        while true {
            guard let c = peek() else { throw error(.unclosedGroup, open) }
            switch c {
            case UInt8(ascii: "i"): newFlags.caseInsensitive = !negate
            case UInt8(ascii: "m"): newFlags.multiLine = !negate
            case UInt8(ascii: "s"): newFlags.dotAll = !negate
            case UInt8(ascii: "-"):
                if negate { throw error(.unknownFlag, pos) }
                negate = true
                pos += 1
                continue
            case UInt8(ascii: ")"), UInt8(ascii: ":"):
                if negate && !sawFlagAfterMinus { throw error(.unknownFlag, pos - 1) }
                if !sawFlag { throw error(.emptyFlagGroup, open) }
                pos += 1
                if c == UInt8(ascii: ")") {
                    flags = newFlags
                    return nil
                }
                return try parseGroupBody(open: open, flags: newFlags)
            default:
                throw error(.unknownFlag, pos)
            }
            sawFlag = true
            if negate { sawFlagAfterMinus = true }
            pos += 1
        }
    }

    /// The alternation inside a group, with `pos` just after its opening syntax, up to
    /// and including the `)`. Flags set inside do not leak out.
    private mutating func parseGroupBody(open: Int, flags inner: Flags) throws(RegexSyntaxError) -> Hir {
        guard depth < RegexSyntax.maxNesting else { throw error(.nestingTooDeep, open) }
        let saved = flags
        flags = inner
        depth += 1
        let hir = try parseAlternation()
        depth -= 1
        guard peek() == UInt8(ascii: ")") else { throw error(.unclosedGroup, open) }
        pos += 1
        flags = saved
        return hir
    }

    // MARK: Escapes

    private enum Escape {
        case hir(Hir)
        case look(Hir.Look)
    }

    /// An escape outside a class, with `pos` at the backslash.
    private mutating func parseEscape() throws(RegexSyntaxError) -> Escape {
        let start = pos
        guard let c = peek(1) else { throw error(.trailingBackslash, start) }
        if flags.ucp, [UInt8(ascii: "b"), UInt8(ascii: "B"), UInt8(ascii: "<"), UInt8(ascii: ">")].contains(c) {
            throw error(.unicodeWordBoundary, start)
        }
        switch c {
        case UInt8(ascii: "b"): pos += 2; return .look(.wordBoundary)
        case UInt8(ascii: "B"): pos += 2; return .look(.notWordBoundary)
        case UInt8(ascii: "A"): pos += 2; return .look(.textStart)
        case UInt8(ascii: "z"): pos += 2; return .look(.textEnd)
        // grep's word anchors (PCRE2 reads `\<` and `\>` as the characters).
        case UInt8(ascii: "<"): pos += 2; return .look(.wordStart)
        case UInt8(ascii: ">"): pos += 2; return .look(.wordEnd)
        case UInt8(ascii: "N"):
            pos += 2
            if Self.startsWith(pattern, at: pos, "{U+") { return .hir(literal(try parseNamedCodePoint(start: start))) }
            // Any character but a newline, whatever `s` says (`\N{3}` is `\N` three times).
            return .hir(notNewline())
        default: break
        }
        switch try parseCommonEscape(inClass: false) {
        case .character(let scalar): return .hir(literal(scalar))
        case .set(let set), .property(let set): return .hir(classHir(set))
        }
    }

    private enum ClassAtom {
        case character(UInt32)
        case set(ScalarRangeSet)
        /// A Unicode property (`\p{…}`, or a class under UCP): never case-folded, even
        /// under `i` and inside a class, as in PCRE2 10.42.
        case property(ScalarRangeSet)
    }

    /// The escapes that mean the same inside and outside a class, with `pos` at the
    /// backslash: characters, `\xHH`, `\x{…}`, `\d \w \s \D \W \S`; everything else is
    /// an error (the look-around escapes are handled by the callers first).
    private mutating func parseCommonEscape(inClass: Bool) throws(RegexSyntaxError) -> ClassAtom {
        let start = pos
        guard let c = peek(1) else { throw error(.trailingBackslash, start) }
        if !Self.isASCIILetter(c) && !Self.isASCIIDigit(c) {
            pos += 1
            return .character(readCharacter())
        }
        pos += 2
        switch c {
        case UInt8(ascii: "t"): return .character(0x09)
        case UInt8(ascii: "n"): return .character(0x0A)
        case UInt8(ascii: "r"): return .character(0x0D)
        case UInt8(ascii: "f"): return .character(0x0C)
        case UInt8(ascii: "a"): return .character(0x07)
        case UInt8(ascii: "e"): return .character(0x1B)
        case UInt8(ascii: "0"): return .character(try parseOctal(start: start, braced: false))
        case UInt8(ascii: "o"): return .character(try parseOctal(start: start, braced: true))
        case UInt8(ascii: "c"): return .character(try parseControl(start: start))
        case UInt8(ascii: "x"): return .character(try parseHex(start: start))
        case UInt8(ascii: "d"), UInt8(ascii: "w"), UInt8(ascii: "s"),
            UInt8(ascii: "D"), UInt8(ascii: "W"), UInt8(ascii: "S"):
            let lower = c | 0x20
            let negate = c != lower
            if flags.ucp, let members = UnicodeProperties.ucpClass(String(UnicodeScalar(lower))) {
                return .property(negate ? inverted(members) : members)
            }
            let members = lower == UInt8(ascii: "d") ? Self.digit : lower == UInt8(ascii: "w") ? Self.word : Self.space
            return .set(negate ? inverted(members) : members)
        case UInt8(ascii: "h"): return .set(Self.horizontalSpace)
        case UInt8(ascii: "v"): return .set(Self.verticalSpace)
        case UInt8(ascii: "H"): return .set(inverted(Self.horizontalSpace))
        case UInt8(ascii: "V"): return .set(inverted(Self.verticalSpace))
        case UInt8(ascii: "p"), UInt8(ascii: "P"):
            return .property(try parseProperty(start: start, negated: c == UInt8(ascii: "P")))
        case UInt8(ascii: "1")...UInt8(ascii: "9"):
            return .character(try parseDigitEscape(start: start, inClass: inClass))
        case UInt8(ascii: "g"), UInt8(ascii: "k"):
            throw error(.notRegular(.backreference), start)
        case UInt8(ascii: "K"):
            throw error(.notRegular(.resetMatchStart), start)
        case UInt8(ascii: "R"), UInt8(ascii: "X"), UInt8(ascii: "G"), UInt8(ascii: "Z"), UInt8(ascii: "C"),
            UInt8(ascii: "u"), UInt8(ascii: "U"), UInt8(ascii: "l"), UInt8(ascii: "L"):
            throw error(.unsupportedEscape, start)
        case UInt8(ascii: "b"), UInt8(ascii: "B"), UInt8(ascii: "A"), UInt8(ascii: "z"), UInt8(ascii: "N"):
            throw error(.invalidEscapeInClass, start)
        default:
            throw error(.unknownEscape, start)
        }
    }

    /// `\pL` or `\p{Name}` / `\p{^Name}` (and `\P…`), with `pos` just after the `p`.
    private mutating func parseProperty(start: Int, negated: Bool) throws(RegexSyntaxError) -> ScalarRangeSet {
        var negate = negated
        let name: String
        if peek() == UInt8(ascii: "{") {
            guard let close = pattern[pos...].firstIndex(of: UInt8(ascii: "}")) else {
                throw error(.malformedProperty, start)
            }
            var inner = pattern[(pos + 1)..<close]
            if inner.first == UInt8(ascii: "^") {
                negate.toggle()
                inner = inner.dropFirst()
            }
            name = String(decoding: inner, as: UTF8.self)
            pos = close + 1
        } else {
            guard let c = peek(), Self.isASCIILetter(c) else { throw error(.malformedProperty, start) }
            name = String(UnicodeScalar(c))
            pos += 1
        }
        guard !name.isEmpty, let members = UnicodeProperties.set(named: name) else {
            throw error(.unknownProperty, start)
        }
        return negate ? inverted(members) : members
    }

    /// `\xHH` (one or two hex digits) or `\x{H…}`, with `pos` just after the `x`.
    private mutating func parseHex(start: Int) throws(RegexSyntaxError) -> UInt32 {
        var value: UInt32 = 0
        if peek() == UInt8(ascii: "{") {
            pos += 1
            value = try bracedNumber(radix: 16, start: start, invalid: .invalidHexEscape)
        } else {
            var count = 0
            while count < 2, let c = peek(), let digit = Self.hexValue(c) {
                value = value * 16 + digit
                count += 1
                pos += 1
            }
            guard count > 0 else { throw error(.invalidHexEscape, start) }
        }
        return try checkedCodePoint(value, start: start)
    }

    /// `value` as a character of the mode, or the error at the escape at `start`: above
    /// 0xFF in bytes mode, above U+10FFFF or a surrogate in UTF-8 mode.
    private func checkedCodePoint(_ value: UInt32, start: Int) throws(RegexSyntaxError) -> UInt32 {
        switch mode {
        case .bytes:
            if value > 0xFF { throw error(.codePointTooLarge, start) }
        case .utf8:
            if value > 0x10FFFF { throw error(.codePointTooLarge, start) }
            if (0xD800...0xDFFF).contains(value) { throw error(.surrogateCodePoint, start) }
        }
        return value
    }

    /// PCRE2's octal escapes, with `pos` just after the `0` or `o`: `\0` and up to two
    /// more octal digits (`\012` is LF; `\08` is NUL then `8`), or `\o{…}` (at least
    /// one octal digit, any number).
    private mutating func parseOctal(start: Int, braced: Bool) throws(RegexSyntaxError) -> UInt32 {
        guard braced else { return octalDigits(upTo: 2) }
        guard peek() == UInt8(ascii: "{") else { throw error(.invalidOctalEscape, start) }
        pos += 1
        return try checkedCodePoint(bracedNumber(radix: 8, start: start, invalid: .invalidOctalEscape), start: start)
    }

    /// `\1`–`\9…`, with `pos` just after the first digit, as PCRE2 reads them: outside a
    /// class a back-reference (refused) when the number is below 10, starts with 8 or 9,
    /// or is at most the groups opened before it; otherwise, and in a class, up to three
    /// octal digits (`\101` is `A`, `\12` LF), where a class reads `\8` and `\9` as the
    /// digits themselves.
    private mutating func parseDigitEscape(start: Int, inClass: Bool) throws(RegexSyntaxError) -> UInt32 {
        let first = pattern[start + 1]
        var end = start + 1
        var number = 0
        while end < pattern.count, Self.isASCIIDigit(pattern[end]) {
            number = min(number * 10 + Int(pattern[end] - UInt8(ascii: "0")), 100_000)
            end += 1
        }
        let startsOctal = first < UInt8(ascii: "8")
        if !inClass, number < 10 || !startsOctal || number <= captureCount {
            throw error(.notRegular(.backreference), start)
        }
        guard startsOctal else { return UInt32(first) }  // in a class: `\8` is `8`
        pos = start + 1
        return try checkedCodePoint(octalDigits(upTo: 3), start: start)
    }

    /// Up to `limit` octal digits at `pos` as a number (0 when there are none).
    private mutating func octalDigits(upTo limit: Int) -> UInt32 {
        var value: UInt32 = 0
        var count = 0
        while count < limit, let c = peek(), (UInt8(ascii: "0")...UInt8(ascii: "7")).contains(c) {
            value = value * 8 + UInt32(c - UInt8(ascii: "0"))
            count += 1
            pos += 1
        }
        return value
    }

    /// `\cX`, with `pos` just after the `c`: X is any printable ASCII character, upper
    /// cased, with bit 6 flipped (`\ca` and `\cA` are 0x01, `\c[` ESC, `\c?` DEL).
    private mutating func parseControl(start: Int) throws(RegexSyntaxError) -> UInt32 {
        guard let c = peek(), (0x20...0x7E).contains(c) else { throw error(.invalidControlEscape, start) }
        pos += 1
        let upper = (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(c) ? c & ~0x20 : c
        return UInt32(upper ^ 0x40)
    }

    /// `\N{U+hh…}`, with `pos` at the `{`: the character with that code point, in
    /// UTF-8 mode only, as in PCRE2.
    private mutating func parseNamedCodePoint(start: Int) throws(RegexSyntaxError) -> UInt32 {
        guard mode == .utf8 else { throw error(.codePointNameNeedsUTF8, start) }
        pos += 3  // `{U+`
        return try checkedCodePoint(bracedNumber(radix: 16, start: start, invalid: .invalidHexEscape), start: start)
    }

    /// The digits of `\x{…}`, `\o{…}` or `\N{U+…}` in `radix` (16 or 8) up to and past
    /// the `}`, with `pos` at the first digit; at least one digit, else `invalid`. A
    /// value past U+10FFFF stays past it (the caller refuses it), however many digits.
    private mutating func bracedNumber(radix: UInt32, start: Int, invalid: RegexSyntaxError.Kind) throws(RegexSyntaxError) -> UInt32 {
        var value: UInt32 = 0
        var count = 0
        while let c = peek(), let digit = Self.hexValue(c), digit < radix {
            value = min(value &* radix &+ digit, 0x1_000_000)
            count += 1
            pos += 1
        }
        guard count > 0, peek() == UInt8(ascii: "}") else { throw error(invalid, start) }
        pos += 1
        return value
    }

    /// `\Q…\E`: inside, every character is itself, up to `\E` or the end of the
    /// pattern, in a class too. Moves past the `\Q` and `\E` marks at `pos` (an `\E`
    /// that ends nothing and an empty `\Q\E` change nothing, so `a\Q\E+` is `a+`).
    private mutating func skipQuoteMarks() {
        while peek() == UInt8(ascii: "\\") {
            if !quoting, peek(1) == UInt8(ascii: "Q") {
                quoting = true
            } else if peek(1) == UInt8(ascii: "E") {
                quoting = false
            } else {
                return
            }
            pos += 2
        }
    }

    // MARK: Classes

    private static let digit = ScalarRangeSet([0x30...0x39])
    private static let word = ScalarRangeSet([0x30...0x39, 0x41...0x5A, 0x5F...0x5F, 0x61...0x7A])
    private static let space = ScalarRangeSet([0x09...0x0D, 0x20...0x20])
    /// PCRE2's `\h` and `\v` (Unicode horizontal and vertical space, UCP or not; in bytes
    /// mode the members up to 0xFF).
    private static let horizontalSpace = ScalarRangeSet([0x09...0x09, 0x20...0x20, 0xA0...0xA0, 0x1680...0x1680,
        0x180E...0x180E, 0x2000...0x200A, 0x202F...0x202F, 0x205F...0x205F, 0x3000...0x3000])
    private static let verticalSpace = ScalarRangeSet([0x0A...0x0D, 0x85...0x85, 0x2028...0x2029])

    private static let posixClasses: [String: [ClosedRange<UInt32>]] = [
        "alpha": [0x41...0x5A, 0x61...0x7A],
        "digit": [0x30...0x39],
        "alnum": [0x30...0x39, 0x41...0x5A, 0x61...0x7A],
        "upper": [0x41...0x5A],
        "lower": [0x61...0x7A],
        "space": [0x09...0x0D, 0x20...0x20],
        "punct": [0x21...0x2F, 0x3A...0x40, 0x5B...0x60, 0x7B...0x7E],
        "print": [0x20...0x7E],
        "graph": [0x21...0x7E],
        "cntrl": [0x00...0x1F, 0x7F...0x7F],
        "xdigit": [0x30...0x39, 0x41...0x46, 0x61...0x66],
        "blank": [0x09...0x09, 0x20...0x20],
        "word": [0x30...0x39, 0x41...0x5A, 0x5F...0x5F, 0x61...0x7A],
        "ascii": [0x00...0x7F],
    ]

    private var maxValue: UInt32 { mode == .utf8 ? 0x10FFFF : 0xFF }

    private func inverted(_ set: ScalarRangeSet) -> ScalarRangeSet {
        set.inverted(maxValue: maxValue, excluding: mode == .utf8 ? 0xD800...0xDFFF : nil)
    }

    /// A bracket class at `pos` (a `[`).
    private mutating func parseClass() throws(RegexSyntaxError) -> Hir {
        let open = pos
        pos += 1
        var negated = false
        if peek() == UInt8(ascii: "^") {
            negated = true
            pos += 1
        }
        var set = ScalarRangeSet()
        var properties = ScalarRangeSet()  // never folded: \p{…}, POSIX classes, \d \w \s
        var first = true
        while true {
            skipQuoteMarks()
            guard let c = peek() else { throw error(.unclosedClass, open) }
            if quoting {
                let scalar = readCharacter()
                set.insert(scalar...scalar)
                first = false
                continue
            }
            if c == UInt8(ascii: "]") && !first {
                pos += 1
                break
            }
            first = false
            let itemStart = pos
            let item = try parseClassAtom()
            let rangeFollows = peek() == UInt8(ascii: "-") && peek(1) != nil && peek(1) != UInt8(ascii: "]")
            switch item {
            case .character(let low) where rangeFollows:
                pos += 1
                let endStart = pos
                guard case .character(let high) = try parseClassAtom() else {
                    throw error(.classInRange, endStart)
                }
                guard low <= high else { throw error(.invalidClassRange, itemStart) }
                set.insert(low...high)
            case .character(let scalar):
                set.insert(scalar...scalar)
            case .set(let members):
                // POSIX classes and \d \w \s are never folded under `i`, as in PCRE2
                // (their ASCII letters hold both cases already; folding would add U+212A
                // KELVIN SIGN and ſ, which `(?i)[[:ascii:]]` does not match in PCRE2).
                if rangeFollows { throw error(.classInRange, itemStart) }
                properties.insert(contentsOf: members)
            case .property(let members):
                if rangeFollows { throw error(.classInRange, itemStart) }
                properties.insert(contentsOf: members)
            }
        }
        set.normalize()
        if flags.caseInsensitive { addCaseFolds(to: &set) }
        set.insert(contentsOf: properties)
        set.normalize()
        if negated { set = inverted(set) }
        return classHir(set)
    }

    /// One member of a class at `pos`: a character, an escape, or a POSIX class.
    private mutating func parseClassAtom() throws(RegexSyntaxError) -> ClassAtom {
        let start = pos
        let c = pattern[pos]
        if c == UInt8(ascii: "["), let next = peek(1), Self.isPOSIXOpener(next),
            let end = checkPOSIXSyntax(at: pos + 1)
        {
            guard next == UInt8(ascii: ":") else { throw error(.posixCollatingElement, start) }
            var nameBytes = pattern[(pos + 2)..<end]
            var negatedPOSIX = false
            if nameBytes.first == UInt8(ascii: "^") {
                negatedPOSIX = true
                nameBytes = nameBytes.dropFirst()
            }
            var name = String(decoding: nameBytes, as: UTF8.self)
            guard Self.posixClasses[name] != nil else { throw error(.unknownPOSIXClass, start) }
            pos = end + 2
            if flags.ucp, let members = UnicodeProperties.ucpClass(name) {
                // PCRE2_UCP: [:alpha:] is \p{L}, [:upper:] \p{Lu} (unfolded, even under i), …
                return .property(negatedPOSIX ? inverted(members) : members)
            }
            if flags.caseInsensitive && (name == "upper" || name == "lower") { name = "alpha" }
            let ranges = Self.posixClasses[name]!
            let members = ScalarRangeSet(ranges)
            return .set(negatedPOSIX ? inverted(members) : members)
        }
        if c == UInt8(ascii: "\\") {
            if peek(1) == UInt8(ascii: "b") {
                pos += 2
                return .character(0x08)
            }
            return try parseCommonEscape(inClass: true)
        }
        return .character(readCharacter())
    }

    /// PCRE2's `check_posix_syntax`: with `start` at the `:`, `.` or `=` after a `[`,
    /// returns the offset of the matching terminator (`:]`, `.]`, `=]`) when the text
    /// reads as a POSIX construct, nil otherwise.
    private func checkPOSIXSyntax(at start: Int) -> Int? {
        let terminator = pattern[start]
        var i = start + 1
        while pattern.count - i >= 2 {
            if pattern[i] == UInt8(ascii: "\\")
                && (pattern[i + 1] == UInt8(ascii: "]") || pattern[i + 1] == UInt8(ascii: "\\"))
            {
                i += 1
            } else if (pattern[i] == UInt8(ascii: "[") && pattern[i + 1] == terminator)
                || pattern[i] == UInt8(ascii: "]")
            {
                return nil
            } else if pattern[i] == terminator && pattern[i + 1] == UInt8(ascii: "]") {
                return i
            }
            i += 1
        }
        return nil
    }

    private static func isPOSIXOpener(_ c: UInt8) -> Bool {
        c == UInt8(ascii: ":") || c == UInt8(ascii: ".") || c == UInt8(ascii: "=")
    }

    // MARK: Hir building

    private func classHir(_ set: ScalarRangeSet) -> Hir {
        switch mode {
        case .bytes:
            return .byteClass(set.byteRanges)
        case .utf8:
            if set.isASCII { return .byteClass(set.byteRanges) }
            var ranges: [ClosedRange<UInt32>] = []
            for r in set.ranges {
                if r.upperBound < 0xD800 || r.lowerBound > 0xDFFF {
                    ranges.append(r)
                    continue
                }
                if r.lowerBound < 0xD800 { ranges.append(r.lowerBound...0xD7FF) }
                if r.upperBound > 0xDFFF { ranges.append(0xE000...r.upperBound) }
            }
            return .scalarClass(ranges)
        }
    }

    /// `.`: any character, but a newline unless `s`.
    private func dot() -> Hir {
        flags.dotAll ? classHir(inverted(ScalarRangeSet())) : notNewline()
    }

    /// Any character but a newline (`.` without `s`, and `\N`).
    private func notNewline() -> Hir {
        classHir(inverted(ScalarRangeSet([0x0A...0x0A])))
    }

    /// Under `i`: Unicode simple case folding in UTF-8 mode (as PCRE2 with PCRE2_UTF),
    /// ASCII folding in bytes mode (as PCRE2 without it, in the C locale).
    private func addCaseFolds(to set: inout ScalarRangeSet) {
        switch mode {
        case .utf8: set.addSimpleCaseFolds()
        case .bytes: set.addASCIICaseFolds()
        }
    }

    /// One literal character (a scalar in UTF-8 mode, a byte in bytes mode), folded to
    /// a class under `i` when it has another case (a two-byte class for most ASCII
    /// letters; `k` and `s` also match U+212A and U+017F in UTF-8 mode, as in PCRE2).
    private func literal(_ value: UInt32) -> Hir {
        if flags.caseInsensitive, mode == .utf8, ScalarRangeSet.nextInOrbit(value) != value {
            var set = ScalarRangeSet([value...value])
            set.addSimpleCaseFolds()
            return classHir(set)
        }
        if flags.caseInsensitive, value < 0x80, Self.isASCIILetter(UInt8(value)) {
            let upper = UInt8(value) & ~0x20, lower = UInt8(value) | 0x20
            return .byteClass([upper...upper, lower...lower])
        }
        switch mode {
        case .bytes:
            return .literal([UInt8(value)])
        case .utf8:
            return .literal(Array(String(Character(Unicode.Scalar(value)!)).utf8))
        }
    }

    /// Reads one character at `pos`: a whole UTF-8 scalar in UTF-8 mode (the pattern
    /// was validated up front), one byte in bytes mode.
    private mutating func readCharacter() -> UInt32 {
        let lead = pattern[pos]
        guard mode == .utf8, lead >= 0x80 else {
            pos += 1
            return UInt32(lead)
        }
        let length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : 2
        var value = UInt32(lead) & (length == 2 ? 0x1F : length == 3 ? 0x0F : 0x07)
        for k in 1..<length { value = value << 6 | UInt32(pattern[pos + k] & 0x3F) }
        pos += length
        return value
    }

    // MARK: Byte helpers

    private static func isASCIILetter(_ c: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(c | 0x20)
    }

    private static func isASCIIDigit(_ c: UInt8) -> Bool {
        (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(c)
    }

    private static func hexValue(_ c: UInt8) -> UInt32? {
        switch c {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): UInt32(c - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): UInt32(c - UInt8(ascii: "a") + 10)
        case UInt8(ascii: "A")...UInt8(ascii: "F"): UInt32(c - UInt8(ascii: "A") + 10)
        default: nil
        }
    }

    /// The offset of the first byte that does not start a well-formed UTF-8 sequence
    /// (overlong forms, surrogates and values above U+10FFFF are ill-formed), or nil.
    static func firstInvalidUTF8Offset(_ bytes: [UInt8]) -> Int? {
        var i = 0
        while i < bytes.count {
            let b = bytes[i]
            if b < 0x80 { i += 1; continue }
            let length: Int
            var low: UInt8 = 0x80, high: UInt8 = 0xBF
            switch b {
            case 0xC2...0xDF: length = 2
            case 0xE0: length = 3; low = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: length = 3
            case 0xED: length = 3; high = 0x9F
            case 0xF0: length = 4; low = 0x90
            case 0xF1...0xF3: length = 4
            case 0xF4: length = 4; high = 0x8F
            default: return i
            }
            guard i + length <= bytes.count, (low...high).contains(bytes[i + 1]) else { return i }
            for k in 2..<max(length, 2) where !(0x80...0xBF).contains(bytes[i + k]) { return i }
            i += length
        }
        return nil
    }
}
