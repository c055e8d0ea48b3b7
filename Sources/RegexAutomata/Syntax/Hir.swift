// Hir: the high-level intermediate representation between the regex parser and the
// Thompson NFA compiler (the name and idea come from Rust's regex-syntax).
//
// The parser resolves everything that depends on syntax or flags before it emits a
// Hir: escapes are decoded, `(?i)` has turned ASCII letters into two-byte classes,
// `(?s)` has chosen what `.` means, `(?m)` has chosen line or text anchors, and
// in UTF-8 mode literals are UTF-8 encoded. So the NFA compiler never sees flags.

/// A regular expression after parsing, free of flags and syntax.
///
/// ```swift
/// // (?i)ab|c*  in bytes mode
/// let hir = Hir.alternation([
///     .concat([.byteClass([0x41...0x41, 0x61...0x61]), .byteClass([0x42...0x42, 0x62...0x62])]),
///     .repetition(.literal([0x63]), min: 0, max: nil, greedy: true),
/// ])
/// ```
public indirect enum Hir: Sendable, Hashable {
    /// Matches the empty string.
    case empty
    /// Matches exactly these bytes, in order (UTF-8 encoded text in UTF-8 mode).
    case literal([UInt8])
    /// Matches one byte in any of these ranges (sorted, non-overlapping, non-adjacent
    /// after normalization; an empty list never matches).
    case byteClass([ClosedRange<UInt8>])
    /// Matches one Unicode scalar in any of these ranges, UTF-8 encoded (UTF-8 mode
    /// only; surrogates U+D800–U+DFFF never match). Sorted and non-overlapping.
    case scalarClass([ClosedRange<UInt32>])
    /// A zero-width assertion.
    case look(Look)
    /// Each item in order.
    case concat([Hir])
    /// The first item that leads to a match wins (leftmost-first priority, left to right).
    case alternation([Hir])
    /// `min` to `max` (nil = unbounded) copies of `sub`; greedy prefers more, lazy fewer.
    case repetition(Hir, min: Int, max: Int?, greedy: Bool)

    /// The zero-width assertions a finite automaton can decide with one byte of
    /// look-behind (the start context) and one byte of look-ahead (delayed matching).
    public enum Look: Sendable, Hashable, CaseIterable {
        /// `\A`, and `^` without `m`: offset 0.
        case textStart
        /// `\z`, and `$` without `m` (PCRE2_DOLLAR_ENDONLY): the end of the haystack.
        case textEnd
        /// `(?m)^`: offset 0 or just after any `\n` (including after a final newline).
        case lineStart
        /// `(?m)$`: just before any `\n`, or the end of the haystack.
        case lineEnd
        /// `\b` with ASCII word bytes `[0-9A-Za-z_]`.
        case wordBoundary
        /// `\B`.
        case notWordBoundary
        /// grep's `\<`: a word byte follows and none precedes.
        case wordStart
        /// grep's `\>`: a word byte precedes and none follows.
        case wordEnd
        /// No word byte precedes (offset 0 or after a non-word byte): the left half of
        /// grep's `-w` rule (regex-automata's `\b{start-half}`).
        case wordStartHalf
        /// No word byte follows (the end or before a non-word byte): the right half of
        /// grep's `-w` rule (`\b{end-half}`).
        case wordEndHalf

        /// Whether the assertion looks at word bytes.
        public var isWordLook: Bool {
            switch self {
            case .wordBoundary, .notWordBoundary, .wordStart, .wordEnd, .wordStartHalf, .wordEndHalf: return true
            case .textStart, .textEnd, .lineStart, .lineEnd: return false
            }
        }
    }
}
