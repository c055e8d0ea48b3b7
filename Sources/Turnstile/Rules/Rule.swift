// One weighted rule: the unit a rules file lists, a rule set holds and a verdict
// counts. The rule model lives in this folder: `Rule`, `RuleFile` (the text form,
// read and written), `RuleSet` (rules plus the options they are matched with).

/// One rule: a pattern and the weight it adds to a record's score when it matches.
///
/// ```swift
/// let rule = Rule("free entry", weight: 2)
/// ```
public struct Rule: Sendable, Hashable {
    /// The pattern's bytes (a literal or a regex, as the rule set's options say).
    public var pattern: [UInt8]
    /// What the rule adds to a record's score (finite; may be negative).
    public var weight: Double

    public init(pattern: [UInt8], weight: Double = 1) {
        self.pattern = pattern
        self.weight = weight
    }

    public init(_ pattern: String, weight: Double = 1) {
        self.init(pattern: Array(pattern.utf8), weight: weight)
    }
}
