// How the evidence of a record — the distinct rules that fired — becomes a score. Two
// models, named by a rules file's `# model:` header:
//
// - `sum` (the default, and every list before issue 43): the score is the sum of the
//   weights; spam when it reaches the threshold.
// - `chi-square`: Robinson's chi-square combining, as in SpamBayes and bogofilter
//   (G. Robinson, "A Statistical Approach to the Spam Problem", Linux Journal 107,
//   2003; T. Peters' chi2 combining in SpamBayes `classifier.py`). Each weight is the
//   rule's log-odds w = ln(f / (1 − f)), so f = 1 / (1 + e^−w) is the probability that
//   a record containing it is spam (a trained token's f is Robinson's smoothed
//   p(w)). The tokens whose f lies at least `minimumDeviation` from 0.5 — at most
//   `maximumClues` of them, the most extreme first — are combined with Fisher's method:
//       H = 1 − C⁻¹(−2 Σ ln f, 2n)      S = 1 − C⁻¹(−2 Σ ln (1 − f), 2n)
//       I = (1 + S − H) / 2              (C⁻¹: the chi-square survival function)
//   with `neutralClues` tokens of f = 0.5 counted in n and in both sums, so that two or
//   three weak tokens are not read as certainty.
//   I near 1 is spam, near 0 ham, near 0.5 "don't know". Many weak tokens and a few
//   strong ones both count, and because each f is clamped to
//   [1 − `maximumProbability`, `maximumProbability`] and one token alone gives at most
//   I = f (less with the neutral clues), a single token never reaches a threshold of
//   `maximumProbability` or below it: one token alone never decides.
//   A record scoring below `hamCutoff` is ham; between it and the threshold, unsure.
//
// Known limits: Fisher's method assumes independent tokens, which words are not (the
// reason I is read in bands, not as a calibrated probability).

/// How a record's fired rules become its score (see ``RecordJudge``).
///
/// ```swift
/// let model = ScoreModel(header: "chi-square")        // .chiSquare
/// model?.score(weights: [4.6, 4.6, 3])                // 0.9999…: three strong spam tokens
/// ScoreModel.chiSquare.score(weights: [4.6])          // 0.886: one token alone is never sure
/// ScoreModel.sum.score(weights: [1, 2])               // 3
/// ```
///
/// - Complexity: `sum` is O(1) per rule that fires; `chi-square` is O(n log n) for the
///   n rules that fired, once per record.
public enum ScoreModel: Sendable, Hashable {
    /// The score is the sum of the weights.
    case sum
    /// Robinson's chi-square combining of the weights read as log-odds.
    case chiSquare

    /// Tokens closer than this to f = 0.5 are left out (SpamBayes' minimum_prob_strength).
    public static let minimumDeviation = 0.1
    /// At most this many tokens, the most extreme first, are combined (SpamBayes'
    /// max_discriminators).
    public static let maximumClues = 150
    /// Clues of f = 0.5 added to every record that has any: a record with only two or
    /// three weak tokens stays near "don't know" instead of being called with the
    /// confidence Fisher's method gives independent evidence (measured on present-day
    /// ham, issue 43: short notices whose few words were spam words in 2002).
    public static let neutralClues = 2
    /// Each token's f is clamped to [1 − this, this]: no single token scores above it.
    public static let maximumProbability = 0.99
    /// A chi-square score below this is ham; from it to the threshold, unsure
    /// (SpamBayes' ham_cutoff).
    public static let hamCutoff = 0.2
    /// The threshold (spam cutoff) chi-square lists are trained and learned at: fixed,
    /// so learning more mail never moves it.
    public static let spamCutoff = 0.9

    /// The model a `# model:` header names (`sum`, `chi-square`), nil for another.
    public init?(header: String) {
        switch header.lowercased().split(separator: " ").first {
        case "sum": self = .sum
        case "chi-square", "chisquare", "chi2": self = .chiSquare
        default: return nil
        }
    }

    /// The name written in a rules file's `# model:` header.
    public var headerName: String {
        switch self {
        case .sum: return "sum"
        case .chiSquare: return "chi-square"
        }
    }

    /// The score of a record with no evidence: 0, or 0.5 ("don't know").
    public var emptyScore: Double { self == .sum ? 0 : 0.5 }

    /// The probability f a log-odds weight stands for, clamped to
    /// [1 − ``maximumProbability``, ``maximumProbability``].
    public static func probability(weight w: Double) -> Double {
        let f = 1 / (1 + exponential(-w))
        return min(max(f, 1 - maximumProbability), maximumProbability)
    }

    /// The log-odds weight of probability `f` (the inverse of ``probability(weight:)``
    /// inside the clamp).
    public static func weight(probability f: Double) -> Double {
        naturalLog(f / (1 - f))
    }

    /// The score of the record whose fired rules weigh `weights`.
    public func score(weights: some Collection<Double>) -> Double {
        switch self {
        case .sum:
            return weights.reduce(0, +)
        case .chiSquare:
            var clues: [Double] = []
            clues.reserveCapacity(weights.count)
            for w in weights {
                let f = Self.probability(weight: w)
                if abs(f - 0.5) >= Self.minimumDeviation { clues.append(f) }
            }
            if clues.count > Self.maximumClues {
                clues.sort { abs($0 - 0.5) > abs($1 - 0.5) }
                clues.removeLast(clues.count - Self.maximumClues)
            }
            return Self.indicator(clues)
        }
    }

    /// Fisher-Robinson's indicator I of token probabilities `clues` (0.5 for none).
    static func indicator(_ clues: [Double]) -> Double {
        guard !clues.isEmpty else { return 0.5 }
        var lnHam = Double(neutralClues) * naturalLog(0.5), lnSpam = lnHam
        for f in clues {
            lnHam += naturalLog(f)          // evidence against ham-ness of f: ln f
            lnSpam += naturalLog(1 - f)
        }
        let n = clues.count + neutralClues
        let h = 1 - chiSquareSurvival(-2 * lnHam, degreesOfFreedom: 2 * n)
        let s = 1 - chiSquareSurvival(-2 * lnSpam, degreesOfFreedom: 2 * n)
        return (1 + s - h) / 2
    }

    /// P(χ² ≥ x) for an even number of degrees of freedom (the series of SpamBayes'
    /// `chi2Q`).
    static func chiSquareSurvival(_ x: Double, degreesOfFreedom v: Int) -> Double {
        let m = x / 2
        var term = exponential(-m)
        var sum = term
        if v >= 4 {
            for i in 1..<(v / 2) {
                term *= m / Double(i)
                sum += term
            }
        }
        return min(sum, 1)
    }
}
