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
        // f0 = 1 / (1 + e^-1.4); p(w) = 0 (ham only); m = 100, n = 30 · 100 / (100 + 300)
        // = 7.5 (a token the prior has); the prior's 3 messages fade to 3 · 100 / 200 = 1.5.
        let f0 = 1 / (1 + exp(-1.4))
        let f = (1.5 * f0 + 7.5 * 0) / (1.5 + 7.5)
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
        // n = 3 · 3 / 303: the prior's 3 · 100 / 103 messages dominate.
        #expect(w > 1.2 && w < 1.4, "\(w)")
    }

    @Test("a word the prior lacks (most are neutral there) is no evidence after 30 + 30 lessons, and is after 1,000 + 1,000")
    func unknownWordsNeedMoreLessons() {
        let builtin = LearningPrior(rules: [Rule("invoice", weight: 1.4)], strength: LearningPrior.defaultStrength)
        let and = Array("and".utf8)
        // In every one of 30 ham and 3 of 30 spam: n = 33 · 30 / 1,030, k' = 30 · 100 / 130.
        let n = 33.0 * 30 / 1030, k = 30.0 * 100 / 130, pw = 0.1 / 1.1
        let f = (k * 0.5 + n * pw) / (k + n)
        let few = builtin.weight(of: and, spam: 3, ham: 30, spamRecords: 30, hamRecords: 30)
        #expect(abs(few - log(f / (1 - f))) < 1e-12, "\(few)")
        #expect(abs(ScoreModel.probability(weight: few) - 0.5) < ScoreModel.minimumDeviation, "no clue: \(few)")
        // The same shares in 1,000 + 1,000 lessons are the user's evidence.
        let many = builtin.weight(of: and, spam: 100, ham: 1000, spamRecords: 1000, hamRecords: 1000)
        #expect(ScoreModel.probability(weight: many) < 0.2, "\(many)")
        // A token the prior has moves sooner than one it lacks, on the same counts.
        let known = builtin.weight(of: token, spam: 0, ham: 30, spamRecords: 300, hamRecords: 300)
        let unknown = builtin.weight(of: Array("zzz".utf8), spam: 0, ham: 30, spamRecords: 300, hamRecords: 300)
        #expect(1.4 - known > 0 - unknown, "known \(known), unknown \(unknown)")
    }

    @Test("training from counts with a prior keeps the prior's tokens no message contains, and moves the others")
    func trainFromCounts() throws {
        var trainer = SpamTrainer.learnedMailSettings
        trainer.prior = prior
        let counts: [(token: [UInt8], spam: Int, ham: Int)] = [(Array("lunch".utf8), 0, 400), (Array("hello".utf8), 1, 0),
                                                               (Array("example".utf8), 400, 0)]
        let list = try trainer.train(counts: counts, spamRecords: 400, hamRecords: 400)
        let weights = Dictionary(uniqueKeysWithValues: list.words.map { (String(decoding: $0.pattern, as: UTF8.self), $0.weight) })
        #expect(weights["invoice"] == 1.4, "the prior's token, in no learned message")
        #expect((weights["lunch"] ?? 0) < -1, "a word of every learned ham: \(weights["lunch"] ?? 0)")
        #expect(weights["hello"] == nil, "below the minimum count and not in the prior")
        #expect(weights["example"] == nil, "RFC 2606's placeholder is never learned")
        #expect(list.threshold.threshold == ScoreModel.spamCutoff)
        // Without a prior the prior's token is not there.
        trainer.prior = nil
        let plain = try trainer.train(counts: counts, spamRecords: 400, hamRecords: 400)
        #expect(!plain.words.contains { $0.pattern == Array("invoice".utf8) })
    }

    @Test("learnedTop caps the tokens the learned mail decides, strongest first, and keeps those the prior still decides")
    func learnedTopCapsLearnedTokens() throws {
        var trainer = SpamTrainer.learnedMailSettings
        trainer.prior = LearningPrior(rules: [Rule("invoice", weight: 1.4), Rule("parcel", weight: 1.2)], strength: 30)
        trainer.learnedTop = 2
        trainer.top = 10
        // 1,000 + 1,000 lessons: k' = 30 · 100 / 1,100; a token in 40 messages has
        // n = 40 · 1,000 / 2,000 = 20 (prior's token) or 40 · 1,000 / 2,000 (c = 1,000): learned.
        let counts: [(token: [UInt8], spam: Int, ham: Int)] = [
            (Array("strong".utf8), 60, 0), (Array("stronger".utf8), 200, 0), (Array("weak".utf8), 30, 10),
            (Array("lunch".utf8), 0, 300), (Array("parcel".utf8), 1, 0),
        ]
        let share = try #require(trainer.prior).learnedShare(of: Array("parcel".utf8), spam: 1, ham: 0, spamRecords: 1000, hamRecords: 1000)
        #expect(share < 0.5, "one message does not outweigh the prior: \(share)")
        let list = try trainer.train(counts: counts, spamRecords: 1000, hamRecords: 1000)
        let names = Set(list.words.map { String(decoding: $0.pattern, as: UTF8.self) })
        // Learned-led: stronger, lunch (clamped, ±4.6), strong, weak; the two strongest kept.
        #expect(names.contains("lunch") && names.contains("stronger"), "\(names)")
        #expect(!names.contains("weak") && !names.contains("strong"), "past learnedTop: \(names)")
        // Prior-led: invoice (in no message) and parcel (one message) kept besides.
        #expect(names.contains("invoice") && names.contains("parcel"), "\(names)")
        // Without learnedTop every token is ranked for top.
        trainer.learnedTop = nil
        let all = try trainer.train(counts: counts, spamRecords: 1000, hamRecords: 1000)
        #expect(all.words.count == 6, "\(all.words.map { String(decoding: $0.pattern, as: UTF8.self) })")
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
