// The tokens `turnstile train --format mbox|eml|maildir` learns from a message: the
// words of the decoded body text (subject included, as plain rules see it) and, as
// scoped rules (MailScope), the words of the subject, the From field and the URIs —
// "subject:free", "from:hotmail", "uri:click". Each token is exactly what one
// `-F -w -i` rule with that prefix matches, so a word counts in training where
// `filter` would find it.

/// Tokenizes decoded messages for training.
///
/// ```swift
/// let message = MailMessage(parsing: Array("Subject: Free pills\r\n\r\nBuy now at http://x.example".utf8))
/// MailTokens.tokens(of: message).map { String(decoding: $0, as: UTF8.self) }
/// // ["at", "buy", "example", "free", "http", "now", "pills", "subject:free", "subject:pills", "uri:example", "uri:http", "uri:x", "x"]
/// ```
///
/// - Complexity: O(decoded bytes).
public enum MailTokens {
    /// The parts whose words become scoped tokens, besides the body.
    public static let scopedParts: [MailScope.Part] = [
        .header(Array("subject".utf8)), .header(Array("from".utf8)), .uri,
    ]

    /// The distinct tokens of `message`, sorted bytewise.
    public static func tokens(of message: MailMessage) -> [[UInt8]] {
        var tokens = WordTokenizer.matchableWords(in: message.body)
        for part in scopedParts {
            let prefix = MailScope.prefix(for: part)
            for word in WordTokenizer.matchableWords(in: MailScope.text(of: part, in: message)) {
                tokens.append(prefix + word)
            }
        }
        return tokens.sorted { $0.lexicographicallyPrecedes($1) }
    }
}
