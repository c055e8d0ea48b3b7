// The settings the built-in lists were chosen with, as `train`'s defaults: a list
// trained without options is then as safe as the built-in one on unseen data. The
// library's own `SpamTrainer()` keeps its plain initial values (300 words, min count
// 3, smoothing 1, best F1), which the unit tests compute by hand.

extension SpamTrainer {
    /// The built-in SMS list's settings (`Scripts/train-default-list.sh`, chosen by
    /// 5-fold cross-validation over three seeds): 2,000 words in at least 2 records,
    /// smoothing 5, the lowest threshold keeping training precision ≥ 0.99.
    public static var textSettings: SpamTrainer {
        var trainer = SpamTrainer()
        trainer.top = 2000
        trainer.minCount = 2
        trainer.smoothing = 5
        trainer.thresholdRule = .minPrecision(0.99)
        return trainer
    }

    /// The built-in mail list's settings (`Scripts/train-default-mail-list.sh`, chosen
    /// by 5-fold cross-validation): 5,000 tokens in at least 2 messages, smoothing 1,
    /// the best-F1 threshold above 0 (a message in which no rule fires is clean).
    public static var mailSettings: SpamTrainer {
        var trainer = SpamTrainer()
        trainer.top = 5000
        trainer.minCount = 2
        trainer.smoothing = 1
        trainer.thresholdRule = .bestF1
        trainer.thresholdAbove = 0
        return trainer
    }

    /// ``mailSettings`` for the mail formats, ``textSettings`` for lines.
    public static func chosenSettings(for format: RecordFormat) -> SpamTrainer {
        format.isMail ? mailSettings : textSettings
    }
}
