import Foundation
import Testing
import Turnstile

/// ``LearningPrior``: a learned list starts from the built-in list's evidence and moves
/// from it as mail is learned (issue 52). Expected values are computed by hand from
/// the formula in LearningPrior.swift.
@Suite("learning prior")
struct LearningPriorTests {
    let token = Array("invoice".utf8)
    let prior = LearningPrior(rules: [Rule("Invoice", weight: 1.4)], strength: 3)

    @Test("a token no learned message contains keeps its prior weight exactly")
    func nothingLearned() {
        #expect(prior.weight(of: token, spam: 0, ham: 0, spamRecords: 10, hamRecords: 10) == 1.4)
        #expect(prior.weight(of: Array("unknown".utf8), spam: 0, ham: 0, spamRecords: 10, hamRecords: 10) == 0)
    }

    @Test("learned evidence moves the weight, by the formula, and more lessons move it further")
    func learnedMoves() {
        // f0 = 1 / (1 + e^-1.4); p(w) = 0 (ham only); m = 100, n = 30 · 100 / 200 = 15.
        let f0 = 1 / (1 + exp(-1.4))
        let f = (3 * f0 + 15 * 0) / (3 + 15)
        let expected = log(f / (1 - f))
        let w = prior.weight(of: token, spam: 0, ham: 30, spamRecords: 100, hamRecords: 100)
        #expect(abs(w - expected) < 1e-12, "\(w) against \(expected)")
        #expect(w < 0, "the user's ham says the word is ham")
        let fewer = prior.weight(of: token, spam: 0, ham: 3, spamRecords: 10, hamRecords: 10)
        #expect(fewer > w && fewer < 1.4, "three lessons move it less than thirty: \(fewer)")
        // Spam evidence pushes it up, never past the model's clamp (f = 0.99).
        let spam = prior.weight(of: token, spam: 1000, ham: 0, spamRecords: 1000, hamRecords: 1000)
        #expect(spam > 1.4 && spam <= log(0.99 / 0.01) + 1e-12)
    }

    @Test("a share measured on few messages counts little: 3 + 3 lessons hardly move a token")
    func fewLessonsCountLittle() {
        let w = prior.weight(of: token, spam: 0, ham: 3, spamRecords: 3, hamRecords: 3)
        // n = 3 · 3 / 103: the prior's 3 messages dominate.
        #expect(w > 1.2 && w < 1.4, "\(w)")
    }

    @Test("training from counts with a prior keeps the prior's tokens no message contains, and moves the others")
    func trainFromCounts() throws {
        var trainer = SpamTrainer.learnedMailSettings
        trainer.prior = prior
        let counts: [(token: [UInt8], spam: Int, ham: Int)] = [(Array("lunch".utf8), 0, 40), (Array("hello".utf8), 1, 0)]
        let list = try trainer.train(counts: counts, spamRecords: 40, hamRecords: 40)
        let weights = Dictionary(uniqueKeysWithValues: list.words.map { (String(decoding: $0.pattern, as: UTF8.self), $0.weight) })
        #expect(weights["invoice"] == 1.4, "the prior's token, in no learned message")
        #expect((weights["lunch"] ?? 0) < -1, "a word of every learned ham: \(weights["lunch"] ?? 0)")
        #expect(weights["hello"] == nil, "below the minimum count and not in the prior")
        #expect(list.threshold.threshold == ScoreModel.spamCutoff)
        // Without a prior the prior's token is not there.
        trainer.prior = nil
        let plain = try trainer.train(counts: counts, spamRecords: 40, hamRecords: 40)
        #expect(!plain.words.contains { $0.pattern == Array("invoice".utf8) })
    }

    @Test("the built-in prior is the built-in list's trained tokens, without its hand-written rules")
    func builtinPrior() {
        let builtin = LearningPrior.builtinMail
        let handWritten = DefaultMailList.builtinRules.count
        #expect(builtin.weights.count + handWritten == DefaultMailList.rules.count)
        #expect(builtin.weights.values.allSatisfy { abs($0) <= 1.4 })
        #expect(builtin.strength == LearningPrior.defaultStrength)
    }
}
