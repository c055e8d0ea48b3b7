// Adding rules to a list without losing what the list is: its options (the flags it
// was trained or written for), its threshold and its model. `filter --add-rules FILE` uses it; a
// second `--rules FILE` instead makes a new list of both files read with the command
// line's flags and no threshold, which for a trained word list means regexes (and a
// state limit) and a threshold of 1.

extension RuleSet {
    /// The set with `more` after its own rules, read with the same options and judged
    /// at the same threshold (a saved automaton is built again).
    ///
    /// ```swift
    /// let mine = RuleSet.standardMail.adding([SpamFilter.Rule("from:newsletter", weight: -5)])
    /// mine.threshold == RuleSet.standardMail.threshold   // true
    /// ```
    ///
    /// - Complexity: O(rules); the matcher is built when the set is used.
    public func adding(_ more: [SpamFilter.Rule]) -> RuleSet {
        RuleSet(rules: rules + more, options: options, threshold: threshold, model: model)
    }
}
