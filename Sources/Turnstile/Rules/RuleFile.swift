// The text form of a rule list, read and written in one place: `turnstile filter
// --rules`, `train`'s output, the default list and the tests all go through it.

/// A rules file: header fields, then one weighted rule per line.
///
/// The format, line by line (bytes; a `\r` before the line end is dropped):
/// - `pattern<TAB>weight` — a rule; the weight is optional (default 1) and the last
///   TAB separates it, so a pattern may contain TABs when a weight follows.
/// - `# …` — a comment; blank lines are ignored.
/// - Header fields are comments among the comment and blank lines at the top:
///   `# threshold: T` (the threshold the list was made for) and `# flags: -F -i -w`
///   (the matcher flags it was made for: literal, ASCII case-insensitive, whole words)
///   and `# model: chi-square` (how the weights combine, ``ScoreModel``; none: `sum`).
///
/// ```swift
/// let file = try RuleFile(parsing: Array("# threshold: 2\nwinner\t2\nfree entry\n".utf8), source: "rules.txt")
/// file.threshold          // 2
/// file.rules              // [winner (2), free entry (1)]
/// print(file.text)        // the same list, written back
/// ```
///
/// - Complexity: parsing and writing are O(file bytes).
public struct RuleFile: Sendable, Hashable {
    /// The matcher flags a list was made for, as `turnstile`'s options spell them.
    public struct Flags: Sendable, Hashable {
        /// `-F`: patterns are literal strings, not regexes.
        public var literal: Bool
        /// `-i`: ASCII case-insensitive.
        public var caseInsensitive: Bool
        /// `-w`: whole words only.
        public var wholeWord: Bool

        public init(literal: Bool = false, caseInsensitive: Bool = false, wholeWord: Bool = false) {
            self.literal = literal
            self.caseInsensitive = caseInsensitive
            self.wholeWord = wholeWord
        }

        /// The flags as options: `-F -i -w`, or empty.
        public var arguments: String {
            [literal ? "-F" : nil, caseInsensitive ? "-i" : nil, wholeWord ? "-w" : nil]
                .compactMap { $0 }.joined(separator: " ")
        }

        /// Reads `-F -i -w` (any order, also combined as `-Fiw`); nil for anything else.
        public init?(arguments: String) {
            self.init()
            for word in arguments.split(separator: " ") {
                guard word.hasPrefix("-"), word.count > 1 else { return nil }
                for c in word.dropFirst() {
                    switch c {
                    case "F": literal = true
                    case "i": caseInsensitive = true
                    case "w": wholeWord = true
                    default: return nil
                    }
                }
            }
        }
    }

    /// The rules, in file order (a rule's index is its pattern id).
    public var rules: [Rule]
    /// The `# threshold:` header field, if any.
    public var threshold: Double?
    /// The `# flags:` header field, if any.
    public var flags: Flags?
    /// The `# model:` header field (``ScoreModel``), if any: none is `sum`.
    public var model: ScoreModel?
    /// Comment lines written after the header fields (without the leading `# `).
    public var comments: [String]

    public init(rules: [Rule], threshold: Double? = nil, flags: Flags? = nil, comments: [String] = [],
                model: ScoreModel? = nil) {
        self.model = model
        self.rules = rules
        self.threshold = threshold
        self.flags = flags
        self.comments = comments
    }

    // MARK: Reading

    /// Reads a rules file; `source` names it in error messages. Comments other than
    /// the header fields are not kept.
    ///
    /// - Throws: ``TurnstileError`` (`invalidRule`, naming the source and line) for a
    ///   weight that is not a finite number, an empty pattern, or a `# flags:` field
    ///   with other options than `-F`, `-i` and `-w`.
    public init(parsing bytes: [UInt8], source: String) throws(TurnstileError) {
        self.init(rules: [])
        var lineNumber = 0
        var inHeader = true
        for rawLine in bytes.split(separator: 0x0A, omittingEmptySubsequences: false) {
            lineNumber += 1
            var line = rawLine[...]
            if line.last == 0x0D { line = line.dropLast() }
            if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { continue }
            if line.first == UInt8(ascii: "#") {
                if inHeader, let (name, value) = Self.headerField(line) {
                    switch name {
                    case "threshold":
                        if threshold == nil, let t = Self.number(value) { threshold = t }
                    case "flags":
                        guard let f = Flags(arguments: value) else {
                            throw TurnstileError(.invalidRule(
                                source: source, line: lineNumber,
                                message: "the flags \"\(value)\" are not among -F, -i and -w"))
                        }
                        flags = f
                    case "model":
                        guard let m = ScoreModel(header: value) else {
                            throw TurnstileError(.invalidRule(
                                source: source, line: lineNumber,
                                message: "the model \"\(value)\" is neither sum nor chi-square"))
                        }
                        model = m
                    default:
                        break
                    }
                }
                continue
            }
            inHeader = false
            rules.append(try Self.rule(line, source: source, lineNumber: lineNumber))
        }
    }

    /// The rules in `bytes` (see ``init(parsing:source:)``).
    public static func parse(_ bytes: [UInt8], source: String) throws(TurnstileError) -> [Rule] {
        try RuleFile(parsing: bytes, source: source).rules
    }

    /// The `# threshold: T` header field of a rules file, or nil when there is none
    /// (or it is not a finite number). Reads only the header, never fails.
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
            if let (name, value) = headerField(line), name == "threshold" { return number(value) }
        }
        return nil
    }

    /// `name` and `value` of a `# name: value` comment line (spaces around both
    /// trimmed, the name lowercase letters only).
    private static func headerField(_ line: ArraySlice<UInt8>) -> (String, String)? {
        let text = String(decoding: line.dropFirst(), as: UTF8.self).drop { $0 == " " }
        guard let colon = text.firstIndex(of: ":") else { return nil }
        let name = text[..<colon]
        guard !name.isEmpty, name.allSatisfy({ $0 >= "a" && $0 <= "z" }) else { return nil }
        let value = text[text.index(after: colon)...].drop { $0 == " " }
        return (String(name), String(value))
    }

    /// The number at the start of `value` (up to the first whitespace), if finite.
    private static func number(_ value: String) -> Double? {
        guard let t = Double(value.prefix { !$0.isWhitespace }), t.isFinite else { return nil }
        return t
    }

    /// One `pattern<TAB>weight` line.
    private static func rule(_ line: ArraySlice<UInt8>, source: String, lineNumber: Int) throws(TurnstileError) -> Rule {
        var pattern = line
        var weight = 1.0
        if let tab = line.lastIndex(of: 0x09) {
            var text = Substring(String(decoding: line[(tab + 1)...], as: UTF8.self))
            while text.first == " " { text = text.dropFirst() }
            while text.last == " " { text = text.dropLast() }
            guard let w = Double(text), w.isFinite else {
                throw TurnstileError(.invalidRule(
                    source: source, line: lineNumber, message: "the weight \"\(text)\" is not a number"))
            }
            weight = w
            pattern = line[..<tab]
        }
        if pattern.isEmpty {
            throw TurnstileError(.invalidRule(source: source, line: lineNumber, message: "the pattern is empty"))
        }
        return Rule(pattern: Array(pattern), weight: weight)
    }

    // MARK: Writing

    /// The file's bytes: the header fields, the comments, then one rule per line, each
    /// pattern byte for byte (patterns need not be UTF-8). Numbers are written with
    /// `decimals` decimals when given, else in the shortest form that reads back exactly.
    public func bytes(thresholdDecimals: Int? = nil, weightDecimals: Int? = nil) -> [UInt8] {
        var out: [UInt8] = []
        if let threshold { out += Self.thresholdLine(Self.format(threshold, decimals: thresholdDecimals)).utf8 }
        if let flags { out += "# flags: \(flags.arguments)\n".utf8 }
        if let model { out += "# model: \(model.headerName)\n".utf8 }
        for comment in comments { out += (comment.isEmpty ? "#\n" : "# \(comment)\n").utf8 }
        for rule in rules {
            out += rule.pattern
            out += "\t\(Self.format(rule.weight, decimals: weightDecimals))\n".utf8
        }
        return out
    }

    /// The file as text (``bytes(thresholdDecimals:weightDecimals:)`` decoded as UTF-8;
    /// write ``bytes(thresholdDecimals:weightDecimals:)`` when patterns may not be UTF-8).
    public func text(thresholdDecimals: Int? = nil, weightDecimals: Int? = nil) -> String {
        String(decoding: bytes(thresholdDecimals: thresholdDecimals, weightDecimals: weightDecimals), as: UTF8.self)
    }

    /// ``text(thresholdDecimals:weightDecimals:)`` with the shortest exact numbers.
    public var text: String { text() }

    /// The `# threshold: T` header line, `T` as written.
    public static func thresholdLine(_ threshold: String) -> String { "# threshold: \(threshold)\n" }

    /// One rule line, the weight as written (for UTF-8 patterns; see ``bytes(thresholdDecimals:weightDecimals:)``).
    public static func ruleLine(_ pattern: [UInt8], weight: String) -> String {
        "\(String(decoding: pattern, as: UTF8.self))\t\(weight)\n"
    }

    private static func format(_ x: Double, decimals: Int?) -> String {
        guard let decimals else { return ScorePrecision.text(x) }
        return SpamTrainer.fixed(x, decimals: decimals)
    }
}
