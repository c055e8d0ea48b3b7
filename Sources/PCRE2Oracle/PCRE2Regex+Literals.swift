// Building PCRE2 patterns from literal words, for the literal-automata
// differential tests (KMP and Aho-Corasick against PCRE2's leftmost-first order).

extension PCRE2Regex {
    /// `word` as a PCRE2 pattern that matches exactly its characters.
    ///
    /// Every ASCII character that is not a letter or digit is escaped: printable ones
    /// with a backslash (which PCRE2 defines as "this character, literally"), control
    /// characters as `\xhh`. Letters, digits and non-ASCII scalars stay as they are;
    /// they are literal in both UTF and bytes mode.
    ///
    /// ```swift
    /// PCRE2Regex.escapeLiteral("c++ (v2)")  // #"c\+\+\ \(v2\)"#
    /// ```
    /// - Complexity: O(n) in the length of `word`.
    public static func escapeLiteral(_ word: String) -> String {
        var out = ""
        out.reserveCapacity(word.utf8.count * 2)
        for scalar in word.unicodeScalars {
            let value = scalar.value
            switch value {
            case 0x30...0x39, 0x41...0x5A, 0x61...0x7A, 0x80...:
                out.unicodeScalars.append(scalar)
            case 0x20...0x7E:
                out += "\\"
                out.unicodeScalars.append(scalar)
            default:  // ASCII control characters, including NUL and DEL
                let hex = String(value, radix: 16, uppercase: true)
                out += "\\x" + (hex.count < 2 ? "0" + hex : hex)
            }
        }
        return out
    }

    /// A pattern matching any of `words` literally, preferring earlier words at the
    /// same start (PCRE2's leftmost-first order): `(?:w1|w2|…)`, or with
    /// `wholeWord` `\b(?:w1|w2|…)\b`.
    ///
    /// `\b` is PCRE2's ASCII word boundary (the oracle sets `PCRE2_NEVER_UCP`), so a
    /// word that begins or ends with a non-word character, such as `c++`, needs a word
    /// character beside that end to match as a whole word. An empty list gives `(?!)`,
    /// which never matches; an empty word matches the empty string.
    ///
    /// ```swift
    /// PCRE2Regex.alternation(of: ["a.b", "c++"], wholeWord: false)  // #"(?:a\.b|c\+\+)"#
    /// PCRE2Regex.alternation(of: ["cat"], wholeWord: true)           // #"\b(?:cat)\b"#
    /// ```
    /// - Complexity: O(total length of `words`).
    public static func alternation(of words: [String], wholeWord: Bool) -> String {
        guard !words.isEmpty else { return "(?!)" }
        let body = "(?:" + words.map(escapeLiteral).joined(separator: "|") + ")"
        return wholeWord ? "\\b" + body + "\\b" : body
    }
}
