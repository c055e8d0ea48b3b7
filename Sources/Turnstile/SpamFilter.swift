/// A spam filter: weighted rules, a threshold, and a verdict per record.
///
/// A record's score is the sum of the weights of the *distinct* rules that match in
/// it (each rule counts once per record, however often it occurs); the record is spam
/// when the score reaches the threshold. With literal rules every occurrence counts
/// (overlapping matching), so "cash" and "cash prize" both score in "cash prize";
/// regex rules are leftmost-first, and a record with a match is searched again
/// rule by rule so that a rule hidden by another's match still counts.
///
/// ```swift
/// let filter = try SpamFilter.standard()          // the built-in word list
/// let verdict = filter.verdict(for: Array("URGENT! Claim your prize now".utf8))
/// verdict.isSpam    // true
/// verdict.score     // sum of the distinct rules' weights
/// ```
///
/// - Complexity: building is the matcher's build; judging a record is O(record bytes
///   + matches).
public struct SpamFilter: Sendable {
    /// One rule: a pattern and the weight it adds to a record's score.
    public struct Rule: Sendable, Hashable {
        public var pattern: [UInt8]
        public var weight: Double

        public init(pattern: [UInt8], weight: Double = 1) {
            self.pattern = pattern
            self.weight = weight
        }

        public init(_ pattern: String, weight: Double = 1) {
            self.init(pattern: Array(pattern.utf8), weight: weight)
        }
    }

    /// The judgement of one record.
    public struct Verdict: Sendable, Hashable {
        public var isSpam: Bool
        public var score: Double
        /// The matches in the record, offsets relative to the record.
        public var matches: [Match]
    }

    /// Adds up the weights of the distinct rules seen in the current record, without
    /// allocating per record: drive it with ``beginRecord()`` and ``add(pattern:)``.
    public struct Scorer: Sendable {
        @usableFromInline let weights: [Double]
        /// `lastRecord[p] == record` ⇔ rule p already counted in the current record.
        @usableFromInline var lastRecord: [Int]
        @usableFromInline var record = 0
        @usableFromInline var total: Double = 0
        /// The current record's score so far.
        public var score: Double { total }

        public init(weights: [Double]) {
            self.weights = weights
            self.lastRecord = [Int](repeating: 0, count: weights.count)
        }

        /// Starts a new record with score 0.
        @inlinable public mutating func beginRecord() {
            record &+= 1
            total = 0
        }

        /// Counts rule `pattern` for the current record unless it already counted.
        @inlinable public mutating func add(pattern: Int) {
            if lastRecord[pattern] != record {
                lastRecord[pattern] = record
                total += weights[pattern]
            }
        }
    }

    /// The rules, by pattern id.
    public let rules: [Rule]
    /// A record whose score is at least this is spam.
    public let threshold: Double
    /// The matcher over the rules' patterns.
    public let matcher: Matcher
    /// One matcher per rule, for regex rule sets of more than one rule: the combined
    /// automaton reports leftmost-first matches, so a rule whose matches overlap a
    /// higher-priority rule's would go unseen; these find it. Empty otherwise.
    let singleRuleMatchers: [Matcher]

    /// Builds a filter. With literal syntax the match kind is forced to overlapping so
    /// that every rule that occurs counts.
    public init(rules: [Rule], options: Matcher.Options, threshold: Double = 1) throws(TurnstileError) {
        var options = options
        if options.syntax == .literal { options.matchKind = .overlapping }
        self.rules = rules
        self.threshold = threshold
        self.matcher = try Matcher(bytePatterns: rules.map(\.pattern), options: options)
        if options.syntax == .regex, rules.count > 1 {
            var singles: [Matcher] = []
            for rule in rules { singles.append(try Matcher(bytePatterns: [rule.pattern], options: options)) }
            singleRuleMatchers = singles
        } else {
            singleRuleMatchers = []
        }
    }

    /// `true` when ``completeMatches(in:found:into:)`` may add matches: regex rule sets
    /// of more than one rule.
    public var needsCompletion: Bool { !singleRuleMatchers.isEmpty }

    /// Appends to `matches` the matches of every rule that `found` (the matcher's
    /// matches in `record`) does not already include, so each rule that occurs in the
    /// record is counted. Does nothing for literal rule sets (their matcher reports
    /// every occurrence) or when `found` is empty (then no rule matches at all).
    ///
    /// - Complexity: O(rules × record bytes) for a regex record with a match; O(1) otherwise.
    public func completeMatches(in record: UnsafeBufferPointer<UInt8>, found: ArraySlice<Match>, into matches: inout [Match]) {
        guard !singleRuleMatchers.isEmpty, !found.isEmpty else { return }
        var seen = [Bool](repeating: false, count: rules.count)
        for m in found { seen[m.pattern] = true }
        for (id, single) in singleRuleMatchers.enumerated() where !seen[id] {
            let start = matches.count
            single.appendMatches(in: record, to: &matches)
            for k in start..<matches.count { matches[k].pattern = id }
        }
    }

    /// The options of the built-in list: literal words, whole words, ASCII case-insensitive.
    public static var standardOptions: Matcher.Options {
        var options = Matcher.Options()
        options.syntax = .literal
        options.caseInsensitive = true
        options.wholeWord = true
        return options
    }

    /// The filter built from ``DefaultSpamList`` with ``standardOptions``.
    public static func standard(threshold: Double = 1) throws(TurnstileError) -> SpamFilter {
        try SpamFilter(rules: DefaultSpamList.rules, options: standardOptions, threshold: threshold)
    }

    /// A scorer over these rules' weights.
    public func makeScorer() -> Scorer { Scorer(weights: rules.map(\.weight)) }

    /// Judges one record.
    public func verdict(for record: [UInt8]) -> Verdict {
        var matches = matcher.matches(in: record)
        if needsCompletion {
            let found = matches
            record.withUnsafeBufferPointer { completeMatches(in: $0, found: found[...], into: &matches) }
        }
        var scorer = makeScorer()
        scorer.beginRecord()
        for m in matches { scorer.add(pattern: m.pattern) }
        return Verdict(isSpam: scorer.score >= threshold, score: scorer.score, matches: matches)
    }

    /// Judges one record given as a string.
    public func verdict(for record: String) -> Verdict { verdict(for: Array(record.utf8)) }
}

/// Reads rule files: one `pattern<TAB>weight` per line (the weight is optional and
/// defaults to 1), `#` comment lines and blank lines ignored, a `\r` before the line
/// end dropped.
///
/// ```swift
/// let rules = try RuleFile.parse(Array("# spam words\nwinner\t2\nfree entry\n".utf8), source: "rules.txt")
/// // [winner (2), free entry (1)]
/// ```
public enum RuleFile {
    /// The rules in `bytes`; `source` names the file in error messages.
    public static func parse(_ bytes: [UInt8], source: String) throws(TurnstileError) -> [SpamFilter.Rule] {
        var rules: [SpamFilter.Rule] = []
        var lineNumber = 0
        for rawLine in bytes.split(separator: 0x0A, omittingEmptySubsequences: false) {
            lineNumber += 1
            var line = rawLine[...]
            if line.last == 0x0D { line = line.dropLast() }
            if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { continue }
            if line.first == UInt8(ascii: "#") { continue }
            var pattern = line
            var weight = 1.0
            if let tab = line.lastIndex(of: 0x09) {
                let text = String(decoding: line[(tab + 1)...], as: UTF8.self)
                    .trimmingSpaces()
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
            rules.append(SpamFilter.Rule(pattern: Array(pattern), weight: weight))
        }
        return rules
    }
}

extension String {
    fileprivate func trimmingSpaces() -> String {
        var s = Substring(self)
        while s.first == " " { s = s.dropFirst() }
        while s.last == " " { s = s.dropLast() }
        return String(s)
    }
}
