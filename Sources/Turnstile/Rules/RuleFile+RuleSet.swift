// A rule set written back as a rules file: what `turnstile rules` prints, so that any
// list the tool can use — the built-in ones, a saved automaton, rules given with -e —
// can be read, edited and given back with `--rules`, judging the same way.

extension RuleFile {
    /// The rules file of `set`: its rules, its threshold and, when it is matched with any
    /// of them, the `-F -i -w` flags; `comments` follow the header fields.
    ///
    /// ```swift
    /// let file = RuleFile(RuleSet.standard)
    /// file.flags?.arguments      // "-F -i -w"
    /// file.threshold             // 6.9523
    /// ```
    ///
    /// What the header cannot say — regex bytes mode — is not in the file;
    /// ``RuleSet/fileNote`` names it.
    public init(_ set: RuleSet, comments: [String] = []) {
        let o = set.options
        let flags = Flags(literal: o.syntax == .literal, caseInsensitive: o.caseInsensitive, wholeWord: o.wholeWord)
        self.init(rules: set.rules, threshold: set.threshold,
                  flags: flags == Flags() ? nil : flags, comments: comments,
                  model: set.model == .sum ? nil : set.model)
    }

    /// Why a rule with `pattern` cannot be written as a line that reads back as the
    /// same rule, or nil when it can: an empty pattern, one with a line feed, or one
    /// that starts with `#` (it would read as a comment).
    public static func unwritableReason(_ pattern: [UInt8]) -> String? {
        if pattern.isEmpty { return "it is empty" }
        if pattern.contains(0x0A) { return "it contains a line feed" }
        if pattern.first == UInt8(ascii: "#") { return "it starts with '#', which a rules file reads as a comment" }
        return nil
    }

    /// The comment lines at the top of a rules file (without `# `), header fields
    /// (`threshold:`, `flags:`) left out: a list's description, to carry over when it is
    /// written again.
    public static func leadingComments(in bytes: [UInt8]) -> [String] {
        var comments: [String] = []
        for rawLine in bytes.split(separator: 0x0A, omittingEmptySubsequences: false) {
            var line = rawLine[...]
            if line.last == 0x0D { line = line.dropLast() }
            if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { continue }
            guard line.first == UInt8(ascii: "#") else { break }
            var text = String(decoding: line.dropFirst(), as: UTF8.self)
            if text.hasPrefix(" ") { text.removeFirst() }
            if text.hasPrefix("threshold:") || text.hasPrefix("flags:") || text.hasPrefix("model:") { continue }
            comments.append(text)
        }
        return comments
    }
}

extension RuleSet {
    /// What a rules file of this set cannot say about how it is matched (regex bytes
    /// mode), as a sentence; nil when the header says it all. (The match kind needs no
    /// saying: a spam filter matches words overlapping and regexes leftmost-first.)
    public var fileNote: String? {
        options.bytesMode && options.syntax == .regex
            ? "made for regex bytes mode: give --bytes with --rules, the header cannot carry it" : nil
    }
}
