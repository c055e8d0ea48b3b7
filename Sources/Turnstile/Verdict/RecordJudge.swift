// The one place a record gets its verdict. `filter` (its sink and the reader's early
// exit), `eval`, `train`, cross-validation and `SpamFilter.verdict(for:)` all judge
// records here, so a list means the same thing in every command: the rules that fired
// (each distinct rule once), their weights combined by the list's model (ScoreModel:
// the sum, or Robinson's chi-square combining), and `score >= threshold` with the
// score taken at the decimals the weights carry (`ScorePrecision`: 0.7 + 0.1 reaches
// 0.8, although the binary sum is 0.7999999999999999).
//
// Regex rules need a completion pass: the combined automaton reports leftmost-first
// matches, so a rule whose only matches overlap a higher-priority rule's match would go
// unseen. When a record has any match, each rule not yet seen is searched on its own
// (`SpamFilter`'s single-rule matchers). Literal rule sets are matched overlapping and
// need no such pass.

import AutomatonCore

/// Judges records against a ``SpamFilter``'s rules: which rules fired, the score, and
/// the decision. The only code in the package that compares a score with a threshold.
///
/// A judge is a small mutable value (per-record scratch, no allocation per record once
/// warm); make one per thread or per stream and reuse it. Drive it either a record at
/// a time (``judge(_:found:)``, ``judge(_:)``) or match by match (``beginRecord()``,
/// ``add(_:)``, ``isSpam``) when matches are found in a larger block.
///
/// ```swift
/// let filter = try SpamFilter.standard()
/// var judge = RecordJudge(filter)
/// let text = Array("URGENT! Claim your prize now".utf8)
/// text.withUnsafeBufferPointer { _ = judge.judge($0) }
/// judge.isSpam          // true
/// judge.hits            // [RuleHit]: each rule once, with its first match
/// ```
///
/// - Complexity: O(matches) per record to score; the regex completion pass adds
///   O(rules × record bytes) for a record of a regex rule set that has a match.
public struct RecordJudge: Sendable {
    /// Rule weights by rule index (pattern id).
    @usableFromInline let weights: [Double]
    /// A record whose score is at least this is spam.
    public let threshold: Double
    /// How the fired rules' weights become the score.
    public let model: ScoreModel
    /// The decimals the weights and threshold carry; scores are compared at this
    /// precision, so floating-point noise in a sum never decides a verdict.
    public let precision: ScorePrecision
    /// `threshold` less half a unit of ``precision``'s last decimal: what a raw score
    /// is compared with.
    @usableFromInline let decisionThreshold: Double
    /// `true` when no rule weighs less than 0: a score only grows as matches are
    /// added, so once a record is spam it stays spam and a search may skip the rest of
    /// it (``isSettledSpam``).
    public let scoreOnlyGrows: Bool
    /// The matcher over every rule.
    let matcher: Matcher
    /// One matcher per rule for the completion pass; empty when the rules need none.
    let singleRuleMatchers: [Matcher]
    /// `false` when nobody reads ``hits``: then ``add(_:)`` only adds up the score.
    @usableFromInline let recordsHits: Bool

    /// `lastRecord[rule] == record` ⇔ the rule already counted in the current record
    /// (`record` starts at 1, so a new judge's first record is empty).
    @usableFromInline var lastRecord: [Int]
    @usableFromInline var record = 1
    @usableFromInline var total: Double = 0
    /// With the chi-square model: `fired[..<firedCount]` are the weights of the current
    /// record's distinct rules (reused, never shrunk), combined when the score is read.
    @usableFromInline var fired: [Double] = []
    @usableFromInline var firedCount = 0
    @usableFromInline let combines: Bool
    /// `hitList[..<hitCount]` are the current record's hits; the array is reused, never
    /// shrunk (clearing an array per record cost 3 % of `filter --count`).
    @usableFromInline var hitList: [RuleHit] = []
    @usableFromInline var hitCount = 0
    /// The matches of the current record plus those the completion pass found.
    private var completed: [Match] = []
    private var seen: [Bool]
    /// The rules' overlapping word set, which ``tallyRecords(in:delimiter:)`` walks
    /// itself; nil when the rules are searched some other way.
    let words: WholeWordSet?
    /// Equal rules the word set reports as one (``WholeWordSet/equalPatterns()``):
    /// `equalRules[equalStart[r]..<equalStart[r + 1]]`; empty when all are distinct.
    let equalStart: [Int]
    let equalRules: [Int]

    /// A judge for `filter`'s rules and threshold. `recordingHits: false` when only the
    /// score and decision are needed (``hits`` stays empty; a little faster).
    public init(_ filter: SpamFilter, recordingHits: Bool = true) {
        recordsHits = recordingHits
        weights = filter.rules.map(\.weight)
        threshold = filter.threshold
        model = filter.model
        combines = filter.model != .sum
        precision = filter.precision
        decisionThreshold = filter.precision.decisionThreshold(for: filter.threshold)
        // A chi-square score can fall as evidence is added, whatever the weights.
        scoreOnlyGrows = filter.model == .sum && weights.allSatisfy { $0 >= 0 }
        matcher = filter.matcher
        singleRuleMatchers = filter.singleRuleMatchers
        lastRecord = [Int](repeating: 0, count: weights.count)
        seen = [Bool](repeating: false, count: weights.count)
        hitList.reserveCapacity(16)
        words = filter.singleRuleMatchers.isEmpty ? filter.matcher.strategy.wholeWordSet : nil
        let equal = words?.equalPatterns()
        equalStart = equal?.start ?? []
        equalRules = equal?.list ?? []
    }

    /// The decision rule itself: spam when the score, at the precision the weights
    /// carry, reaches the threshold (``ScorePrecision/reaches(_:_:)``).
    @inlinable
    public static func isSpam(score: Double, threshold: Double, precision: ScorePrecision) -> Bool {
        precision.reaches(score, threshold)
    }

    /// `true` when the rules need the completion pass (regex rule sets of more than one
    /// rule): then a record's matches from the combined matcher are not all its hits.
    public var needsCompletion: Bool { !singleRuleMatchers.isEmpty }

    /// `true` when a record without any match is clean (the threshold is above 0), so
    /// runs of records without matches need not be judged one by one.
    public var recordWithoutMatchesIsClean: Bool { !(model.emptyScore >= decisionThreshold) }

    // MARK: Match by match

    /// Starts a new record: score 0, no hits.
    @inlinable
    public mutating func beginRecord() {
        record &+= 1
        total = 0
        hitCount = 0
        firedCount = 0
    }

    /// Counts `match`'s rule for the current record unless it already counted.
    @inlinable
    public mutating func add(_ match: Match) {
        add(rule: match.pattern, start: match.start, end: match.end)
    }

    /// Counts `rule`, matched at `start..<end`, for the current record unless it
    /// already counted.
    @inlinable @inline(__always)
    mutating func add(rule: Int, start: Int, end: Int) {
        if lastRecord[rule] != record {
            lastRecord[rule] = record
            let weight = weights[rule]
            total += weight
            if combines {
                if firedCount < fired.count { fired[firedCount] = weight } else { fired.append(weight) }
                firedCount &+= 1
            }
            if recordsHits {
                let hit = RuleHit(rule: rule, weight: weight, start: start, end: end)
                if hitCount < hitList.count { hitList[hitCount] = hit } else { hitList.append(hit) }
                hitCount &+= 1
            }
        }
    }

    /// The current record's score so far: the sum of the weights, or their chi-square
    /// combination (``ScoreModel``).
    @inlinable public var score: Double { combines ? model.score(weights: fired[..<firedCount]) : total }

    /// The current record's decision so far.
    @inlinable public var isSpam: Bool { score >= decisionThreshold }

    /// `true` when the model has an unsure band (chi-square) and the current record
    /// scores in it: not spam, but not below ``ScoreModel/hamCutoff`` either.
    public var isUnsure: Bool { combines && !isSpam && score >= ScoreModel.hamCutoff }

    /// `true` when the current record is spam whatever else it contains (spam now, and
    /// no weight is negative): the early exit of a search.
    @inlinable public var isSettledSpam: Bool { scoreOnlyGrows && isSpam }

    /// The rules that fired in the current record, each once, in the order of their
    /// first match.
    public var hits: ArraySlice<RuleHit> { hitList[..<hitCount] }

    // MARK: Whole records

    /// Judges a record whose matches `found` (offsets relative to `record`) the filter's
    /// matcher reported: runs the completion pass when the rules need it, then scores.
    /// Returns the matches the verdict counts — `found`, or `found` plus the completion's
    /// (valid until the next call).
    @discardableResult
    public mutating func judge(_ record: UnsafeBufferPointer<UInt8>, found: ArraySlice<Match>) -> ArraySlice<Match> {
        var counted = found
        if !singleRuleMatchers.isEmpty, !found.isEmpty {
            completed.removeAll(keepingCapacity: true)
            completed.append(contentsOf: found)
            complete(record)
            counted = completed[...]
        }
        beginRecord()
        for m in counted { add(m) }
        return counted
    }

    /// Finds `record`'s matches and judges it; returns the matches counted (valid
    /// until the next call).
    @discardableResult
    public mutating func judge(_ record: UnsafeBufferPointer<UInt8>) -> ArraySlice<Match> {
        completed.removeAll(keepingCapacity: true)
        matcher.appendMatches(in: record, to: &completed)
        if !singleRuleMatchers.isEmpty, !completed.isEmpty { complete(record) }
        beginRecord()
        for m in completed { add(m) }
        return completed[...]
    }

    /// Ends the current record of matches added one by one (``add(_:)``, as a
    /// search of `record` streamed them): when the rules need the completion pass and
    /// some rule matched, searches `record` for each rule not yet seen and counts what
    /// it finds. Returns the completion's matches (valid until the next call): a
    /// record's matches are the streamed ones, then these — what ``judge(_:found:)``
    /// returns for the same record.
    @discardableResult
    public mutating func completeRecord(_ record: UnsafeBufferPointer<UInt8>) -> ArraySlice<Match> {
        completed.removeAll(keepingCapacity: true)
        guard !singleRuleMatchers.isEmpty else { return completed[...] }
        var any = false
        for rule in seen.indices {
            seen[rule] = lastRecord[rule] == self.record
            if seen[rule] { any = true }
        }
        guard any else { return completed[...] }
        for (rule, single) in singleRuleMatchers.enumerated() where !seen[rule] {
            let start = completed.count
            single.appendMatches(in: record, to: &completed)
            for k in start..<completed.count { completed[k].pattern = rule }
        }
        for m in completed { add(m) }
        return completed[...]
    }

    /// The verdict of the current record, with `matches` as the matches it counted.
    public func verdict(matches: ArraySlice<Match>) -> Verdict {
        Verdict(isSpam: isSpam, score: score, hits: Array(hits), matches: Array(matches))
    }

    /// Judges `record` and returns its verdict.
    public mutating func verdict(for record: [UInt8]) -> Verdict {
        record.withUnsafeBufferPointer { buffer in
            let counted = judge(buffer)
            return verdict(matches: counted)
        }
    }

    /// Appends to `completed` (which holds the matcher's matches of `record`) the
    /// matches of every rule not among them, each labelled with its rule's id.
    private mutating func complete(_ record: UnsafeBufferPointer<UInt8>) {
        for i in seen.indices { seen[i] = false }
        for m in completed { seen[m.pattern] = true }
        for (rule, single) in singleRuleMatchers.enumerated() where !seen[rule] {
            let start = completed.count
            single.appendMatches(in: record, to: &completed)
            for k in start..<completed.count { completed[k].pattern = rule }
        }
    }
}
