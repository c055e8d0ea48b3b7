// Choosing a spam filter's threshold from labelled scores.
//
// A record is spam when its score reaches the threshold (`score >= t`), so only the
// distinct scores matter: for each one, "spam from this score up" is one candidate.
// The threshold written for a candidate is the midpoint between its score and the
// next lower distinct score, rounded to `SpamTrainer.thresholdDecimals` decimals: a
// value no record's score is close to, so the rounding of weights in a rules file
// and the order of floating-point additions cannot move a record across it.

// The decision itself is `RecordJudge.isSpam(score:threshold:precision:)`, which
// compares scores at the decimals the weights carry; the candidates below count
// records in score order, and each threshold lies half-way between two distinct
// scores, far from both, so the two rules agree.

/// A threshold and the confusion matrix it gives on the records it was chosen on.
public struct ThresholdChoice: Sendable, Hashable {
    public var threshold: Double
    public var matrix: ConfusionMatrix

    public init(threshold: Double, matrix: ConfusionMatrix) {
        self.threshold = threshold
        self.matrix = matrix
    }
}

/// Candidate thresholds over scored records, and the two rules `turnstile train`
/// proposes a threshold by.
///
/// ```swift
/// let c = ThresholdSelection.candidates(scores: [3, 2, 0.5, -1], isSpam: [true, true, false, false])
/// ThresholdSelection.bestF1(c)?.threshold   // 1.25: the midpoint between 2 and 0.5
/// ```
///
/// - Complexity: O(n log n) for n records.
public enum ThresholdSelection {
    /// Scores closer than this are the same score (sums of rounded weights differ
    /// only by floating-point noise, far below a weight's last decimal).
    static let tolerance = 1e-7

    /// One candidate per distinct score, highest threshold first, each with the
    /// matrix of "spam when score >= threshold".
    ///
    /// `above`: only thresholds above this floor. A score above the floor whose next
    /// lower score is at or below it gets the midpoint between the score and the
    /// floor instead (the same records are spam), so a floor of 0 never hides the
    /// threshold that separates the lowest positive spam score from ham at or below 0.
    public static func candidates(scores: [Double], isSpam: [Bool], above floor: Double? = nil) -> [ThresholdChoice] {
        precondition(scores.count == isSpam.count)
        let order = scores.indices.sorted { scores[$0] != scores[$1] ? scores[$0] > scores[$1] : $0 < $1 }
        let spamTotal = isSpam.filter { $0 }.count
        let hamTotal = isSpam.count - spamTotal
        var result: [ThresholdChoice] = []
        var tp = 0, fp = 0
        var i = 0
        while i < order.count {
            let value = scores[order[i]]
            // Take every record with this score.
            while i < order.count, value - scores[order[i]] <= tolerance {
                if isSpam[order[i]] { tp += 1 } else { fp += 1 }
                i += 1
            }
            var next = i < order.count ? scores[order[i]] : value - 2
            if let floor {
                if value <= floor + tolerance { break }  // every lower score is below the floor too
                next = max(next, floor)
            }
            let threshold = SpamTrainer.rounded((value + next) / 2, decimals: SpamTrainer.thresholdDecimals)
            if let floor, threshold <= floor { continue }
            result.append(ThresholdChoice(
                threshold: threshold,
                matrix: ConfusionMatrix(tp: tp, fp: fp, tn: hamTotal - fp, fn: spamTotal - tp)))
        }
        return result
    }

    /// The candidate with the highest F1; among equals, the highest threshold (the
    /// fewest records judged spam). Nil when there are no candidates.
    public static func bestF1(_ candidates: [ThresholdChoice]) -> ThresholdChoice? {
        var best: ThresholdChoice?
        for c in candidates where best == nil || c.matrix.f1 > best!.matrix.f1 {
            best = c
        }
        return best
    }

    /// The candidate with the lowest `falsePositiveCost × fp + fn`; among equals, the
    /// highest threshold. Nil when there are no candidates.
    public static func minCost(_ candidates: [ThresholdChoice], falsePositiveCost: Double) -> ThresholdChoice? {
        var best: ThresholdChoice?
        var bestCost = Double.infinity
        for c in candidates {
            let cost = falsePositiveCost * Double(c.matrix.fp) + Double(c.matrix.fn)
            if cost < bestCost { best = c; bestCost = cost }
        }
        return best
    }

    /// The lowest threshold whose precision is at least `minPrecision`, or nil when
    /// no candidate reaches it.
    public static func lowest(_ candidates: [ThresholdChoice], minPrecision: Double) -> ThresholdChoice? {
        candidates.last { $0.matrix.tp > 0 && $0.matrix.precision >= minPrecision }
    }
}
