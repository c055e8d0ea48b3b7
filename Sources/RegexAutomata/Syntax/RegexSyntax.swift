// RegexSyntax: the public entry point of the regex parser (options and `parse`).
// The grammar and the decisions behind it are documented in Parser.swift.

/// The regex syntax front end: options and the parser that turns a pattern into a ``Hir``.
///
/// ```swift
/// var options = RegexSyntax.Options()
/// options.caseInsensitive = true
/// let hir = try RegexSyntax.parse("ab|c*", options: options)
/// ```
public enum RegexSyntax {
    /// How a pattern is read and what its constructs mean.
    ///
    /// Each flag is the starting value of the matching inline flag (`i`, `m`, `s`), which
    /// a pattern can still change with `(?i)`, `(?-i)` or `(?i:…)`.
    ///
    /// ```swift
    /// let options = RegexSyntax.Options(caseInsensitive: true, mode: .bytes)
    /// ```
    public struct Options: Sendable, Hashable {
        /// What one "character" of the pattern and of the haystack is.
        public enum Mode: Sendable, Hashable {
            /// The default: the pattern is Unicode text; `.`, negated classes and classes
            /// with non-ASCII members consume one UTF-8 encoded scalar; `\xHH` is the
            /// scalar U+00HH.
            case utf8
            /// Every construct consumes one byte; the pattern is read byte by byte and
            /// `\xFF` is the byte 0xFF.
            case bytes
        }

        /// `i`: case-insensitive matching (`a` matches `[Aa]`, also inside classes): Unicode
        /// simple case folding in UTF-8 mode (`é` matches `É`, as PCRE2 with PCRE2_UTF), ASCII in bytes mode.
        public var caseInsensitive: Bool
        /// `m`: `^` and `$` match at line starts and ends (newline is `\n` only).
        public var multiLine: Bool
        /// `s`: `.` matches `\n` too.
        public var dotMatchesNewline: Bool
        /// UTF-8 (default) or bytes.
        public var mode: Mode
        /// PCRE2_UCP, also set by a leading `(*UCP)`: `\d \s \w` and the POSIX classes
        /// are Unicode properties (`\w` is `[\p{L}\p{N}_]`, `[:alpha:]` is `\p{L}`, …);
        /// word boundaries are then refused (``RegexSyntaxError/Kind/unicodeWordBoundary``).
        public var ucp: Bool

        /// Creates options; every flag is off and the mode is UTF-8 unless given.
        public init(
            caseInsensitive: Bool = false,
            multiLine: Bool = false,
            dotMatchesNewline: Bool = false,
            mode: Mode = .utf8,
            ucp: Bool = false
        ) {
            self.caseInsensitive = caseInsensitive
            self.multiLine = multiLine
            self.dotMatchesNewline = dotMatchesNewline
            self.mode = mode
            self.ucp = ucp
        }
    }

    /// The deepest nesting of groups and classes the parser accepts (PCRE2's default
    /// parenthesis nesting limit is also 250).
    public static let maxNesting = 250

    /// The largest bound allowed in `{n}`, `{n,}` and `{n,m}`.
    public static let maxRepetitionBound = 1000

    /// Parses `pattern` into a ``Hir`` with every flag, escape and mode resolved.
    ///
    /// The accepted language is a subset of PCRE2's with the same meaning (compiled with
    /// `PCRE2_DOLLAR_ENDONLY | PCRE2_ALT_CIRCUMFLEX`, newline LF, and `PCRE2_UCP` only when asked),
    /// with PCRE2_UTF in UTF-8 mode (so `i` is Unicode simple case folding there, ASCII
    /// in bytes mode). Everything else is a ``RegexSyntaxError``
    /// that names the problem and the byte offset where it starts.
    ///
    /// ```swift
    /// let hir = try RegexSyntax.parse("a+|b")
    /// // .alternation([.repetition(.literal([0x61]), min: 1, max: nil, greedy: true), .literal([0x62])])
    /// ```
    ///
    /// - Complexity: O(*n* + *r*) time for a pattern of *n* bytes, where *r* is the size
    ///   of the class ranges produced (at most a few hundred per class); no backtracking.
    public static func parse(_ pattern: String, options: Options = Options()) throws(RegexSyntaxError) -> Hir {
        try parse(Array(pattern.utf8), options: options)
    }

    /// Parses a pattern given as bytes; in ``Options/Mode/utf8`` mode they must be valid
    /// UTF-8 (otherwise the error is ``RegexSyntaxError/Kind/invalidUTF8``), in
    /// ``Options/Mode/bytes`` mode any bytes are allowed and each is one character.
    ///
    /// ```swift
    /// let hir = try RegexSyntax.parse([0x5C, 0x78, 0x46, 0x46], options: .init(mode: .bytes))  // \xFF
    /// // .literal([0xFF])
    /// ```
    ///
    /// - Complexity: as ``parse(_:options:)-(String,_)``.
    public static func parse(_ pattern: [UInt8], options: Options = Options()) throws(RegexSyntaxError) -> Hir {
        var parser = Parser(pattern: pattern, options: options)
        return try parser.parse()
    }
}
