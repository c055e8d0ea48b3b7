// k-fold cross-validation of the whole training procedure (`turnstile train
// --folds K`): for each fold, train on the other folds — weights *and* threshold —
// and count the fold's records with that list. The mean figures over folds estimate
// how a list trained on all records does on records it has not seen, which is what
// K, the smoothing and the threshold rule are chosen by.

import AutomatonCore

/// Stratified k-fold cross-validation with a fixed seed.
///
/// ```swift
/// let folds = try CrossValidation.run(set, trainer: SpamTrainer(), folds: 5, seed: 1)
/// CrossValidation.mean(folds, \.f1)   // mean held-out F1
/// ```
///
/// - Complexity: `folds` trainings.
public enum CrossValidation {
    /// One fold: the threshold chosen on its training part and the counts on its
    /// held-out part.
    public struct Fold: Sendable, Hashable {
        public var threshold: Double
        /// Counts on the fold's training part at that threshold.
        public var training: ConfusionMatrix
        /// Counts on the held-out fold.
        public var heldOut: ConfusionMatrix
        /// Rules in the list trained for this fold.
        public var rules: Int
    }

    /// The fold (0..<folds) of each record: spam and ham are each shuffled with the
    /// seed and dealt round-robin, so every fold has the same share of spam.
    public static func assignment(isSpam: [Bool], folds: Int, seed: UInt64) -> [Int] {
        var generator = SplitMix64(seed: seed)
        var result = [Int](repeating: 0, count: isSpam.count)
        for label in [true, false] {
            var members = isSpam.indices.filter { isSpam[$0] == label }
            // Fisher–Yates with the seeded generator (not the standard library's
            // shuffle, whose algorithm may change between releases).
            if members.count > 1 {
                for i in stride(from: members.count - 1, to: 0, by: -1) {
                    let j = Int(generator.next() % UInt64(i + 1))
                    members.swapAt(i, j)
                }
            }
            for (k, index) in members.enumerated() { result[index] = k % folds }
        }
        return result
    }

    /// Runs the cross-validation.
    ///
    /// - Throws: ``TurnstileError`` when `folds` is below 2 or above the number of
    ///   records of a class, or a fold cannot be trained.
    public static func run(_ set: TrainingSet, trainer: SpamTrainer, folds: Int, seed: UInt64) throws(TurnstileError) -> [Fold] {
        let labels = set.records.map(\.isSpam)
        let minority = min(labels.filter { $0 }.count, labels.filter { !$0 }.count)
        guard folds >= 2, folds <= minority else {
            throw TurnstileError(.invalidOptions(
                "--folds must be between 2 and the number of records of the smaller class (\(minority))"))
        }
        let fold = assignment(isSpam: labels, folds: folds, seed: seed)
        var result: [Fold] = []
        for k in 0..<folds {
            let trainIndices = set.records.indices.filter { fold[$0] != k }
            let list = try trainer.train(set, subset: trainIndices)
            let heldOut = set.records.indices.filter { fold[$0] == k }
            var matrix = ConfusionMatrix()
            for (i, verdict) in zip(heldOut, try set.judge(rules: list.rules, threshold: list.threshold.threshold,
                                                          indices: heldOut, model: list.model)) {
                matrix.add(isSpam: labels[i], predictedSpam: verdict.isSpam)
            }
            result.append(Fold(threshold: list.threshold.threshold, training: list.threshold.matrix,
                               heldOut: matrix, rules: list.words.count + list.phrases.count))
        }
        return result
    }

    /// The mean of a held-out figure over the folds.
    public static func mean(_ folds: [Fold], _ figure: KeyPath<ConfusionMatrix, Double>) -> Double {
        folds.isEmpty ? 0 : folds.map { $0.heldOut[keyPath: figure] }.reduce(0, +) / Double(folds.count)
    }
}
