/// What the inputs hold: plain records (cut by a ``RecordDelimiter``) or mail.
///
/// `turnstile`'s `--format`. In the mail formats each record is one message: its
/// original bytes are what is passed through or held back, and its verdict comes from
/// the decoded parts (``MailMessage``, ``MailJudge``).
///
/// ```swift
/// RecordFormat.mbox.delimiter(lines: .line)    // .mbox
/// RecordFormat.eml.delimiter(lines: .line)     // .none: each file is one message
/// RecordFormat.lines.delimiter(lines: .nul)    // .nul: --delimiter as given
/// ```
public enum RecordFormat: String, Sendable, Hashable, CaseIterable {
    /// Records cut by `--delimiter` (lines by default): text as today.
    case lines
    /// An mbox file (mboxrd or mboxo): messages separated by `From ` lines.
    case mbox
    /// Each file is one message (RFC 5322, `.eml`).
    case eml
    /// A Maildir folder: each file under `cur/` and `new/` is one message.
    case maildir

    /// `true` for the mail formats.
    public var isMail: Bool { self != .lines }

    /// The record delimiter the format reads with; `lines` is the `--delimiter` given.
    public func delimiter(lines: RecordDelimiter) -> RecordDelimiter {
        switch self {
        case .lines: return lines
        case .mbox: return .mbox
        case .eml, .maildir: return .none
        }
    }
}
