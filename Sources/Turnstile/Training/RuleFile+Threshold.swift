// The threshold a rules file proposes (`# threshold: T`, written by `turnstile
// train`), and the default list's own threshold.

extension RuleFile {
    /// The threshold proposed by a `# threshold: T` comment among the comment and
    /// blank lines at the top of a rules file, or nil when there is none.
    ///
    /// ```swift
    /// RuleFile.proposedThreshold(in: Array("# threshold: 2.5\nwin\t1\n".utf8))   // 2.5
    /// ```
    public static func proposedThreshold(in bytes: [UInt8]) -> Double? {
        for rawLine in bytes.split(separator: 0x0A, omittingEmptySubsequences: false) {
            var line = rawLine[...]
            if line.last == 0x0D { line = line.dropLast() }
            if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { continue }
            guard line.first == UInt8(ascii: "#") else { return nil }
            let text = String(decoding: line.dropFirst(), as: UTF8.self)
            let trimmed = text.drop { $0 == " " }
            if trimmed.hasPrefix("threshold:") {
                let value = trimmed.dropFirst("threshold:".count).drop { $0 == " " }
                let number = value.prefix { !$0.isWhitespace }
                if let t = Double(number), t.isFinite { return t }
                return nil
            }
        }
        return nil
    }
}

extension DefaultSpamList {
    /// The built-in list's own threshold: its `# threshold:` line (1 when it has
    /// none). `turnstile filter` uses it when `--threshold` is not given.
    public static let threshold: Double = RuleFile.proposedThreshold(in: Array(source.utf8)) ?? 1
}
