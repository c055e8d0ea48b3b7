// PCRE2Regex: a compiled libpcre2-8 pattern, the reference matcher Turnstile's
// engines are tested against.
//
// Source: the PCRE2 API (pcre2api(3)) and its global-matching example pcre2demo.c,
// which is also the loop pcre2grep and Perl's //g use. Known limits: only the whole
// match is reported (no capture groups); in UTF mode the haystack must be valid
// UTF-8 (PCRE2_NO_UTF_CHECK on unchecked input is undefined behaviour in PCRE2, so the
// oracle never skips the check on bytes PCRE2 has not validated).

internal import CPCRE2

/// A pattern compiled by libpcre2-8 with the options that make PCRE2 an exact oracle
/// for Turnstile's leftmost-first match boundaries.
///
/// ```swift
/// let regex = try PCRE2Regex(pattern: "a*")
/// try regex.matches(in: "ab")  // [0..<1, 1..<1, 2..<2]
/// ```
///
/// Every pattern is compiled with ``fixedCompileOptions`` (`$` matches only at the
/// very end unless multiline, multiline `^` may match after a final `\n`, `\b` `\w`
/// `\d` are ASCII-only, `\C` is forbidden) and with LF as the only newline, plus
/// whatever ``PCRE2Options`` adds.
///
/// Thread safety: the class is `@unchecked Sendable` because its only native state,
/// the compiled `pcre2_code` (and its JIT code), is written once in `init` and then
/// only read; PCRE2 documents compiled patterns as shareable between threads. Each
/// search creates its own match data and uses no JIT stack of its own (PCRE2 then
/// uses a small stack on the machine stack), so concurrent searches share nothing
/// mutable.
///
/// - Complexity: build: PCRE2 compilation plus optional JIT compilation, roughly
///   linear in the pattern. Search: whatever PCRE2's backtracking matcher costs (it
///   can be exponential for pathological patterns); each search call allocates one
///   match-data block, never one per match.
public final class PCRE2Regex: @unchecked Sendable {
    /// The options the oracle always adds: `PCRE2_DOLLAR_ENDONLY |
    /// PCRE2_ALT_CIRCUMFLEX | PCRE2_NEVER_UCP | PCRE2_NEVER_BACKSLASH_C`.
    public static let fixedCompileOptions: UInt32 =
        PCRE2_DOLLAR_ENDONLY | PCRE2_ALT_CIRCUMFLEX | PCRE2_NEVER_UCP | PCRE2_NEVER_BACKSLASH_C

    /// The pattern as given, in bytes.
    public let pattern: [UInt8]
    /// The options the pattern was compiled with.
    public let options: PCRE2Options
    /// The compiled pattern; never nil, owned by this object, freed in `deinit`, and
    /// never modified after `init` (so it may be read from any thread).
    private let code: OpaquePointer

    /// Compiles `pattern` (bytes; need not be valid UTF-8 in bytes mode).
    ///
    /// ```swift
    /// let regex = try PCRE2Regex(pattern: Array("\\xFF".utf8), options: .init(encoding: .bytes))
    /// ```
    /// - Throws: ``PCRE2Error`` of kind `.compile` (with PCRE2's message and offset)
    ///   or `.jit`.
    /// - Complexity: roughly linear in the pattern length, plus JIT compilation.
    public init(pattern: [UInt8], options: PCRE2Options = PCRE2Options()) throws(PCRE2Error) {
        var flags = Self.fixedCompileOptions | options.rawCompileOptions
        flags |= options.encoding == .utf ? PCRE2_UTF : PCRE2_NEVER_UTF
        if options.caseless { flags |= PCRE2_CASELESS }
        if options.multiline { flags |= PCRE2_MULTILINE }
        if options.dotall { flags |= PCRE2_DOTALL }
        if options.ucp { flags = flags & ~PCRE2_NEVER_UCP | PCRE2_UCP }

        guard let context = pcre2_compile_context_create_8(nil) else {
            let code = Int32(PCRE2_ERROR_NOMEMORY)
            throw PCRE2Error(
                kind: .compile(message: PCRE2Error.message(for: code), offset: 0), pattern: pattern)
        }
        defer { pcre2_compile_context_free_8(context) }
        _ = pcre2_set_newline_8(context, UInt32(PCRE2_NEWLINE_LF))
        if options.rawExtraOptions != 0 {
            _ = pcre2_set_compile_extra_options_8(context, options.rawExtraOptions)
        }

        var errorCode: Int32 = 0
        var errorOffset = 0
        // A zero byte after the pattern gives PCRE2 a valid pointer even for "".
        let terminated = pattern + [0]
        let compiled = terminated.withUnsafeBufferPointer { buffer in
            // SAFETY: buffer holds pattern.count + 1 bytes; PCRE2 reads pattern.count.
            pcre2_compile_8(buffer.baseAddress, pattern.count, flags, &errorCode, &errorOffset, context)
        }
        guard let compiled else {
            throw PCRE2Error(
                kind: .compile(message: PCRE2Error.message(for: errorCode), offset: errorOffset),
                pattern: pattern)
        }
        if options.jit {
            let status = pcre2_jit_compile_8(compiled, UInt32(PCRE2_JIT_COMPLETE))
            if status != 0 {
                pcre2_code_free_8(compiled)
                throw PCRE2Error(
                    kind: .jit(code: status, message: PCRE2Error.message(for: status)), pattern: pattern)
            }
        }
        self.pattern = pattern
        self.options = options
        self.code = compiled
    }

    /// Compiles `pattern` from its UTF-8 bytes.
    ///
    /// ```swift
    /// let regex = try PCRE2Regex(pattern: #"\bcat\b"#, options: .init(caseless: true))
    /// ```
    /// - Throws: ``PCRE2Error`` of kind `.compile` or `.jit`.
    /// - Complexity: as ``init(pattern:options:)-([UInt8],_)``.
    public convenience init(pattern: String, options: PCRE2Options = PCRE2Options()) throws(PCRE2Error) {
        try self.init(pattern: Array(pattern.utf8), options: options)
    }

    deinit {
        pcre2_code_free_8(code)
    }

    /// `true` when PCRE2 was built with JIT support (`pcre2_config(PCRE2_CONFIG_JIT)`).
    public static var isJITAvailable: Bool {
        var available: UInt32 = 0
        // SAFETY: PCRE2_CONFIG_JIT writes one uint32_t.
        _ = pcre2_config_8(UInt32(PCRE2_CONFIG_JIT), &available)
        return available != 0
    }

    // MARK: - The search loop

    /// A readable zero byte for empty haystacks whose buffer has no base address.
    /// Never written after initialisation.
    nonisolated(unsafe) private static let emptySubject: UnsafePointer<UInt8> = {
        let pointer = UnsafeMutablePointer<UInt8>.allocate(capacity: 1)
        pointer.initialize(to: 0)
        return UnsafePointer(pointer)
    }()

    /// Runs PCRE2's global loop over `subject` from `start`, calling `body(start, end)`
    /// for each successive match until it returns `false` or no match is left.
    ///
    /// After an empty match at p the loop retries at p with
    /// `PCRE2_NOTEMPTY_ATSTART | PCRE2_ANCHORED`; if that fails it moves one character
    /// on (one UTF-8 scalar in UTF mode, one byte in bytes mode) and searches again.
    func forEachMatch(
        in subject: UnsafeBufferPointer<UInt8>,
        from start: Int,
        _ body: (Int, Int) -> Bool
    ) -> PCRE2Error? {
        precondition(start >= 0, "start offset must not be negative")
        guard let matchData = pcre2_match_data_create_8(1, nil) else {
            return matchError(Int32(PCRE2_ERROR_NOMEMORY))
        }
        defer { pcre2_match_data_free_8(matchData) }
        // SAFETY: the match data was created with one pair, so the ovector holds two
        // PCRE2_SIZE values and lives until pcre2_match_data_free.
        let ovector = pcre2_get_ovector_pointer_8(matchData)!
        let base = subject.baseAddress ?? Self.emptySubject
        let length = subject.count
        let isUTF = options.encoding == .utf
        let retryEmpty = PCRE2_NOTEMPTY_ATSTART | PCRE2_ANCHORED

        var offset = start
        var retry: UInt32 = 0
        // Set once PCRE2 has validated the haystack from here to its end (the first
        // call checks it); later offsets are match ends or scalar starts, so skipping
        // the check from then on is the use PCRE2 documents as safe.
        var validated: UInt32 = 0
        while true {
            // SAFETY: base points at `length` readable bytes (or the one-byte empty
            // subject when length is 0); offset <= length is checked by PCRE2.
            let status = pcre2_match_8(code, base, length, offset, retry | validated, matchData, nil)
            if status == PCRE2_ERROR_NOMATCH {
                validated = PCRE2_NO_UTF_CHECK
                if retry == 0 { return nil }
                // No non-empty match at the empty match's position: step one character.
                retry = 0
                offset += 1
                if isUTF {
                    while offset < length && base[offset] & 0xC0 == 0x80 { offset += 1 }
                }
                if offset > length { return nil }
                continue
            }
            if status < 0 { return matchError(status) }
            validated = PCRE2_NO_UTF_CHECK
            let (matchStart, matchEnd) = (ovector[0], ovector[1])
            guard matchStart <= matchEnd else {
                // Only possible with \K inside a lookaround (allowed only through the
                // raw extra options); pcre2demo stops here too.
                return PCRE2Error(
                    kind: .match(code: 0, message: "\\K set the match start after its end"),
                    pattern: pattern)
            }
            if !body(matchStart, matchEnd) { return nil }
            retry = matchStart == matchEnd ? retryEmpty : 0
            offset = matchEnd
        }
    }

    private func matchError(_ code: Int32) -> PCRE2Error {
        PCRE2Error(kind: .match(code: code, message: PCRE2Error.message(for: code)), pattern: pattern)
    }
}
