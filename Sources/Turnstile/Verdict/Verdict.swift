// What a record's judgement says: whether it is spam, its score, and which rules
// made it so. Computed only by `RecordJudge` (RecordJudge.swift).

import AutomatonCore

/// The judgement of one record.
///
/// ```swift
/// let verdict = try SpamFilter.standard().verdict(for: "URGENT! Claim your prize now")
/// verdict.isSpam                     // true
/// verdict.hits.map(\.rule)           // the distinct rules that fired, first match first
/// ```
public struct Verdict: Sendable, Hashable {
    /// `true` when ``score`` reaches the filter's threshold.
    public var isSpam: Bool
    /// The sum of the weights of the distinct rules that fired.
    public var score: Double
    /// Each rule that fired, once, in the order of its first match.
    public var hits: [RuleHit]
    /// Every match the verdict was computed from (after the regex completion pass),
    /// offsets relative to the record: what `--mask`, `--color` and `--json` show.
    public var matches: [Match]

    public init(isSpam: Bool, score: Double, hits: [RuleHit], matches: [Match]) {
        self.isSpam = isSpam
        self.score = score
        self.hits = hits
        self.matches = matches
    }
}

/// One rule's part in a verdict: the rule, the weight it added, and where it first
/// matched. A rule adds its weight once per record however often it matches.
public struct RuleHit: Sendable, Hashable {
    /// The rule's index in ``SpamFilter/rules`` (its pattern id).
    public var rule: Int
    /// The weight it added to the score.
    public var weight: Double
    /// Where its first match in the record starts (byte offset, as the match reported it).
    public var start: Int
    /// Where that match ends (exclusive).
    public var end: Int

    public init(rule: Int, weight: Double, start: Int, end: Int) {
        self.rule = rule
        self.weight = weight
        self.start = start
        self.end = end
    }
}
