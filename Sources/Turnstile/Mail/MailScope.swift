// Rules scoped to parts of a message, as SpamAssassin's body, header and uri rules:
// a rules-file pattern may start with a scope prefix.
//
//   subject:PATTERN        the decoded Subject
//   from:PATTERN           the decoded From field
//   header:NAME:PATTERN    the decoded values of every field NAME (case-insensitive), one per line
//   uri:PATTERN            the URIs of the body text, one per line
//   fact:PATTERN           the message's facts (MailFacts), one word per line
//   body:PATTERN           the body text (explicitly; for a body pattern that starts with a prefix)
//   PATTERN                the body text: the decoded subject, then the text of each text part
//
// Prefixes are only read in mail mode (`--format mbox|eml|maildir`); plain text input
// matches a pattern as written, as before. The rule options (-F, -i, -w, regex) apply
// to the pattern after the prefix.

/// The part of a message a rule looks at, and the pattern without its prefix.
///
/// ```swift
/// MailScope(rulePattern: Array("header:X-Mailer:outlook".utf8))
/// // part: .header("x-mailer"), pattern: "outlook"
/// ```
public struct MailScope: Sendable, Hashable {
    /// A part of a message.
    public enum Part: Sendable, Hashable {
        /// The body text (subject first).
        case body
        /// The decoded values of the fields with this lowercase name.
        case header([UInt8])
        /// The URIs of the body.
        case uri
        /// The facts about the message (``MailFacts``), one word per line.
        case facts
    }

    public var part: Part
    /// The pattern to match in the part.
    public var pattern: [UInt8]

    /// Reads the scope prefix of a rule's pattern (none: the body).
    public init(rulePattern p: [UInt8]) {
        func strip(_ prefix: String) -> ArraySlice<UInt8>? {
            let bytes = Array(prefix.utf8)
            guard p.count > bytes.count, asciiLowercasedPrefix(p, bytes.count) == bytes else { return nil }
            return p[bytes.count...]
        }
        if let rest = strip("subject:") {
            part = .header(Array("subject".utf8)); pattern = Array(rest)
        } else if let rest = strip("from:") {
            part = .header(Array("from".utf8)); pattern = Array(rest)
        } else if let rest = strip("uri:") {
            part = .uri; pattern = Array(rest)
        } else if let rest = strip("fact:") {
            part = .facts; pattern = Array(rest)
        } else if let rest = strip("body:") {
            part = .body; pattern = Array(rest)
        } else if let rest = strip("header:"), let colon = rest.firstIndex(of: UInt8(ascii: ":")),
                  colon > rest.startIndex, colon + 1 < rest.endIndex {
            part = .header(rest[..<colon].map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 })
            pattern = Array(rest[(colon + 1)...])
        } else {
            part = .body; pattern = p
        }
    }

    /// The prefix that scopes a pattern to `part` (empty for the body).
    public static func prefix(for part: Part) -> [UInt8] {
        switch part {
        case .body: return []
        case .uri: return Array("uri:".utf8)
        case .facts: return Array("fact:".utf8)
        case .header(let name):
            if name == Array("subject".utf8) { return Array("subject:".utf8) }
            if name == Array("from".utf8) { return Array("from:".utf8) }
            return Array("header:".utf8) + name + [UInt8(ascii: ":")]
        }
    }

    /// The text of `part` in `message`.
    public static func text(of part: Part, in message: MailMessage) -> [UInt8] {
        switch part {
        case .body: return message.body
        case .uri: return message.uris
        case .facts: return MailFacts.text(of: message)
        // Header words are read folded as the body's are (MailTextFolding): `subject:premio`
        // fires on "Prêmio".
        case .header(let name): return MailTextFolding.folded(message.values(of: name))
        }
    }
}

func asciiLowercasedPrefix(_ p: [UInt8], _ n: Int) -> [UInt8] {
    p[..<n].map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }
}
