import LiteralAutomata

/// A spam filter: weighted rules, a threshold, and a verdict per record.
///
/// A record's score is the sum of the weights of the *distinct* rules that match in
/// it (each rule counts once per record, however often it occurs); the record is spam
/// when the score reaches the threshold. ``RecordJudge`` computes every verdict. With literal rules every occurrence counts
/// (overlapping matching), so "cash" and "cash prize" both score in "cash prize";
/// regex rules are leftmost-first, and a record with a match is searched again
/// rule by rule so that a rule hidden by another's match still counts.
///
/// ```swift
/// let filter = try SpamFilter.standard()          // the built-in word list
/// let verdict = filter.verdict(for: Array("URGENT! Claim your prize now".utf8))
/// verdict.isSpam    // true
/// verdict.score     // sum of the distinct rules' weights
/// verdict.hits      // which rules, each once, with its first match
/// ```
///
/// - Complexity: building is the matcher's build; judging a record is O(record bytes
///   + matches).
public struct SpamFilter: Sendable {
    /// One rule (see ``Turnstile/Rule``).
    public typealias Rule = Turnstile.Rule

    /// The judgement of one record (see ``RecordJudge``, which computes it).
    public typealias Verdict = Turnstile.Verdict

    /// The rules, by pattern id.
    public let rules: [Rule]
    /// A record whose score is at least this is spam.
    public let threshold: Double
    /// How the fired rules' weights become the score (``ScoreModel``).
    public let model: ScoreModel
    /// The decimals the weights and threshold carry: scores are compared with the
    /// threshold, and printed, at this precision (see ``ScorePrecision``).
    public let precision: ScorePrecision
    /// The matcher over the rules' patterns.
    public let matcher: Matcher
    /// One matcher per rule, for regex rule sets of more than one rule: the combined
    /// automaton reports leftmost-first matches, so a rule whose matches overlap a
    /// higher-priority rule's would go unseen; these find it. Empty otherwise.
    let singleRuleMatchers: [Matcher]

    /// Builds a filter. With literal syntax the match kind is forced to overlapping so
    /// that every rule that occurs counts.
    public init(rules: [Rule], options: Matcher.Options, threshold: Double = 1,
                model: ScoreModel = .sum) throws(TurnstileError) {
        var options = options
        self.model = model
        // Words under -i with letters beyond ASCII are searched as their case variants
        // (the search strategy's folded-literal-set): the rules keep their words.
        let patterns = rules.map(\.pattern)
        if options.syntax == .literal { options.matchKind = .overlapping }
        self.rules = rules
        self.threshold = threshold
        self.precision = ScorePrecision(model: model, weights: rules.lazy.map(\.weight), threshold: threshold)
        self.matcher = try Matcher(bytePatterns: patterns, options: options)
        if options.syntax == .regex, rules.count > 1 {
            var singles: [Matcher] = []
            for pattern in patterns { singles.append(try Matcher(bytePatterns: [pattern], options: options)) }
            singleRuleMatchers = singles
        } else {
            singleRuleMatchers = []
        }
    }

    /// A filter over word rules whose automaton was loaded from a saved rule set
    /// (``RuleSet/init(deserializing:)`` checked that it belongs to these rules and
    /// options): nothing is built.
    init(rules: [Rule], options: Matcher.Options, threshold: Double, model: ScoreModel = .sum,
         loaded automaton: AhoCorasick) throws(TurnstileError) {
        var options = options
        self.model = model
        options.matchKind = .overlapping
        self.rules = rules
        self.threshold = threshold
        self.precision = ScorePrecision(model: model, weights: rules.lazy.map(\.weight), threshold: threshold)
        self.matcher = Matcher(patterns: rules.map(\.pattern), options: options, loaded: automaton)
        singleRuleMatchers = []
    }

    /// The rules' weights and the threshold with an empty matcher: for a judge that is
    /// fed matches found elsewhere (``MailJudge`` searches each part with its own
    /// matchers), so no automaton is built twice.
    init(weighing rules: [Rule], options: Matcher.Options, threshold: Double,
         model: ScoreModel = .sum) throws(TurnstileError) {
        self.model = model
        self.rules = rules
        self.threshold = threshold
        self.precision = ScorePrecision(model: model, weights: rules.lazy.map(\.weight), threshold: threshold)
        self.matcher = try Matcher(bytePatterns: [], options: options)
        singleRuleMatchers = []
    }

    /// `true` when the rules need ``RecordJudge``'s completion pass: regex rule sets of
    /// more than one rule.
    public var needsCompletion: Bool { !singleRuleMatchers.isEmpty }

    /// The options of the built-in list: literal words, whole words, ASCII case-insensitive.
    public static var standardOptions: Matcher.Options {
        var options = Matcher.Options()
        options.syntax = .literal
        options.caseInsensitive = true
        options.wholeWord = true
        return options
    }

    /// The built-in spam list (``DefaultSpamList``) as the CLI uses it: its threshold
    /// (``DefaultSpamList/threshold``, 6.9523) and its flags `-F -i -w` (literal words,
    /// ASCII case-insensitive, whole words; ``standardOptions``). Built once, on first
    /// use, and shared: a `SpamFilter` is immutable and `Sendable`.
    ///
    /// ```swift
    /// SpamFilter.standard.verdict(for: "Claim your prize now").score
    /// ```
    /// - Complexity: the first use builds the list's automaton (about 2,000 words);
    ///   judging is O(record bytes + matches).
    public static let standard: SpamFilter = {
        do {
            return try SpamFilter(rules: DefaultSpamList.rules, options: standardOptions,
                                  threshold: DefaultSpamList.threshold)
        } catch {
            // DefaultSpamListTests builds this list on every test run.
            preconditionFailure("the built-in spam list does not build: \(error)")
        }
    }()

    /// A filter over a rules file, judging as `turnstile filter --rules FILE` does:
    /// the file's `# flags:` (`-F`, `-i`, `-w`; none: case-sensitive regexes) and its
    /// `# threshold:` (none: 1), unless `threshold` is given.
    ///
    /// ```swift
    /// let file = try RuleFile(parsing: Array("# threshold: 2\n# flags: -F -i -w\nwinner\t2\n".utf8), source: "rules.txt")
    /// try SpamFilter(rules: file).verdict(for: "a WINNER").isSpam   // true
    /// ```
    /// - Throws: ``TurnstileError`` for a rule that does not compile.
    /// - Complexity: the matcher's build.
    public init(rules file: RuleFile, threshold: Double? = nil) throws(TurnstileError) {
        self = try RuleSet(file).spamFilter(threshold: threshold)
    }

    /// The filter built from ``DefaultSpamList`` with ``standardOptions`` and, unless
    /// given, the list's own threshold (``standard`` is this, built once).
    public static func standard(threshold: Double = DefaultSpamList.threshold) throws(TurnstileError) -> SpamFilter {
        try SpamFilter(rules: DefaultSpamList.rules, options: standardOptions, threshold: threshold)
    }

    /// Judges one record (a new ``RecordJudge`` each call; keep a judge to judge many).
    public func verdict(for record: [UInt8]) -> Verdict {
        var judge = RecordJudge(self)
        return judge.verdict(for: record)
    }

    /// Judges one record given as a string.
    public func verdict(for record: String) -> Verdict { verdict(for: Array(record.utf8)) }
}
