// Options for compiling a pattern with the PCRE2 oracle.
//
// The oracle always adds the options that make PCRE2's match boundaries the ones
// Turnstile's engines promise (see PCRE2Regex.fixedCompileOptions); the fields here
// are the knobs a test varies.

/// How a ``PCRE2Regex`` is compiled: encoding, flags and JIT.
///
/// ```swift
/// var options = PCRE2Options()
/// options.caseless = true
/// let regex = try PCRE2Regex(pattern: "abc", options: options)
/// ```
///
/// Whatever is set here, the oracle also always compiles with `PCRE2_DOLLAR_ENDONLY`,
/// `PCRE2_ALT_CIRCUMFLEX`, `PCRE2_NEVER_UCP`, `PCRE2_NEVER_BACKSLASH_C` and newline
/// set to LF (see ``PCRE2Regex/fixedCompileOptions``).
public struct PCRE2Options: Sendable, Hashable {
    /// How pattern and haystack bytes are read.
    public enum Encoding: Sendable, Hashable {
        /// UTF-8 (`PCRE2_UTF`): `.` consumes one scalar (1–4 bytes). Haystacks must be
        /// valid UTF-8; searching invalid UTF-8 is a ``PCRE2Error`` of kind `.match`.
        case utf
        /// Bytes (`PCRE2_NEVER_UTF`): every byte is one character, `\xFF` matches
        /// byte 0xFF, and any byte sequence is a valid haystack.
        case bytes
    }

    /// UTF-8 or bytes; the default is `.utf`.
    public var encoding: Encoding
    /// `PCRE2_CASELESS`: case-insensitive matching (ASCII only in bytes mode; in UTF
    /// mode PCRE2 also folds non-ASCII scalars by Unicode case folding).
    public var caseless: Bool
    /// `PCRE2_MULTILINE`: `^` and `$` also match at line starts and before `\n`.
    public var multiline: Bool
    /// `PCRE2_DOTALL`: `.` also matches `\n`.
    public var dotall: Bool
    /// `PCRE2_UCP`: `\\d \\s \\w \\b` and the POSIX classes use Unicode properties
    /// (the one fixed option this drops is `PCRE2_NEVER_UCP`).
    public var ucp: Bool = false
    /// Compile with the JIT (`pcre2_jit_compile`, `PCRE2_JIT_COMPLETE`) when `true`.
    /// Results are identical either way; only speed differs.
    public var jit: Bool
    /// Escape hatch: further `PCRE2_*` compile options, or-ed into the options passed
    /// to `pcre2_compile` (for example `PCRE2_UNGREEDY`, 0x00040000). They cannot
    /// remove the fixed options, so options PCRE2 refuses to combine with those
    /// (such as `PCRE2_LITERAL` or `PCRE2_UCP`) make compilation fail; use
    /// ``PCRE2Regex/escapeLiteral(_:)`` for literal patterns.
    public var rawCompileOptions: UInt32
    /// Escape hatch: `PCRE2_EXTRA_*` options passed to
    /// `pcre2_set_compile_extra_options` (for example `PCRE2_EXTRA_MATCH_WORD`, 0x4).
    public var rawExtraOptions: UInt32

    /// Creates options; every flag defaults to off, the encoding to UTF-8, and the
    /// JIT to on.
    public init(
        encoding: Encoding = .utf,
        caseless: Bool = false,
        multiline: Bool = false,
        dotall: Bool = false,
        jit: Bool = true,
        rawCompileOptions: UInt32 = 0,
        rawExtraOptions: UInt32 = 0
    ) {
        self.encoding = encoding
        self.caseless = caseless
        self.multiline = multiline
        self.dotall = dotall
        self.jit = jit
        self.rawCompileOptions = rawCompileOptions
        self.rawExtraOptions = rawExtraOptions
    }
}
