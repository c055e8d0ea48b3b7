import Testing
import Turnstile

/// `train --threshold-above T` (the mail default, T = 0): the threshold between the
/// lowest spam score above the floor and the ham below it is a candidate, not lost
/// because the plain midpoint would be under the floor.
@Suite("threshold candidates above a floor")
struct ThresholdFloorTests {
    @Test("a midpoint under the floor becomes the midpoint between the score and the floor")
    func floor() {
        let scores: [Double] = [2, 0.4, -1], spam = [true, true, false]
        #expect(ThresholdSelection.candidates(scores: scores, isSpam: spam).map(\.threshold) == [1.2, -0.3, -2])
        let above = ThresholdSelection.candidates(scores: scores, isSpam: spam, above: 0)
        #expect(above.map(\.threshold) == [1.2, 0.2])
        #expect(ThresholdSelection.bestF1(above)?.threshold == 0.2)
        #expect(ThresholdSelection.bestF1(above)?.matrix.f1 == 1)
    }

    @Test("the trained defaults: mail is chi-square at a fixed threshold, lines take the SMS list's settings")
    func chosenSettings() {
        #expect(SpamTrainer.chosenSettings(for: .mbox).model == .chiSquare)
        #expect(SpamTrainer.chosenSettings(for: .mbox).thresholdRule == .fixed(ScoreModel.spamCutoff))
        #expect(SpamTrainer.chosenSettings(for: .mbox).top == 10000)
        #expect(SpamTrainer.chosenSettings(for: .lines).top == 2000)
        #expect(SpamTrainer.chosenSettings(for: .lines).thresholdRule == .minPrecision(0.99))
    }
}
