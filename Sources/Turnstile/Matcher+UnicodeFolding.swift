// Literal words under `-i` beyond ASCII: the literal engines (KMP, Aho-Corasick) fold
// ASCII letters only, so a word list with letters beyond ASCII is searched by the regex
// automaton instead, each word an escaped literal whose letters are Unicode simple case
// folding classes (`école` → `[éÉ]cole` under `i`). The automaton is folded, never the
// text, so every offset is the text's own.

extension Matcher.Options {
    /// `patterns` as escaped regexes with these options switched to regex syntax, when
    /// they are literal words under case-insensitive UTF-8 matching and one of them holds
    /// a byte beyond ASCII (every one valid UTF-8); nil otherwise (the literal engines'
    /// ASCII folding is then exact). Overlapping matching becomes leftmost-first: the spam
    /// filter's one matcher per regex rule then finds every rule that occurs.
    ///
    /// ```swift
    /// var options = Matcher.Options()
    /// options.syntax = .literal
    /// options.caseInsensitive = true
    /// options.unicodeFolded(["école"])?.patterns   // [Array("école".utf8)], as a regex
    /// ```
    public func unicodeFolded(_ patterns: [[UInt8]]) -> (patterns: [[UInt8]], options: Matcher.Options)? {
        guard syntax == .literal, caseInsensitive, !bytesMode,
              patterns.contains(where: { $0.contains { $0 >= 0x80 } }),
              patterns.allSatisfy({ String(validating: $0, as: UTF8.self) != nil }) else { return nil }
        var options = self
        options.syntax = .regex
        options.ucp = false
        if options.matchKind == .overlapping || options.matchKind == .leftmostLongest { options.matchKind = .leftmostFirst }
        let escaped = patterns.map { pattern in
            pattern.flatMap { c -> [UInt8] in
                let plain = c >= 0x80 || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(c)
                    || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(c | 0x20)
                return plain ? [c] : [UInt8(ascii: "\\"), c]
            }
        }
        return (escaped, options)
    }
}
