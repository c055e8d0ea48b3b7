import Foundation
import Testing
import TestSupport
@testable import Turnstile

@Suite("Training: tokenizer, weights, thresholds, cross-validation")
struct TrainingTests {
    @Test("words are Unicode words, case-folded; only all-ASCII words are matchable")
    func tokenizer() {
        let text = Array("WIN £100 now! Don't miss: Café naïve ＷＩＮ snake_case 2day".utf8)
        #expect(WordTokenizer.words(in: text)
            == ["win", "100", "now", "don", "t", "miss", "café", "naïve", "ｗｉｎ", "snake_case", "2day"])
        #expect(WordTokenizer.matchableWords(in: text).map { String(decoding: $0, as: UTF8.self) }
            == ["100", "2day", "don", "miss", "now", "snake_case", "t", "win"])
        // KELVIN SIGN lowercases to ASCII "k", but ASCII case folding would not match it.
        #expect(WordTokenizer.matchableWords(in: Array("\u{212A}ey key".utf8)) == [Array("key".utf8)])
        // Invalid UTF-8 separates words.
        #expect(WordTokenizer.matchableWords(in: [0x61, 0xFF, 0x62]) == [[0x61], [0x62]])
        #expect(WordTokenizer.words(in: []) == [])
    }

    @Test("the weight formula on hand-computed values")
    func weightFormula() {
        // p = 0.4 (2 spam of 5), a = 1: weight = ln((s + 0.4) / (h + 0.6)) - ln(0.4 / 0.6).
        func w(_ s: Double, _ h: Double) -> Double { SpamTrainer.weight(spam: s, ham: h, spamShare: 0.4, smoothing: 1) }
        #expect(abs(w(2, 0) - log(6.0)) < 1e-12)       // ln(2.4 / 0.6) + ln 1.5 = ln 6
        #expect(abs(w(1, 0) - log(3.5)) < 1e-12)       // ln(1.4 / 0.6) + ln 1.5 = ln 3.5
        #expect(abs(w(1, 1) - log(1.3125)) < 1e-12)    // ln(1.4 / 1.6) + ln 1.5
        #expect(abs(w(0, 1) - log(0.375)) < 1e-12)     // ln(0.4 / 1.6) + ln 1.5
        #expect(w(0, 0) == 0, "a word never seen weighs nothing")
    }

    /// Corpora/eval/tiny-train.tsv:
    ///
    ///     spam  WIN cash now!          win cash now
    ///     ham   see you now            see you now
    ///     spam  Win a prize, win big   win a prize big
    ///     ham   a cup of tea           a cup of tea
    ///     ham   Café at noon?          at noon            ("café" is not ASCII: dropped)
    ///
    /// p = 2/5 = 0.4, a = 1, so weight = ln((s + 0.4) / (h + 0.6)) + ln 1.5:
    ///
    ///     win    s 2 h 0   ln(2.4/0.6) + ln 1.5 = ln 6      =  1.791759 →  1.7918
    ///     big, cash, prize  s 1 h 0   ln 3.5                 =  1.252763 →  1.2528
    ///     a, now s 1 h 1   ln(1.4/1.6) + ln 1.5 = ln 1.3125 =  0.271934 →  0.2719
    ///     at, cup, noon, of, see, tea, you  s 0 h 1  ln 0.375 = -0.980829 → -0.9808
    ///
    /// Top 6 by |weight|, ties by word: win, big, cash, prize, at, cup. Scores: spam 1
    /// = win + cash = 3.0446, spam 2 = win + prize + big = 4.2974, hams 0, -0.9808,
    /// -0.9808. "Spam from 3.0446 up" catches both spam and no ham (F1 1); the
    /// threshold is the midpoint between 3.0446 and 0: 1.5223.
    @Test("train on the tiny corpus: hand-computed weights, order and threshold")
    func tinyCorpus() throws {
        let url = SharedCorpora.ownCorpora.appendingPathComponent("eval/tiny-train.tsv")
        let records = try LabelledRecord.parse([UInt8](try Data(contentsOf: url)), source: "tiny-train.tsv")
        #expect(records.map(\.isSpam) == [true, false, true, false, false])
        let set = try TrainingSet(records: records)
        #expect(set.vocabulary.count == 13)   // win cash now see you a prize big cup of tea at noon
        var trainer = SpamTrainer()
        trainer.top = 6
        trainer.minCount = 1
        let list = try trainer.train(set)
        #expect(list.words.map { String(decoding: $0.pattern, as: UTF8.self) } == ["win", "big", "cash", "prize", "at", "cup"])
        #expect(list.words.map(\.weight) == [1.7918, 1.2528, 1.2528, 1.2528, -0.9808, -0.9808])
        #expect(list.words.map(\.spamRecords) == [2, 1, 1, 1, 0, 0])
        #expect(list.words.map(\.hamRecords) == [0, 0, 0, 0, 1, 1])
        #expect(list.threshold.threshold == 1.5223)
        #expect(list.threshold.matrix == ConfusionMatrix(tp: 2, fp: 0, tn: 3, fn: 0))
        // With --min-count 2 only win (2 records), a and now (2 each) qualify.
        trainer.minCount = 2
        #expect(try trainer.train(set).words.map { String(decoding: $0.pattern, as: UTF8.self) } == ["win", "a", "now"])
        trainer.negativeWeights = false
        trainer.minCount = 1
        trainer.top = 100
        #expect(try trainer.train(set).words.allSatisfy { $0.weight > 0 })
    }

    @Test("an excluded scoped token (uri:docs) bans only that token; an excluded word bans it in every scope")
    func scopedExclusions() {
        var trainer = SpamTrainer()
        trainer.excludedWords = [Array("uri:docs".utf8), Array("thank".utf8)]
        #expect(trainer.isExcluded(Array("uri:docs".utf8)))
        #expect(trainer.isExcluded(Array("URI:Docs".utf8)))
        #expect(!trainer.isExcluded(Array("docs".utf8)))
        #expect(!trainer.isExcluded(Array("subject:docs".utf8)))
        #expect(trainer.isExcluded(Array("thank".utf8)))
        #expect(trainer.isExcluded(Array("subject:thank".utf8)))
        #expect(trainer.isExcluded(Array("thank you".utf8)))
        #expect(!trainer.isExcluded(Array("thanks".utf8)))
    }

    @Test("threshold candidates, best F1 (highest among equals) and minimum precision")
    func thresholds() {
        // Scores, highest first: 5 S, 4 H, 3 S, 3 S, 1 H, 0 S, -1 H.
        let scores: [Double] = [3, 4, 1, 5, 0, -1, 3]
        let spam = [true, false, false, true, true, false, true]
        let c = ThresholdSelection.candidates(scores: scores, isSpam: spam)
        #expect(c.map(\.threshold) == [4.5, 3.5, 2, 0.5, -0.5, -2])
        #expect(c.map(\.matrix.tp) == [1, 1, 3, 3, 4, 4])
        #expect(c.map(\.matrix.fp) == [0, 1, 1, 2, 2, 3])
        // F1: 2/5, 2/6, 6/8, 6/9, 8/10, 8/11 → the best is 0.8 at -0.5.
        #expect(ThresholdSelection.bestF1(c)?.threshold == -0.5)
        #expect(ThresholdSelection.lowest(c, minPrecision: 0.75)?.threshold == 2)   // precision 3/4
        // Precision is not monotone (1, 1/2, 3/4, 3/5, 4/6, 4/7): the lowest threshold
        // reaching 0.7 is 2, even though 3.5 above it does not reach it.
        #expect(ThresholdSelection.lowest(c, minPrecision: 0.7)?.threshold == 2)
        #expect(ThresholdSelection.lowest(c, minPrecision: 1)?.threshold == 4.5)
        #expect(ThresholdSelection.lowest(c, minPrecision: 0.5)?.threshold == -2)   // 4/7
        // Equal F1: the higher threshold wins.
        let tie = ThresholdSelection.candidates(scores: [2, 1], isSpam: [true, false])
        #expect(ThresholdSelection.bestF1(tie)?.threshold == 1.5)
        #expect(ThresholdSelection.candidates(scores: [], isSpam: []).isEmpty)
    }

    @Test("fixed decimals: half away from zero, no negative zero")
    func fixedFormatting() {
        #expect(SpamTrainer.fixed(1.791759, decimals: 4) == "1.7918")
        #expect(SpamTrainer.fixed(-0.980829, decimals: 4) == "-0.9808")
        #expect(SpamTrainer.fixed(-0.00001, decimals: 4) == "0.0000")
        #expect(SpamTrainer.fixed(2, decimals: 5) == "2.00000")
        #expect(SpamTrainer.fixed(0.00005, decimals: 4) == "0.0001")
        #expect(SpamTrainer.rounded(1.52230000001, decimals: 5) == 1.5223)
    }

    @Test("the rules file text: threshold first, parsed back to the same rules")
    func ruleFileRoundTrip() throws {
        let url = SharedCorpora.ownCorpora.appendingPathComponent("eval/labelled.tsv")
        let records = try LabelledRecord.parse([UInt8](try Data(contentsOf: url)), source: "labelled.tsv")
        var trainer = SpamTrainer()
        trainer.minCount = 1
        let list = try trainer.train(try TrainingSet(records: records))
        let text = list.ruleFileText(trainer: trainer)
        #expect(text.hasPrefix("# threshold: "))
        #expect(RuleFile.proposedThreshold(in: Array(text.utf8)) == list.threshold.threshold)
        #expect(try RuleFile.parse(Array(text.utf8), source: "x") == list.rules)
        // Training twice gives the same text.
        #expect(try trainer.train(try TrainingSet(records: records)).ruleFileText(trainer: trainer) == text)
        #expect(RuleFile.proposedThreshold(in: Array("win\t1\n# threshold: 3\n".utf8)) == nil)
        #expect(RuleFile.proposedThreshold(in: Array("# list\n\n#threshold: 2.5 (F1)\nwin\n".utf8)) == 2.5)
    }

    @Test("cross-validation folds are stratified and fixed by the seed")
    func folds() throws {
        let labels = (0..<100).map { $0 % 4 == 0 }  // 25 spam, 75 ham
        let a = CrossValidation.assignment(isSpam: labels, folds: 5, seed: 7)
        #expect(a == CrossValidation.assignment(isSpam: labels, folds: 5, seed: 7))
        #expect(a != CrossValidation.assignment(isSpam: labels, folds: 5, seed: 8))
        for k in 0..<5 {
            #expect(labels.indices.filter { a[$0] == k && labels[$0] }.count == 5)
            #expect(labels.indices.filter { a[$0] == k && !labels[$0] }.count == 15)
        }
        let url = SharedCorpora.ownCorpora.appendingPathComponent("eval/labelled.tsv")
        let records = try LabelledRecord.parse([UInt8](try Data(contentsOf: url)), source: "labelled.tsv")
        var trainer = SpamTrainer()
        trainer.minCount = 1
        let set = try TrainingSet(records: records)
        let result = try CrossValidation.run(set, trainer: trainer, folds: 3, seed: 1)
        #expect(result.count == 3)
        #expect(result.map(\.heldOut.total).reduce(0, +) == 12)
        #expect(result == (try CrossValidation.run(set, trainer: trainer, folds: 3, seed: 1)))
        #expect(throws: TurnstileError.self) { try CrossValidation.run(set, trainer: trainer, folds: 7, seed: 1) }
    }
}
