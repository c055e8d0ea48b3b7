import AutomatonCore

// Learning a weighted word list from labelled records (`turnstile train`).
//
// Each word is scored by its smoothed log-odds of spam versus ham — the evidence a
// record containing it gives, as in a Bernoulli naive Bayes that only counts the
// words present (which is exactly how the filter scores: the sum of the weights of
// the distinct rules found). With s and h the spam and ham records containing the
// word, p the share of spam among all records and a the smoothing (pseudo-records
// spread in proportion p : 1 - p, so a word never seen weighs 0):
//
//     weight = ln((s + a·p) / (h + a·(1 − p))) − ln(p / (1 − p))
//
// i.e. the log-odds that a record containing the word is spam, shrunk towards the
// base rate by a pseudo-records, minus the base rate's log-odds. Positive weights are
// evidence of spam, negative ones of ham. Sources: Graham, "A Plan for Spam" (2002);
// McCallum & Nigam, "A Comparison of Event Models for Naive Bayes Text
// Classification" (1998); Monroe, Colaresi & Quinn, "Fightin' Words" (2008) for
// log-odds with an informative prior.
//
// Determinism: words are ranked by |weight| with ties broken by the word's bytes,
// written with a fixed number of decimals, and nothing depends on hash order.

/// Learns a rules file (`word<TAB>weight`) and a threshold from labelled records.
///
/// ```swift
/// let set = try TrainingSet(records: records)
/// var trainer = SpamTrainer()
/// trainer.top = 300
/// let list = try trainer.train(set)
/// print(list.ruleFileText(trainer: trainer))   // "# threshold: …" then word<TAB>weight lines
/// ```
///
/// - Complexity: O(total words + vocabulary log vocabulary) for the weights, plus one
///   filter build and one pass over the records for the threshold.
public struct SpamTrainer: Sendable, Hashable {
    /// How the proposed threshold is chosen on the training records.
    public enum ThresholdRule: Sendable, Hashable {
        /// The threshold with the highest F1.
        case bestF1
        /// The lowest threshold whose precision is at least the value.
        case minPrecision(Double)
        /// The threshold with the lowest cost `falsePositiveCost × FP + FN`: a ham
        /// judged spam (lost mail) costs that many spam let through.
        case minCost(falsePositiveCost: Double)
        /// This threshold, whatever the records: what a learning database judges at, so
        /// that learning moves token counts and never the threshold.
        case fixed(Double)
    }

    /// Words kept (the highest |weight| first).
    public var top = 300
    /// A word must occur in at least this many records (spam and ham together).
    public var minCount = 3
    /// Pseudo-records a word's log-odds are shrunk towards the base rate by (> 0).
    public var smoothing = 1.0
    /// Keep words with negative weights (evidence of ham).
    public var negativeWeights = true
    /// Extra spam pseudo-records credited to each included (curated) phrase: the
    /// prior that a hand-picked spam phrase is spam even where the data is silent.
    public var phrasePrior = 1.0
    public var thresholdRule: ThresholdRule = .bestF1
    /// How the list's weights combine (``ScoreModel``): with `.chiSquare` each weight is
    /// the logit of the word's smoothed spam probability, combined by Fisher's method.
    public var model: ScoreModel = .sum
    /// Leave out tokens made only of digits ("2002", "0200", "08"): in a corpus of one
    /// era they are its dates and times, evidence of the era rather than of spam.
    public var excludesNumbers = false
    /// Clamps only the positive weights (evidence of spam) to this: a list trained on
    /// mail of another era keeps its ham evidence whole but lets no spam word of that
    /// era weigh more than a present-day indicator.
    public var maxSpamWeight: Double? = nil
    /// When set, only thresholds above this are considered: with 0, a record in which
    /// no rule fires (score 0) is never spam — what a list used on unfamiliar text
    /// needs (the built-in mail list).
    public var thresholdAbove: Double? = nil
    /// Words never kept (lowercase ASCII bytes), e.g. a hand-reviewed list of
    /// offensive words.
    public var excludedWords: Set<[UInt8]> = []
    /// Token prefixes never kept (lowercase ASCII bytes, e.g. `header:x-mailer:`):
    /// whole scopes left out, such as the header fields that name an era's software.
    public var excludedPrefixes: [[UInt8]] = []
    /// When set, every weight is clamped to `-maxWeight...maxWeight` (after ranking by
    /// the unclamped weight), so no one rule carries more than this much evidence.
    public var maxWeight: Double? = nil
    /// When set (n ≥ 2), only thresholds above `(n − 1) ×` the heaviest positive
    /// weight are considered: at least n rules must fire before a record is spam, so
    /// no single word decides (with ``maxWeight``, the floor is known in advance).
    public var minRulesToFlag: Int? = nil
    /// When set (k ≥ 2), the threshold is chosen on held-out scores: the training
    /// records are split into k folds (stratified, seed 1), each fold is scored by a
    /// list trained on the others, and the rule is applied to those pooled scores —
    /// the scores unseen mail gets, not the lower ones a list gives its own training
    /// ham. The weights are still learnt from every record. With fewer than k records
    /// of a class, the training scores are used.
    public var thresholdFolds: Int? = nil
    /// When set, each token's weight starts from the prior's and moves with the
    /// records (``LearningPrior``): the prior's tokens are kept even where the records
    /// are silent, so a few lessons refine the list instead of replacing it.
    public var prior: LearningPrior? = nil
    /// Tokens whose probability f (``ScoreModel/probability(weight:)``) lies closer than
    /// this to 0.5 are not kept: only clear evidence goes into the list, as bogofilter's
    /// `min_dev` counts only tokens that far from 0.5 (0: keep every token).
    public var minDeviation = 0.0
    /// With a ``prior``: at most this many tokens that the records contain are kept
    /// (the highest |weight| first), and the prior's tokens that no record contains fill
    /// the list up to ``top``. Nil: every token is ranked against every other for
    /// ``top``.
    public var learnedTop: Int? = nil

    /// Decimals of the weights written (and used: the list is scored as written).
    public static let weightDecimals = 4
    /// Decimals of the proposed threshold (one more than the weights, so a midpoint
    /// between two scores is exact).
    public static let thresholdDecimals = 5

    public init() {}

    /// The smoothed log-odds weight of a word found in `spam` spam and `ham` ham
    /// records, when `spamShare` of the records are spam.
    public static func weight(spam: Double, ham: Double, spamShare p: Double, smoothing a: Double) -> Double {
        naturalLog((spam + a * p) / (ham + a * (1 - p))) - naturalLog(p / (1 - p))
    }

    /// Trains on every record of `set`, or only on those at `subset`.
    ///
    /// - Throws: ``TurnstileError`` when the records are not both spam and ham, an
    ///   option is out of range, or no threshold reaches the minimum precision.
    public func train(_ set: TrainingSet, subset: [Int]? = nil) throws(TurnstileError) -> TrainedList {
        try checkSettings()
        guard phrasePrior >= 0, phrasePrior.isFinite else {
            throw TurnstileError(.invalidOptions("--phrase-prior must be a number at least 0"))
        }
        let indices = subset ?? Array(set.records.indices)
        var wordSpam = [Int](repeating: 0, count: set.vocabulary.count)
        var wordHam = wordSpam
        var phraseSpam = [Int](repeating: 0, count: set.phrases.count)
        var phraseHam = phraseSpam
        var spamRecords = 0
        for i in indices {
            let isSpam = set.records[i].isSpam
            if isSpam { spamRecords += 1 }
            for w in set.recordWords[i] {
                if isSpam { wordSpam[Int(w)] += 1 } else { wordHam[Int(w)] += 1 }
            }
            for p in set.recordPhrases[i] {
                if isSpam { phraseSpam[Int(p)] += 1 } else { phraseHam[Int(p)] += 1 }
            }
        }
        let hamRecords = indices.count - spamRecords
        guard spamRecords > 0, hamRecords > 0 else {
            throw TurnstileError(.invalidOptions(
                "training needs both spam and ham records (found \(spamRecords) spam, \(hamRecords) ham)"))
        }
        let p = Double(spamRecords) / Double(indices.count)

        var words = weightedWords(
            set.vocabulary.indices.lazy.filter { !set.wordIsPhrase[$0] }.map { (set.vocabulary[$0], wordSpam[$0], wordHam[$0]) },
            spamRecords: spamRecords, hamRecords: hamRecords)
        // Included phrases: always scored; kept when they are evidence of spam.
        var phrases: [TrainedList.Entry] = []
        for id in set.phrases.indices {
            let s = phraseSpam[id], h = phraseHam[id]
            let w = Self.rounded(Self.weight(spam: Double(s) + phrasePrior, ham: Double(h), spamShare: p,
                                             smoothing: smoothing), decimals: Self.weightDecimals)
            if w > 0 {
                phrases.append(TrainedList.Entry(pattern: set.phrases[id], spamRecords: s, hamRecords: h, weight: w))
            }
        }
        words.sort(by: TrainedList.Entry.listOrder)
        phrases.sort(by: TrainedList.Entry.listOrder)

        // Score the training records with the filter itself, as written (or, with
        // thresholdFolds, each by a list that did not see it).
        let rules = (words + phrases).map { SpamFilter.Rule(pattern: $0.pattern, weight: $0.weight) }
        let labels = indices.map { set.records[$0].isSpam }
        let heldOut = try heldOutScores(set, indices: indices, labels: labels)
        let scores: [Double]
        if let heldOut { scores = heldOut } else { scores = try trainingScores() }
        let (chosen, bestF1) = try chooseThreshold(scores: scores, isSpam: labels, rules: rules)
        var list = TrainedList(words: words, phrases: phrases, spamRecords: spamRecords, hamRecords: hamRecords,
                               threshold: chosen, bestF1: bestF1)
        list.model = model
        if heldOut != nil {
            // The threshold's figures are held-out ones; also say what the list does on
            // its own training records (what `eval` on them reproduces).
            var matrix = ConfusionMatrix()
            let verdicts = try set.judge(rules: rules, threshold: chosen.threshold, indices: indices, model: model)
            for (verdict, isSpam) in zip(verdicts, labels) { matrix.add(isSpam: isSpam, predictedSpam: verdict.isSpam) }
            list.trainingMatrix = matrix
        }
        return list

        func trainingScores() throws(TurnstileError) -> [Double] {
            try set.judge(rules: rules, threshold: 0, indices: indices, model: model).map(\.score)
        }
    }

    /// Trains from per-token record counts (`turnstile learn`'s database) instead of
    /// records: the same words and weights as ``train(_:subset:)`` on the records the
    /// counts were taken from (no curated phrases), at the fixed threshold of
    /// ``ThresholdRule/fixed(_:)`` — the records themselves are not kept, so no
    /// threshold can be chosen on them.
    ///
    /// - Throws: ``TurnstileError`` when the counts are not of both spam and ham, an
    ///   option is out of range, or the threshold rule is not `.fixed`.
    public func train(
        counts: some Sequence<(token: [UInt8], spam: Int, ham: Int)>, spamRecords: Int, hamRecords: Int
    ) throws(TurnstileError) -> TrainedList {
        try checkSettings()
        guard spamRecords > 0, hamRecords > 0 else {
            throw TurnstileError(.invalidOptions(
                "training needs both spam and ham records (found \(spamRecords) spam, \(hamRecords) ham)"))
        }
        guard case .fixed(let t) = thresholdRule else {
            throw TurnstileError(.invalidOptions("training from token counts needs a fixed threshold"))
        }
        var words = weightedWords(counts.lazy.map { ($0.token, $0.spam, $0.ham) }, spamRecords: spamRecords, hamRecords: hamRecords)
        words.sort(by: TrainedList.Entry.listOrder)
        let fixed = ThresholdChoice(threshold: t, matrix: ConfusionMatrix())
        var list = TrainedList(words: words, phrases: [], spamRecords: spamRecords, hamRecords: hamRecords,
                               threshold: fixed, bestF1: fixed)
        list.model = model
        return list
    }

    /// The kept words: min count, sign, ranked by |weight| (ties by bytes), the top K,
    /// weights rounded as written. One place for ``train(_:subset:)`` and
    /// ``train(counts:spamRecords:hamRecords:score:)``.
    func weightedWords(_ counts: some Sequence<([UInt8], Int, Int)>, spamRecords: Int, hamRecords: Int) -> [TrainedList.Entry] {
        let p = Double(spamRecords) / Double(spamRecords + hamRecords)
        var candidates: [(pattern: [UInt8], spam: Int, ham: Int, weight: Double)] = []
        // With learnedTop: the tokens whose weight the prior still decides (below).
        var priorLed: [(pattern: [UInt8], spam: Int, ham: Int, weight: Double)] = []
        var counted = Set<[UInt8]>()
        for (pattern, s, h) in counts where !isExcluded(pattern) {
            let w: Double
            if let prior {
                let key = asciiLowercased(pattern)
                counted.insert(key)
                guard prior.weights[key] != nil || s + h >= max(1, minCount) else { continue }
                w = prior.weight(of: key, spam: s, ham: h, spamRecords: spamRecords, hamRecords: hamRecords)
            } else {
                guard s + h >= max(1, minCount) else { continue }
                w = Self.weight(spam: Double(s), ham: Double(h), spamShare: p, smoothing: smoothing)
            }
            if !negativeWeights && w <= 0 { continue }
            if Self.rounded(w, decimals: Self.weightDecimals) == 0 { continue }
            if minDeviation > 0, abs(ScoreModel.probability(weight: w) - 0.5) < minDeviation { continue }
            if learnedTop != nil, let prior,
               prior.learnedShare(of: asciiLowercased(pattern), spam: s, ham: h, spamRecords: spamRecords, hamRecords: hamRecords) < 0.5 {
                priorLed.append((pattern, s, h, w))
            } else {
                candidates.append((pattern, s, h, w))
            }
        }
        // The prior's tokens no record contains keep their prior weight; with
        // learnedTop they, and those the prior still outweighs the records on, are kept
        // besides the learned ones, not ranked against them.
        if let prior {
            for (token, w) in prior.weights where !counted.contains(token) && !isExcluded(token) {
                if !negativeWeights && w <= 0 { continue }
                if learnedTop != nil { priorLed.append((token, 0, 0, w)) } else { candidates.append((token, 0, 0, w)) }
            }
        }
        let byEvidence = { (a: (pattern: [UInt8], spam: Int, ham: Int, weight: Double), b: (pattern: [UInt8], spam: Int, ham: Int, weight: Double)) in
            abs(a.weight) != abs(b.weight) ? abs(a.weight) > abs(b.weight) : a.pattern.lexicographicallyPrecedes(b.pattern)
        }
        candidates.sort(by: byEvidence)
        var kept = Array(candidates.prefix(learnedTop ?? top))
        if learnedTop != nil {
            priorLed.sort(by: byEvidence)
            kept += priorLed.prefix(max(0, top - kept.count))
        }
        return kept.map { c in
            var w = c.weight
            if let cap = maxWeight { w = min(max(w, -cap), cap) }
            if let cap = maxSpamWeight { w = min(w, cap) }
            return TrainedList.Entry(pattern: c.pattern, spamRecords: c.spam, hamRecords: c.ham,
                                     weight: Self.rounded(w, decimals: Self.weightDecimals))
        }
    }

    /// With ``thresholdFolds``, the score of each record of `indices` under a list
    /// trained on the other folds (in the order of `indices`); nil otherwise.
    func heldOutScores(_ set: TrainingSet, indices: [Int], labels: [Bool]) throws(TurnstileError) -> [Double]? {
        guard let k = thresholdFolds, k >= 2 else { return nil }
        // Too few records of a class to hold any out: the training scores decide
        // (the file then says "on the training records").
        guard k <= min(labels.filter { $0 }.count, labels.filter { !$0 }.count) else { return nil }
        let fold = CrossValidation.assignment(isSpam: labels, folds: k, seed: 1)
        var inner = self
        inner.thresholdFolds = nil
        var scores = [Double](repeating: 0, count: indices.count)
        for f in 0..<k {
            let trainPositions = indices.indices.filter { fold[$0] != f }
            let heldPositions = indices.indices.filter { fold[$0] == f }
            let list = try inner.train(set, subset: trainPositions.map { indices[$0] })
            let judged = try set.judge(rules: list.rules, threshold: 0, indices: heldPositions.map { indices[$0] },
                                       model: model)
            for (position, verdict) in zip(heldPositions, judged) { scores[position] = verdict.score }
        }
        return scores
    }

    /// The options every training checks.
    func checkSettings() throws(TurnstileError) {
        guard top >= 0 else { throw TurnstileError(.invalidOptions("--top must be at least 0")) }
        guard smoothing > 0, smoothing.isFinite else {
            throw TurnstileError(.invalidOptions("--smoothing must be a positive number"))
        }
        if let maxWeight, !(maxWeight > 0 && maxWeight.isFinite) {
            throw TurnstileError(.invalidOptions("--max-weight must be a positive number"))
        }
        if let thresholdFolds, thresholdFolds < 2 {
            throw TurnstileError(.invalidOptions("--threshold-folds must be at least 2"))
        }
        if let minRulesToFlag, minRulesToFlag < 1 {
            throw TurnstileError(.invalidOptions("--min-rules must be at least 1"))
        }
        if case .minCost(let c) = thresholdRule, !(c > 0 && c.isFinite) {
            throw TurnstileError(.invalidOptions("--fp-cost must be a positive number"))
        }
    }

    /// The lowest threshold the trainer may propose for `rules`: ``thresholdAbove``,
    /// raised to `(minRulesToFlag − 1) ×` the heaviest positive weight. Nil: no floor.
    public func thresholdFloor(rules: [SpamFilter.Rule]) -> Double? {
        var floor = thresholdAbove
        if let n = minRulesToFlag, n > 1 {
            let heaviest = rules.map(\.weight).max() ?? 0
            floor = max(floor ?? 0, Double(n - 1) * max(heaviest, 0))
        }
        return floor
    }

    /// The proposed threshold by ``thresholdRule`` and the best-F1 one, on the
    /// records' scores under the list.
    func chooseThreshold(scores: [Double], isSpam labels: [Bool], rules: [SpamFilter.Rule]) throws(TurnstileError) -> (ThresholdChoice, ThresholdChoice) {
        let floor = thresholdFloor(rules: rules)
        let candidatesT = ThresholdSelection.candidates(scores: scores, isSpam: labels, above: floor)
        guard let bestF1 = ThresholdSelection.bestF1(candidatesT) else {
            guard let floor, !scores.isEmpty else {
                throw TurnstileError(.invalidOptions("no records to choose a threshold on"))
            }
            // Every record scores at or below the floor: the threshold lies just above it
            // (half the heaviest weight), and every record is clean.
            let heaviest = rules.map(\.weight).max() ?? 0
            let spam = labels.filter { $0 }.count
            let t = Self.rounded(floor + (heaviest > 0 ? heaviest / 2 : 0.5), decimals: Self.thresholdDecimals)
            let none = ThresholdChoice(threshold: t, matrix: ConfusionMatrix(tp: 0, fp: 0, tn: labels.count - spam, fn: spam))
            if case .fixed(let fixed) = thresholdRule {
                let chosen = ThresholdChoice(threshold: fixed, matrix: Self.matrix(scores, labels, at: fixed))
                return (chosen, none)
            }
            return (none, none)
        }
        switch thresholdRule {
        case .bestF1:
            return (bestF1, bestF1)
        case .minPrecision(let minimum):
            guard let c = ThresholdSelection.lowest(candidatesT, minPrecision: minimum) else {
                throw TurnstileError(.invalidOptions(
                    "no threshold keeps the training precision at or above \(minimum) (the best F1 threshold \(Self.fixed(bestF1.threshold, decimals: Self.thresholdDecimals)) has precision \(Self.fixed(bestF1.matrix.precision, decimals: 4)))"))
            }
            return (c, bestF1)
        case .minCost(let cost):
            return (ThresholdSelection.minCost(candidatesT, falsePositiveCost: cost) ?? bestF1, bestF1)
        case .fixed(let t):
            return (ThresholdChoice(threshold: t, matrix: Self.matrix(scores, labels, at: t)), bestF1)
        }
    }

    /// The counts of "spam when score >= t".
    static func matrix(_ scores: [Double], _ labels: [Bool], at t: Double) -> ConfusionMatrix {
        var matrix = ConfusionMatrix()
        for (score, isSpam) in zip(scores, labels) {
            matrix.add(isSpam: isSpam, predictedSpam: score >= t - ThresholdSelection.tolerance)
        }
        return matrix
    }

    /// Whether a token is banned: the token itself (a scoped one such as `uri:docs`
    /// bans only that token) or its word, or any word of a bigram, without a mail
    /// scope prefix (`docs` bans `docs`, `uri:docs` and `subject:docs`), is among
    /// ``excludedWords``.
    func isExcluded(_ token: [UInt8]) -> Bool {
        if excludesNumbers, MailScope(rulePattern: token).pattern.allSatisfy({ ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x20 }) {
            return true
        }
        if excludedPrefixes.contains(where: { p in token.count >= p.count && asciiLowercasedPrefix(token, p.count) == p }) {
            return true
        }
        guard !excludedWords.isEmpty else { return false }
        if excludedWords.contains(asciiLowercased(token)) { return true }
        return MailScope(rulePattern: token).pattern.split(separator: 0x20).contains { excludedWords.contains(Array($0)) }
    }

    /// `x` rounded to `decimals` decimals, as written by ``fixed(_:decimals:)``
    /// and read back.
    public static func rounded(_ x: Double, decimals: Int) -> Double {
        Double(fixed(x, decimals: decimals))!
    }

    /// `x` with exactly `decimals` decimals (half away from zero; no "-0").
    public static func fixed(_ x: Double, decimals: Int) -> String {
        var scale: Int64 = 1
        for _ in 0..<decimals { scale *= 10 }
        let n = Int64((abs(x) * Double(scale)).rounded(.toNearestOrAwayFromZero))
        let sign = x < 0 && n != 0 ? "-" : ""
        guard decimals > 0 else { return sign + String(n) }
        var fraction = String(n % scale)
        while fraction.count < decimals { fraction = "0" + fraction }
        return "\(sign)\(n / scale).\(fraction)"
    }
}

/// A trained list: the kept words and phrases with their weights (rounded as
/// written), and the proposed threshold.
public struct TrainedList: Sendable, Hashable {
    /// One rule of the list and the counts behind its weight.
    public struct Entry: Sendable, Hashable {
        /// The word or phrase (matched with `-F -w -i`).
        public var pattern: [UInt8]
        /// Training records containing it, by class.
        public var spamRecords: Int
        public var hamRecords: Int
        /// The weight, rounded to ``SpamTrainer/weightDecimals`` decimals.
        public var weight: Double

        /// Heaviest first; ties by bytes.
        static func listOrder(_ a: Entry, _ b: Entry) -> Bool {
            a.weight != b.weight ? a.weight > b.weight : a.pattern.lexicographicallyPrecedes(b.pattern)
        }
    }

    /// Learned words, heaviest first.
    public var words: [Entry]
    /// Included (curated) phrases that were kept, heaviest first.
    public var phrases: [Entry]
    public var spamRecords: Int
    public var hamRecords: Int
    /// The proposed threshold (by the trainer's rule) and its training figures.
    public var threshold: ThresholdChoice
    /// The threshold with the best training F1 (equal to ``threshold`` under
    /// ``SpamTrainer/ThresholdRule/bestF1``).
    public var bestF1: ThresholdChoice
    /// With ``SpamTrainer/thresholdFolds`` (when ``threshold``'s figures are held-out
    /// ones): the list's figures on its own training records at that threshold.
    public var trainingMatrix: ConfusionMatrix? = nil
    /// How the weights combine (the trainer's ``SpamTrainer/model``).
    public var model: ScoreModel = .sum

    /// The rules in file order: words, then phrases.
    public var rules: [SpamFilter.Rule] {
        (words + phrases).map { SpamFilter.Rule(pattern: $0.pattern, weight: $0.weight) }
    }

    /// The filter `filter -F -w -i --rules FILE --threshold T` builds from the file.
    public func spamFilter() throws(TurnstileError) -> SpamFilter {
        try SpamFilter(rules: rules, options: SpamFilter.standardOptions, threshold: threshold.threshold, model: model)
    }

    /// The list as a rule set (its rules, options, threshold and model).
    public var ruleSet: RuleSet {
        RuleSet(rules: rules, options: SpamFilter.standardOptions, threshold: threshold.threshold, model: model)
    }

    /// The rules file: a `# threshold: T` first line, comment lines saying how it
    /// was made, then `word<TAB>weight` lines. `title` replaces the second line.
    public func ruleFileText(trainer: SpamTrainer, title: String? = nil, phraseSource: String? = nil) -> String {
        let f = { (x: Double) in SpamTrainer.fixed(x, decimals: 4) }
        let t = SpamTrainer.fixed(threshold.threshold, decimals: SpamTrainer.thresholdDecimals)
        let m = threshold.matrix
        var out = RuleFile.thresholdLine(t)
        // The options the words are matched with, so `filter --rules FILE` needs no flags.
        out += "# flags: \(RuleFile.Flags(literal: true, caseInsensitive: true, wholeWord: true).arguments)\n"
        if model != .sum { out += "# model: \(model.headerName)\n" }
        out += "# \(title ?? "Trained by 'turnstile train'"): \(spamRecords + hamRecords) records (\(spamRecords) spam, \(hamRecords) ham); "
        out += "top \(trainer.top), min count \(trainer.minCount), smoothing \(Self.plain(trainer.smoothing))"
        out += trainer.negativeWeights ? "" : ", positive weights only"
        out += ".\n"
        out += "# weight = ln((s + a*p) / (h + a*(1-p))) - ln(p / (1-p)): s, h = spam, ham records containing the word,\n"
        out += "# p = share of spam, a = smoothing. Matched as whole words, ASCII case-insensitive.\n"
        if let prior = trainer.prior {
            out += "# Each weight starts from the built-in mail list's (a prior worth \(Self.plain(prior.strength)) messages, fading as the records grow) and moves with the records.\n"
        }
        if model == .chiSquare {
            out += "# Model: chi-square combining (Robinson/Fisher, as bogofilter and SpamBayes): each weight is the logit of the word's\n"
            out += "# spam probability f (clamped to [0.01, 0.99]); the score I = (1 + S - H) / 2 of the words with |f - 0.5| >= 0.1 lies in [0, 1].\n"
        }
        let on = trainingMatrix != nil ? "held-out scores of the training records (\(trainer.thresholdFolds ?? 0) folds)" : "the training records"
        switch trainer.thresholdRule {
        case .bestF1:
            out += "# The threshold maximizes F1 on \(on):"
        case .minPrecision(let p):
            out += "# The threshold is the lowest keeping training precision >= \(Self.plain(p)):"
        case .fixed where m.total == 0:
            out += "# The threshold is fixed (learning moves token counts, not the threshold)."
        case .fixed:
            out += "# The threshold is fixed (learning moves token counts, not the threshold); on the learned records:"
        case .minCost(let c):
            out += "# The threshold minimizes \(Self.plain(c)) x FP + FN on \(on) (a ham judged spam costs \(Self.plain(c)) missed spam):"
        }
        if case .fixed = trainer.thresholdRule, m.total == 0 {
            out += "\n"
        } else {
            out += " precision \(f(m.precision)), recall \(f(m.recall)), F1 \(f(m.f1)) (tp \(m.tp), fp \(m.fp), tn \(m.tn), fn \(m.fn)).\n"
        }
        if let t = trainingMatrix {
            out += "# On the training records themselves: precision \(f(t.precision)), recall \(f(t.recall)), F1 \(f(t.f1)) (tp \(t.tp), fp \(t.fp), tn \(t.tn), fn \(t.fn)).\n"
        }
        if let cap = trainer.maxWeight {
            out += "# Every weight is clamped to +-\(Self.plain(cap)) (the heaviest here: \(f(rules.map(\.weight).max() ?? 0)))"
            if let n = trainer.minRulesToFlag, n > 1 {
                out += "; the threshold lies above \(n - 1) x the heaviest, so at least \(n) rules must fire for spam"
            }
            out += ".\n"
        } else if let n = trainer.minRulesToFlag, n > 1 {
            out += "# The threshold lies above \(n - 1) x the heaviest weight, so at least \(n) rules must fire for spam.\n"
        }
        if !trainer.excludedPrefixes.isEmpty {
            out += "# Left out: " + trainer.excludedPrefixes.map { String(decoding: $0, as: UTF8.self) + "*" }.joined(separator: ", ") + ".\n"
        }
        out += "# Use: turnstile filter --rules FILE (the threshold and flags above apply)\n"
        for e in words { out += RuleFile.ruleLine(e.pattern, weight: f(e.weight)) }
        if !phrases.isEmpty {
            out += "\n# Curated phrases\(phraseSource.map { " (\($0))" } ?? ""), weighted the same way with \(Self.plain(trainer.phrasePrior)) extra spam pseudo-record(s).\n"
            for e in phrases { out += RuleFile.ruleLine(e.pattern, weight: f(e.weight)) }
        }
        return out
    }

    /// A short number: no trailing ".0".
    static func plain(_ x: Double) -> String {
        x == x.rounded() && abs(x) < 1e15 ? String(Int64(x)) : String(x)
    }
}
