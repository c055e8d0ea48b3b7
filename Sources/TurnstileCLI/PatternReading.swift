import RegexAutomata
import Turnstile
import CLocaleClasses

/// How a command reads its patterns: `match` reads regexes in the parser's own syntax
/// (an ERE with Perl's classes), `grep` reads GNU grep's BRE (the default) or ERE (`-E`)
/// and follows the locale as grep does; `-F` makes them literal words for both, `-P`
/// PCRE2's syntax (``PerlPatterns``).
///
/// GNU patterns are rewritten into the parser's syntax once, before the automaton is
/// built (``GNURegex``), so the rest of the run is the same for both commands.
struct PatternReading {
    enum Syntax: Equatable {
        /// The regex parser's syntax (`match`, `match -E`).
        case parser
        /// GNU's BRE or ERE (`grep`, `grep -E`, `match -G`).
        case gnu(GNURegex.Dialect)
        /// Literal words (`-F`).
        case fixed
        /// PCRE2's syntax (`-P`): the parser's, one pattern, what a finite automaton
        /// cannot run refused in one sentence (``PerlPatterns``).
        case perl
    }

    var syntax: Syntax
    /// Whether every byte is a character (grep in the C locale, or any locale whose
    /// character set is not UTF-8): `.` matches any byte, classes and `-i` are ASCII.
    var bytesMode = false
    /// `turnstile grep` (not `match`): lines are read whole up to 4 GiB, as GNU grep
    /// reads them, unless `--max-record-bytes` says otherwise.
    var isGrep = false

    /// `match`: the parser's ERE unless `-G` (GNU BRE) or `-F`.
    init(match grep: GrepOptions, fixedStrings: Bool) throws {
        try Self.checkOneMatcher(grep, fixedStrings: fixedStrings)
        syntax = fixedStrings ? .fixed : grep.basicRegexp ? .gnu(.basic) : grep.perlRegexp ? .perl : .parser
    }

    /// `grep`: GNU's BRE unless `-E` or `-F`, in the locale's character set.
    init(grep: GrepOptions, fixedStrings: Bool) throws {
        try Self.checkOneMatcher(grep, fixedStrings: fixedStrings)
        syntax = fixedStrings ? .fixed : grep.extendedRegexp ? .gnu(.extended) : grep.perlRegexp ? .perl : .gnu(.basic)
        bytesMode = !Self.localeIsUTF8()
        isGrep = true
        if bytesMode, let charset = Self.unsupportedMultibyteCharset() {
            printError("\(programName): warning: the locale's character set \(charset) is not supported: "
                       + "every byte is read as one character, as under LC_ALL=C (use a UTF-8 locale)")
        }
    }

    /// grep refuses two different matchers (`-E -F`, `-P -E`) rather than picking one.
    private static func checkOneMatcher(_ grep: GrepOptions, fixedStrings: Bool) throws {
        if [grep.extendedRegexp, grep.basicRegexp, grep.perlRegexp, fixedStrings].filter({ $0 }).count > 1 {
            throw CommandFailure("conflicting matchers specified")
        }
    }

    /// The longest record kept in memory: `--max-record-bytes`, else 16 MiB. A longer
    /// record is still judged whole, read in pieces (RecordReader+LongRecords.swift),
    /// unless the output `listsMatches` (`-o`, colour, offsets, JSON, match counts):
    /// then the default is 4 GiB, as far as a line needs, as grep and rg read lines.
    func maxRecordBytes(_ stream: StreamOptions, listsMatches: Bool) -> Int {
        stream.maxRecordBytesOption ?? (listsMatches ? 1 << 32 : RecordReader.defaultMaxRecordBytes)
    }

    /// The locale's character set when it is multibyte and not UTF-8 (EUC-JP, GB18030,
    /// Shift_JIS, Big5…): grep reads characters of several bytes there, turnstile reads
    /// bytes as under C and says so once. Call after ``localeIsUTF8()`` (which sets the
    /// locale).
    static func unsupportedMultibyteCharset() -> String? {
        guard __ctype_get_mb_cur_max() > 1, let codeset = nl_langinfo(nl_item(CODESET)) else { return nil }
        let name = String(cString: codeset)
        return name == "UTF-8" ? nil : name
    }

    /// Whether the locale's character set is UTF-8, as grep decides it: `LC_ALL`, then
    /// `LC_CTYPE`, then `LANG`; a locale that is not installed is the C locale.
    static func localeIsUTF8() -> Bool {
        guard setlocale(LC_CTYPE, "") != nil, let codeset = nl_langinfo(nl_item(CODESET)) else { return false }
        return String(cString: codeset) == "UTF-8"
    }

    /// `set` with its regexes rewritten from GNU's syntax and the locale's mode applied;
    /// GNU's warnings are printed as grep prints them. A set of literal words, or one
    /// in the parser's syntax, is returned as it is (bar the mode).
    func translated(_ set: RuleSet, nullData: Bool) throws -> RuleSet {
        var set = set
        if bytesMode {
            set.options.bytesMode = true
            set.options.unicodeWords = false
        }
        if syntax == .perl, set.options.syntax == .regex {
            return try PerlPatterns.checked(set)
        }
        // GNU grep reads a list of plain words as fixed strings whatever the flag
        // (grep -f with 10,000 words and no -F). Plain words in the parser's syntax
        // (`match`) are the search strategy's to find (SearchStrategy+Choice.swift).
        guard case .gnu(let dialect) = syntax, set.options.syntax == .regex else { return set }
        if !set.rules.isEmpty, set.rules.allSatisfy({ Self.isPlainWord($0.pattern, dialect: dialect) }) {
            // Under -i in UTF-8, `s` also matches `ſ` in GNU grep (towupper(ſ) is `S`):
            // a few such words stay regexes, whose plain words the strategy spells in
            // every Unicode case (the literal engines fold ASCII words in ASCII). Not a
            // long list: under -w its regex outgrows the DFA's limits (`grep -iw -f` of
            // 1,000 words), so it keeps ASCII folding. Not for `k`: GNU grep's `-i k`
            // does not match U+212A KELVIN SIGN.
            let foldsBeyondASCII = set.options.caseInsensitive && !bytesMode && set.rules.count <= Self.fewWords
                && set.rules.contains { $0.pattern.contains { $0 | 0x20 == UInt8(ascii: "s") } }
            if !foldsBeyondASCII { set.options.syntax = .literal }
            return set
        }
        for i in set.rules.indices {
            let t = try GNURegex.translate(set.rules[i].pattern, dialect: dialect, bytesMode: bytesMode,
                                           dotMatchesNewline: nullData, classMembers: LocaleClasses.members,
                                           equivalents: LocaleClasses.equivalents)
            for warning in t.warnings { printError("\(programName): warning: \(warning)") }
            set.rules[i].pattern = t.pattern
        }
        return set
    }
}

extension PatternReading {
    /// The most plain words `-i` spells with `ſ` for `s` (a regex each under `-w`).
    static let fewWords = 16

    /// Whether `pattern` means itself in `dialect`: no byte that is special anywhere in
    /// it (a `{` or `+` is plain in a BRE, special in an ERE).
    static func isPlainWord(_ pattern: [UInt8], dialect: GNURegex.Dialect) -> Bool {
        let special: Set<UInt8> = dialect == .basic ? Set("\\.[]*^$".utf8) : Set("\\.[]*^$+?{}()|".utf8)
        return !pattern.contains(where: special.contains)
    }
}

/// The locale's character classes (`iswctype`), as code point ranges: what `[[:alpha:]]`,
/// `\w` and `\s` mean to grep in a UTF-8 locale. Each class is worked out once, when a
/// pattern first names it (a pass over every code point, a few milliseconds).
enum LocaleClasses {
    nonisolated(unsafe) private static var cache: [String: [ClosedRange<UInt32>]] = [:]

    static func members(_ name: String) -> [ClosedRange<UInt32>] {
        if let known = cache[name] { return known }
        var ranges: [ClosedRange<UInt32>] = []
        // wctype(3) and iswctype(3) through CLocaleClasses (the Swift module of the C
        // library leaves out <wctype.h>).
        let type = ts_wctype(name)
        guard type != 0 else { return ranges }
        var start: UInt32?
        for c in UInt32(0)...0x110000 {
            let member = c < 0x110000 && !(0xD800...0xDFFF).contains(c) && ts_iswctype(c, type) != 0
            if member, start == nil { start = c }
            if !member, let s = start {
                ranges.append(s...(c - 1))
                start = nil
            }
        }
        cache[name] = ranges
        return ranges
    }

    /// The characters the locale's collation puts in the equivalence class of
    /// `character` (its UTF-8 bytes): what `[[=e=]]` means to grep (in `en_US.UTF-8`
    /// `e`, `é`, `è`, `ê`, `ë`…; in `C.UTF-8` `e` alone). The C library's own regex
    /// (`regcomp` of `[[=c=]]`) is asked about every code point, once per character
    /// (about a second in a debug build; only patterns with `[=c=]` pay it).
    /// Nil when the locale has no such collating element (grep: "Invalid collation
    /// character").
    static func equivalents(_ character: [UInt8]) -> [ClosedRange<UInt32>]? {
        // Equivalence classes are the collation's (LC_COLLATE), as in grep.
        guard setlocale(LC_COLLATE, "") != nil else { return [] }
        var regex = regex_t()
        let source = Array("[[=".utf8) + character + Array("=]]".utf8) + [0]
        let compiled = source.withUnsafeBufferPointer { p in
            p.baseAddress!.withMemoryRebound(to: CChar.self, capacity: p.count) { regcomp(&regex, $0, REG_NOSUB) }
        }
        // 3 is REG_ECOLLATE (glibc's reg_errcode_t, which Swift does not import).
        guard compiled == 0 else { return compiled == 3 ? nil : [] }
        defer { regfree(&regex) }
        var ranges: [ClosedRange<UInt32>] = []
        var start: UInt32?
        var text = [CChar](repeating: 0, count: 5)
        for c in UInt32(1)...0x110000 {
            var member = false
            if c < 0x110000, !(0xD800...0xDFFF).contains(c), let scalar = Unicode.Scalar(c) {
                var n = 0
                for byte in UTF8.encode(scalar)! {
                    text[n] = CChar(bitPattern: byte)
                    n += 1
                }
                text[n] = 0
                member = regexec(&regex, text, 0, nil, 0) == 0
            }
            if member, start == nil { start = c }
            if !member, let s = start {
                ranges.append(s...(c - 1))
                start = nil
            }
        }
        return ranges
    }
}
