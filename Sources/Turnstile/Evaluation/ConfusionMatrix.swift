// The confusion matrix of a spam filter over labelled records, and the figures
// derived from it. Spam is the positive class.

/// Counts of a binary classification, spam being the positive class.
///
/// A ratio whose denominator is 0 is defined as 0 (no spam predicted → precision 0;
/// no spam present → recall 0), so every figure is a finite number.
///
/// ```swift
/// var m = ConfusionMatrix()
/// m.add(isSpam: true, predictedSpam: true)    // tp
/// m.add(isSpam: false, predictedSpam: true)   // fp
/// m.precision   // 0.5
/// ```
public struct ConfusionMatrix: Sendable, Hashable {
    /// Spam judged spam.
    public var tp = 0
    /// Ham judged spam (false positives: the errors users mind most).
    public var fp = 0
    /// Ham judged ham.
    public var tn = 0
    /// Spam judged ham (missed spam).
    public var fn = 0

    public init(tp: Int = 0, fp: Int = 0, tn: Int = 0, fn: Int = 0) {
        self.tp = tp
        self.fp = fp
        self.tn = tn
        self.fn = fn
    }

    /// Counts one record.
    public mutating func add(isSpam: Bool, predictedSpam: Bool) {
        switch (isSpam, predictedSpam) {
        case (true, true): tp += 1
        case (false, true): fp += 1
        case (false, false): tn += 1
        case (true, false): fn += 1
        }
    }

    /// All records.
    public var total: Int { tp + fp + tn + fn }
    /// Records labelled spam.
    public var spam: Int { tp + fn }
    /// Records labelled ham.
    public var ham: Int { fp + tn }

    /// tp / (tp + fp): the share of records judged spam that are spam.
    public var precision: Double { Self.ratio(tp, tp + fp) }
    /// tp / (tp + fn): the share of spam that was caught.
    public var recall: Double { Self.ratio(tp, tp + fn) }
    /// The harmonic mean of precision and recall, 2tp / (2tp + fp + fn).
    public var f1: Double { Self.ratio(2 * tp, 2 * tp + fp + fn) }
    /// (tp + tn) / total.
    public var accuracy: Double { Self.ratio(tp + tn, total) }

    static func ratio(_ a: Int, _ b: Int) -> Double { b == 0 ? 0 : Double(a) / Double(b) }

    /// The sum of two matrices (pooling folds).
    public static func + (a: ConfusionMatrix, b: ConfusionMatrix) -> ConfusionMatrix {
        ConfusionMatrix(tp: a.tp + b.tp, fp: a.fp + b.fp, tn: a.tn + b.tn, fn: a.fn + b.fn)
    }
}
