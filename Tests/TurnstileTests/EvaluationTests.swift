import Foundation
import Testing
import TestSupport
@testable import Turnstile

@Suite("Evaluation: labelled records, confusion matrix, rule counts")
struct EvaluationTests {
    @Test("labelled lines: spam/ham before a TAB, blank lines skipped, CRLF, errors name the line")
    func labelledParsing() throws {
        let records = try LabelledRecord.parse(Array("spam\tWIN\tnow\r\n\nham\thi\n   \nham\t\n".utf8), source: "x.tsv")
        #expect(records == [LabelledRecord(isSpam: true, "WIN\tnow"), LabelledRecord(isSpam: false, "hi"),
                            LabelledRecord(isSpam: false, "")])
        #expect(throws: TurnstileError(.invalidInput(source: "x.tsv", line: 3,
                                                     message: "unknown label \"Spam\" (expected spam or ham before the TAB)"))) {
            try LabelledRecord.parse(Array("ham\ta\n\nSpam\tb\n".utf8), source: "x.tsv")
        }
        do {
            _ = try LabelledRecord.parse(Array("spam only\n".utf8), source: "y.tsv")
            Issue.record("expected an error")
        } catch {
            #expect(error.description == "y.tsv, line 1: no label (expected 'spam<TAB>text' or 'ham<TAB>text')")
        }
    }

    @Test("confusion matrix figures, with 0/0 defined as 0")
    func matrix() {
        let m = ConfusionMatrix(tp: 8, fp: 2, tn: 85, fn: 5)
        #expect(m.precision == 0.8)
        #expect(m.recall == 8.0 / 13)
        #expect(m.f1 == 16.0 / 23)
        #expect(m.accuracy == 0.93)
        #expect(ConfusionMatrix().precision == 0 && ConfusionMatrix().f1 == 0 && ConfusionMatrix().accuracy == 0)
        var n = ConfusionMatrix()
        n.add(isSpam: true, predictedSpam: true)
        n.add(isSpam: true, predictedSpam: false)
        n.add(isSpam: false, predictedSpam: true)
        n.add(isSpam: false, predictedSpam: false)
        #expect(n == ConfusionMatrix(tp: 1, fp: 1, tn: 1, fn: 1))
        #expect(n + m == ConfusionMatrix(tp: 9, fp: 3, tn: 86, fn: 6))
    }

    @Test("SpamEvaluation: the hand-made file's matrix and the rules that fired most")
    func evaluation() throws {
        let url = SharedCorpora.ownCorpora.appendingPathComponent("eval/labelled.tsv")
        let records = try LabelledRecord.parse([UInt8](try Data(contentsOf: url)), source: "labelled.tsv")
        let rulesURL = SharedCorpora.ownCorpora.appendingPathComponent("eval/rules.tsv")
        let rules = try RuleFile.parse([UInt8](try Data(contentsOf: rulesURL)), source: "rules.tsv")
        let filter = try SpamFilter(rules: rules, options: SpamFilter.standardOptions, threshold: 1)
        var e = SpamEvaluation(filter: filter)
        for r in records { e.add(isSpam: r.isSpam, record: r.text) }
        // Worked out line by line in Tests/TurnstileCLITests/EvalCommandTests.swift.
        #expect(e.matrix == ConfusionMatrix(tp: 5, fp: 1, tn: 5, fn: 1))
        // Rule 4 ("lunch", weight -1) fired in two ham records and one spam record, but
        // it pulls scores down: it is nobody's culprit and catches nothing.
        #expect(e.topRules(onSpam: false).map(\.id) == [2, 0, 3])
        #expect(e.topRules(onSpam: false).map(\.records) == [2, 1, 1])
        #expect(e.topRules(onSpam: false).map(\.judgedSpam) == [1, 0, 1])
        #expect(e.topRules(onSpam: true).map(\.id) == [0, 2, 3, 1])
        #expect(e.topRules(onSpam: true).map(\.records) == [4, 3, 3, 1])
        #expect(e.topRules(onSpam: true, limit: 2).count == 2)
        // A rule found twice in a record counts once.
        var twice = SpamEvaluation(filter: filter)
        twice.add(isSpam: false, record: Array("free free free".utf8))
        #expect(twice.topRules(onSpam: false).first?.records == 1)
        #expect(twice.matrix == ConfusionMatrix(tn: 1))
    }
}

@Suite("eval judges as filter does")
struct EvaluationVerdictTests {
    @Test("regex rules: a rule hidden by another rule's match counts in eval as in filter")
    func regexCompletionInEval() throws {
        let rules = [SpamFilter.Rule("abc", weight: 1), SpamFilter.Rule("b", weight: 0.5)]
        let filter = try SpamFilter(rules: rules, options: .init(), threshold: 1.5)
        #expect(filter.verdict(for: "xabcx").isSpam)
        var evaluation = SpamEvaluation(filter: filter)
        evaluation.add(isSpam: true, record: Array("xabcx".utf8))
        #expect(evaluation.matrix.tp == 1, "the hidden rule 'b' must count, as in filter")
        #expect(evaluation.topRules(onSpam: true).map(\.id) == [0, 1])
    }
}
