// What could not be decoded in a message, counted rather than fatal: a malformed
// message is judged on what did decode and passed through unchanged, and the counts
// tell the user (`--stats`, `--json`) how much of the input was not what it claimed.

/// Counts of decoding problems, per kind, in one message or summed over many.
///
/// ```swift
/// var total = MailDecodingProblems()
/// total += MailMessage(parsing: Array("Subject: hi\r\n\r\n".utf8)).problems
/// total.total      // 0
/// ```
public struct MailDecodingProblems: Sendable, Hashable {
    /// The kinds of problem, in the order they are reported.
    public enum Kind: Int, Sendable, Hashable, CaseIterable, CustomStringConvertible {
        /// A line in the header section that is neither a field (`Name: value`) nor a
        /// continuation: the header ends there and the rest is read as body.
        case headerLineWithoutColon
        /// A base64 body or encoded word with bytes outside the alphabet or a
        /// length that does not end on a whole byte.
        case brokenBase64
        /// A charset other than UTF-8, US-ASCII, ISO-8859-1/-15 and Windows-1252: the
        /// bytes are kept as they are.
        case unknownCharset
        /// A Content-Transfer-Encoding other than 7bit, 8bit, binary, base64 and
        /// quoted-printable: the bytes are kept as they are.
        case unknownTransferEncoding
        /// A multipart body without a boundary parameter, or whose boundary never
        /// occurs: read as one text part.
        case missingBoundary
        /// A multipart body whose closing boundary (`--b--`) is missing: the last
        /// part runs to the end.
        case missingClosingBoundary
        /// Multipart nesting past ``MailMessage/Limits/maxDepth``: deeper parts are skipped.
        case nestingTooDeep
        /// More parts than ``MailMessage/Limits/maxParts``: the rest are skipped.
        case tooManyParts
        /// The message was longer than the record limit (`--max-record-bytes`) and was
        /// judged on its first bytes.
        case truncated
        /// Bytes before the first `From ` line of an mbox, judged as a message.
        case junkBeforeFirstMessage
        /// Lines ended by a carriage return alone (old Mac OS, some broken
        /// gateways): read as line ends, the message decoded as if they were LF.
        case crLineEnds
        /// More than one kind of line end (LF, CRLF, CR alone) in one message: each
        /// line is read with its own.
        case mixedLineEnds
        /// A header field longer than ``MailMessage/Limits/maxFieldBytes``: read up
        /// to the limit.
        case fieldTooLong

        /// The snake_case name used in JSON and `--stats`.
        public var description: String {
            switch self {
            case .headerLineWithoutColon: return "header_line_without_colon"
            case .brokenBase64: return "broken_base64"
            case .unknownCharset: return "unknown_charset"
            case .unknownTransferEncoding: return "unknown_transfer_encoding"
            case .missingBoundary: return "missing_boundary"
            case .missingClosingBoundary: return "missing_closing_boundary"
            case .nestingTooDeep: return "nesting_too_deep"
            case .tooManyParts: return "too_many_parts"
            case .truncated: return "truncated"
            case .junkBeforeFirstMessage: return "junk_before_first_message"
            case .crLineEnds: return "cr_line_ends"
            case .mixedLineEnds: return "mixed_line_ends"
            case .fieldTooLong: return "field_too_long"
            }
        }
    }

    /// Counts by ``Kind/rawValue``, inline: every input's tally carries one, and an
    /// array here was a heap allocation (and, in the run's generic code, a metadata
    /// lookup) per tally — three per file of a `grep -r`. 32 bits a count keep the
    /// tally small to copy; a run would need 2^31 problems of one kind to wrap.
    private var counts = SIMD16<Int32>()

    public init() {}

    /// The count of one kind.
    public subscript(kind: Kind) -> Int {
        get { Int(counts[kind.rawValue]) }
        set { counts[kind.rawValue] = Int32(truncatingIfNeeded: newValue) }
    }

    /// Counts one problem.
    public mutating func add(_ kind: Kind) { counts[kind.rawValue] &+= 1 }

    /// All problems together.
    public var total: Int { (0..<counts.scalarCount).reduce(0) { $0 + Int(counts[$1]) } }

    /// The kinds that occurred, with their counts, in ``Kind`` order.
    public var nonZero: [(kind: Kind, count: Int)] {
        Kind.allCases.compactMap { self[$0] > 0 ? ($0, self[$0]) : nil }
    }

    public static func += (a: inout MailDecodingProblems, b: MailDecodingProblems) {
        a.counts &+= b.counts
    }

    public static func -= (a: inout MailDecodingProblems, b: MailDecodingProblems) {
        a.counts &-= b.counts
    }
}
