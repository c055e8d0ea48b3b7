// Judging a decoded message: each scope's rules (MailScope) are searched in the part
// they name, and every rule that fired goes into one RecordJudge over all the rules,
// which adds the weights and compares with the threshold — the same place and the
// same rule as for plain records, so a list means the same thing in both modes.

/// Judges ``MailMessage``s against a rule set whose patterns may carry scope prefixes.
///
/// A judge is a mutable value with per-message scratch; make one per thread.
///
/// ```swift
/// var judge = try MailJudge(rules: RuleSet(rules: [Rule("subject:winner", weight: 2), Rule("prize")],
///                                          options: SpamFilter.standardOptions), threshold: 2)
/// judge.judge(MailMessage(parsing: Array("Subject: WINNER\r\n\r\nhello".utf8)))
/// judge.isSpam   // true
/// ```
///
/// - Complexity: building is one matcher per scope used (one only when every rule is a
///   body rule); judging is O(part bytes + matches) per scope.
public struct MailJudge: Sendable {
    /// The rules as given (with their prefixes), by rule id.
    public let rules: [Rule]
    /// The rules without their prefixes and the threshold: what the overall judge
    /// weighs (its matcher is empty unless every rule is a body rule; the scopes
    /// search).
    let filter: SpamFilter

    /// The searcher of one scope: its part, its rules' ids among all rules, and a
    /// judge over those rules alone (for its matches, regex completion included).
    private struct Scope: Sendable {
        var part: MailScope.Part
        var ids: [Int]
        var judge: RecordJudge
        /// The matcher over the scope's rules (the judge's).
        var matcher: Matcher
    }

    private var scopes: [Scope]
    /// Weighs every rule that fired: the decision.
    private var overall: RecordJudge
    /// Allow and deny lists of senders, which override the rules (`--allow-from`,
    /// `--deny-from`); nil for none.
    public var senders: SenderPolicy?
    /// The list entry that decided the last message, if one did.
    public private(set) var senderMatch: SenderPolicy.Match?

    /// A judge of `set`'s rules at ``RuleSet/judgingThreshold(given:)`` of `threshold`
    /// (nil: the set's own, else 1).
    ///
    /// - Throws: ``TurnstileError`` when the patterns do not build.
    public init(rules set: RuleSet, threshold given: Double? = nil) throws(TurnstileError) {
        let threshold = set.judgingThreshold(given: given)
        rules = set.rules
        let scoped = set.rules.map { MailScope(rulePattern: $0.pattern) }
        let stripped = zip(set.rules, scoped).map { Rule(pattern: $1.pattern, weight: $0.weight) }
        if scoped.allSatisfy({ $0.part == .body }) {
            filter = try SpamFilter(rules: stripped, options: set.options, threshold: threshold, model: set.model)
            overall = RecordJudge(filter)
            scopes = [Scope(part: .body, ids: Array(stripped.indices), judge: RecordJudge(filter, recordingHits: false),
                            matcher: filter.matcher)]
            return
        }
        // PERF: `filter --format mbox` start-up: the overall judge only adds weights,
        // so it gets no automaton of its own (building one was 6 % of a 40 MB run).
        filter = try SpamFilter(weighing: stripped, options: set.options, threshold: threshold, model: set.model)
        overall = RecordJudge(filter)
        var order: [MailScope.Part] = []
        var members: [MailScope.Part: [Int]] = [:]
        for (id, scope) in scoped.enumerated() {
            if members[scope.part] == nil { order.append(scope.part) }
            members[scope.part, default: []].append(id)
        }
        scopes = []
        for part in order {
            let ids = members[part]!
            let partFilter = try SpamFilter(rules: ids.map { stripped[$0] }, options: set.options, threshold: threshold)
            scopes.append(Scope(part: part, ids: ids, judge: RecordJudge(partFilter, recordingHits: false),
                                matcher: partFilter.matcher))
        }
    }

    /// Judges `message`: afterwards ``isSpam``, ``score`` and ``hits`` describe it.
    public mutating func judge(_ message: MailMessage) {
        senderMatch = senders?.decide(message)
        overall.beginRecord()
        for s in scopes.indices {
            let text = MailScope.text(of: scopes[s].part, in: message)
            // An absent part has no matches (a pattern that matches the empty string
            // cannot fire in a part the message does not have).
            if text.isEmpty { continue }
            let ids = scopes[s].ids
            if scopes[s].judge.needsCompletion {
                // Regex rules: the part's own judge runs the completion pass.
                let counted = text.withUnsafeBufferPointer { scopes[s].judge.judge($0) }
                for m in counted { overall.add(Match(pattern: ids[m.pattern], start: m.start, end: m.end)) }
            } else {
                // Matches go straight to the overall judge, which keeps each rule once:
                // memory stays bounded by the rules, however many matches a part has.
                Self.addMatches(of: scopes[s].matcher, in: text, ids: ids, to: &overall)
            }
        }
    }

    /// Adds every match of `matcher` in `text` to `judge`, pattern ids mapped by `ids`.
    private static func addMatches(of matcher: Matcher, in text: [UInt8], ids: [Int], to judge: inout RecordJudge) {
        text.withUnsafeBufferPointer { buffer in
            matcher.forEachMatch(in: buffer, from: 0) { m in
                judge.add(Match(pattern: ids[m.pattern], start: m.start, end: m.end))
                return true
            }
        }
    }

    /// The last message's decision: a sender list's when one matched, else the rules'.
    public var isSpam: Bool { senderMatch.map { $0.decision == .deny } ?? overall.isSpam }
    /// The last message's score.
    public var score: Double { overall.score }
    /// `true` when the last message scored in the model's unsure band (chi-square:
    /// between ``ScoreModel/hamCutoff`` and the threshold) and no sender list decided.
    public var isUnsure: Bool { senderMatch == nil && overall.isUnsure }
    /// How the rules' weights are combined.
    public var model: ScoreModel { overall.model }
    /// The rules that fired in the last message, each once (offsets are in the part
    /// the rule looks at).
    public var hits: ArraySlice<RuleHit> { overall.hits }
    /// The threshold.
    public var threshold: Double { overall.threshold }
    /// The precision scores are compared and printed at (``ScorePrecision``).
    public var precision: ScorePrecision { overall.precision }
}
