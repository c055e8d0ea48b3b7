// `turnstile eval`'s bookkeeping: runs a spam filter over labelled records, fills the
// confusion matrix and counts, per rule, the ham and spam records it fired in.

/// The result of running a ``SpamFilter`` over labelled records: the confusion matrix
/// and how often each rule fired on ham and on spam.
///
/// Feed it records with ``add(isSpam:record:)``; each is judged by a ``RecordJudge``
/// exactly as `filter` judges it (regex completion pass included), and a rule counts
/// once per record.
///
/// ```swift
/// let filter = try SpamFilter.standard()
/// var evaluation = SpamEvaluation(filter: filter)
/// evaluation.add(isSpam: true, record: Array("WINNER! Txt CLAIM to 80086".utf8))
/// evaluation.add(isSpam: false, record: Array("lunch at noon?".utf8))
/// evaluation.matrix.tp   // 1
/// ```
///
/// - Complexity: O(record bytes + matches) per record; ``topRules(onSpam:limit:)``
///   is O(rules log rules).
public struct SpamEvaluation: Sendable {
    /// How often one rule fired.
    public struct RuleCount: Sendable, Hashable {
        /// The rule's id (its index in ``SpamFilter/rules``).
        public var id: Int
        public var rule: SpamFilter.Rule
        /// Records of the class it fired in.
        public var records: Int
        /// Of those, the records the filter judged spam: false positives on ham,
        /// true positives on spam.
        public var judgedSpam: Int
    }

    public let filter: SpamFilter
    /// The rules as given, by id (with their scope prefixes for mail).
    public let rules: [SpamFilter.Rule]
    /// Decoding problems over the messages added with ``add(isSpam:message:)``.
    public private(set) var problems = MailDecodingProblems()
    /// The counts so far.
    public private(set) var matrix = ConfusionMatrix()
    /// Per rule id: ham records it fired in, and how many of those were false positives.
    private var hamFires: [Int]
    private var hamFalsePositives: [Int]
    /// Per rule id: spam records it fired in, and how many of those were caught.
    private var spamFires: [Int]
    private var spamCaught: [Int]
    private var judge: RecordJudge
    /// The judge of messages (mail mode).
    private var mailJudge: MailJudge?

    public init(filter: SpamFilter) {
        self.filter = filter
        self.rules = filter.rules
        let n = filter.rules.count
        hamFires = [Int](repeating: 0, count: n)
        hamFalsePositives = hamFires
        spamFires = hamFires
        spamCaught = hamFires
        judge = RecordJudge(filter)
    }

    /// An evaluation of messages judged by `mail` (scope prefixes read).
    public init(mail: MailJudge) {
        filter = mail.filter
        rules = mail.rules
        mailJudge = mail
        let n = filter.rules.count
        hamFires = [Int](repeating: 0, count: n)
        hamFalsePositives = hamFires
        spamFires = hamFires
        spamCaught = hamFires
        judge = RecordJudge(filter)
    }

    /// Judges a decoded message with the mail judge and counts it; returns the verdict.
    @discardableResult
    public mutating func add(isSpam: Bool, message: MailMessage) -> Bool {
        guard var mail = mailJudge else { return message.body.withUnsafeBufferPointer { add(isSpam: isSpam, record: $0) } }
        mailJudge = nil  // keep the judge's storage uniquely referenced while it works
        mail.judge(message)
        problems += message.problems
        let predicted = mail.isSpam
        count(isSpam: isSpam, predicted: predicted, hits: mail.hits)
        mailJudge = mail
        return predicted
    }

    /// Judges `record` and counts it.
    public mutating func add(isSpam: Bool, record: [UInt8]) {
        _ = record.withUnsafeBufferPointer { add(isSpam: isSpam, record: $0) }
    }

    /// Judges `record` and counts it; returns the verdict (`true` for spam).
    @discardableResult
    public mutating func add(isSpam: Bool, record: UnsafeBufferPointer<UInt8>) -> Bool {
        judge.judge(record)
        let predicted = judge.isSpam
        count(isSpam: isSpam, predicted: predicted, hits: judge.hits)
        return predicted
    }

    private mutating func count(isSpam: Bool, predicted: Bool, hits: ArraySlice<RuleHit>) {
        matrix.add(isSpam: isSpam, predictedSpam: predicted)
        for hit in hits {
            let p = hit.rule
            if isSpam {
                spamFires[p] += 1
                if predicted { spamCaught[p] += 1 }
            } else {
                hamFires[p] += 1
                if predicted { hamFalsePositives[p] += 1 }
            }
        }
    }

    /// The rules of positive weight that fired in the most ham records (`onSpam ==
    /// false`: the false-positive culprits) or spam records (the ones that catch it),
    /// most first, ties by rule id. Rules that never fired on that class are left out,
    /// and so are rules of weight 0 or less: they pull a score down, so they are never
    /// the reason a record was judged spam.
    public func topRules(onSpam: Bool, limit: Int = 20) -> [RuleCount] {
        let fires = onSpam ? spamFires : hamFires
        let judged = onSpam ? spamCaught : hamFalsePositives
        let ids = fires.indices.filter { fires[$0] > 0 && rules[$0].weight > 0 }.sorted { a, b in
            fires[a] != fires[b] ? fires[a] > fires[b] : a < b
        }
        return ids.prefix(max(0, limit)).map {
            RuleCount(id: $0, rule: rules[$0], records: fires[$0], judgedSpam: judged[$0])
        }
    }
}
