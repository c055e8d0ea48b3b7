import Foundation
import Testing
import TestSupport
@testable import Turnstile

/// Pins the built-in list's figures on the training half of the SMS Spam Collection
/// (`../shared/corpora/sms-spam/train.tsv`), so a change to the list that makes it
/// worse fails. The bounds are the measured figures (README, "The default list")
/// minus a small margin.
@Suite("The default list's figures on the SMS training half")
struct EvaluationDefaultListTests {
    // Measured (Scripts/train-default-list.sh): tp 385, fp 3, tn 2304, fn 17 —
    // precision 0.9923, recall 0.9577, F1 0.9747.
    static let minimumPrecision = 0.98
    static let minimumRecall = 0.94
    static let minimumF1 = 0.96

    @Test("precision, recall and F1 on train.tsv stay at least the published figures", .enabled(if: SharedCorpora.isAvailable, "needs ../shared/corpora (see its SOURCES.md)"))
    func figures() throws {
        let data = try #require(SharedCorpora.bytes("sms-spam/train.tsv"))
        let records = try LabelledRecord.parse(data, source: "train.tsv")
        #expect(records.count == 2709)
        let filter = try SpamFilter.standard()
        #expect(filter.threshold == DefaultSpamList.threshold)
        var e = SpamEvaluation(filter: filter)
        for r in records { e.add(isSpam: r.isSpam, record: r.text) }
        let m = e.matrix
        print("default list on train.tsv: tp \(m.tp) fp \(m.fp) tn \(m.tn) fn \(m.fn), precision \(m.precision), recall \(m.recall), F1 \(m.f1)")
        #expect(m.precision >= Self.minimumPrecision)
        #expect(m.recall >= Self.minimumRecall)
        #expect(m.f1 >= Self.minimumF1)
    }
}
