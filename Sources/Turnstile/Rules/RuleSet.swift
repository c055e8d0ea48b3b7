/// A list of weighted rules and the options they are read with: what a ``Matcher``
/// or a ``SpamFilter`` is built from, and what `turnstile compile -o` saves.
///
/// The saved form (`RuleSet+Serialization.swift`) holds the rules, the options, the
/// threshold and, for word lists, the spam filter's built automaton, in a checksummed
/// envelope (``SavedContainer``): loading checks the checksum and the automaton and
/// searches with it as saved, without building it again.
///
/// ```swift
/// let rules = RuleSet.standard                      // the built-in spam list
/// let bytes = try rules.serialized()
/// let again = try RuleSet(deserializing: bytes)     // same rules, options, threshold
/// let filter = try again.spamFilter()               // the saved automaton, not rebuilt
/// ```
///
/// - Complexity: saving is a build plus O(rules + table size); loading is O(file size)
///   for word lists, and compiles regex rules.

import AutomatonCore
public struct RuleSet: Sendable {
    public var rules: [SpamFilter.Rule]
    public var options: Matcher.Options
    /// The threshold the rules were made for (the built-in list's, or a trained list's
    /// `# threshold:`), nil when none is known. Saved with the rules, so a saved list
    /// judges as the list does.
    public var threshold: Double?
    /// How fired rules' weights become a score (a rules file's `# model:`).
    public var model: ScoreModel = .sum
    /// The spam filter's automaton as loaded from a saved file (word lists only); a
    /// cache derived from the rules and options, so not part of equality.
    var loaded: LoadedFilterAutomaton?

    public init(rules: [SpamFilter.Rule], options: Matcher.Options, threshold: Double? = nil,
                model: ScoreModel = .sum) {
        self.rules = rules
        self.options = options
        self.threshold = threshold
        self.model = model
    }

    /// The rules of a rules file with the options its `# flags:` header names (none:
    /// case-sensitive regexes, as `turnstile --rules` reads a file without flags) and
    /// its `# threshold:`.
    ///
    /// ```swift
    /// let set = RuleSet(try RuleFile(parsing: bytes, source: "rules.txt"))
    /// ```
    public init(_ file: RuleFile) {
        var options = Matcher.Options()
        if let flags = file.flags {
            options.syntax = flags.literal ? .literal : .regex
            options.caseInsensitive = flags.caseInsensitive
            options.wholeWord = flags.wholeWord
        }
        self.init(rules: file.rules, options: options, threshold: file.threshold, model: file.model ?? .sum)
    }

    /// The built-in list (``DefaultSpamList``) as whole words, ASCII case-insensitive.
    public static var standard: RuleSet {
        RuleSet(rules: DefaultSpamList.rules, options: SpamFilter.standardOptions, threshold: DefaultSpamList.threshold)
    }

    /// The built-in mail list (``DefaultMailList``: body words and scoped tokens, see
    /// ``MailScope``), whole words, ASCII case-insensitive: the default in mail mode.
    public static var standardMail: RuleSet {
        RuleSet(rules: DefaultMailList.rules, options: SpamFilter.standardOptions, threshold: DefaultMailList.threshold,
                model: DefaultMailList.model)
    }

    /// The matcher over the rules' patterns.
    public func matcher() throws(TurnstileError) -> Matcher {
        try Matcher(bytePatterns: rules.map(\.pattern), options: options)
    }

    /// The threshold a record is judged at: `given` (the command line's
    /// `--threshold`), else the list's own (built-in, saved or trained), else 1. The
    /// one place for this rule: every command and judge built from a set asks here.
    ///
    /// ```swift
    /// RuleSet.standard.judgingThreshold(given: nil)   // 6.9523, the built-in list's
    /// RuleSet.standard.judgingThreshold(given: 3)     // 3
    /// ```
    public func judgingThreshold(given: Double?) -> Double {
        given ?? threshold ?? 1
    }

    /// A spam filter over the rules, judging at ``judgingThreshold(given:)`` of
    /// `threshold`. A set loaded from a file searches with its saved automaton.
    public func spamFilter(threshold: Double? = nil) throws(TurnstileError) -> SpamFilter {
        let threshold = judgingThreshold(given: threshold)
        if let loaded {
            return try SpamFilter(rules: rules, options: options, threshold: threshold, model: model,
                                  loaded: loaded.automaton)
        }
        return try SpamFilter(rules: rules, options: options, threshold: threshold, model: model)
    }
}
