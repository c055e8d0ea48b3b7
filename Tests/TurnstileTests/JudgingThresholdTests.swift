import Testing
import Turnstile

/// The threshold a list is judged at comes from one place (issue 28, point 2): the
/// given one, else the list's own, else 1 — for plain records and mail alike.
@Suite("judging threshold: given, else the list's, else 1")
struct JudgingThresholdTests {
    @Test("the given threshold wins, then the list's own, then 1")
    func order() {
        let own = RuleSet(rules: [Rule("prize", weight: 2)], options: SpamFilter.standardOptions, threshold: 3)
        let none = RuleSet(rules: [Rule("prize", weight: 2)], options: SpamFilter.standardOptions)
        #expect(own.judgingThreshold(given: 0.5) == 0.5)
        #expect(own.judgingThreshold(given: nil) == 3)
        #expect(none.judgingThreshold(given: nil) == 1)
        #expect(RuleSet.standard.judgingThreshold(given: nil) == DefaultSpamList.threshold)
        #expect(RuleSet.standardMail.judgingThreshold(given: nil) == DefaultMailList.threshold)
    }

    @Test("a spam filter and a mail judge built from a set judge at that threshold")
    func judges() throws {
        let own = RuleSet(rules: [Rule("prize", weight: 2)], options: SpamFilter.standardOptions, threshold: 3)
        let none = RuleSet(rules: [Rule("prize", weight: 2)], options: SpamFilter.standardOptions)
        #expect(try own.spamFilter().threshold == 3)
        #expect(try own.spamFilter(threshold: 2).threshold == 2)
        #expect(try none.spamFilter().threshold == 1)
        let message = MailMessage(parsing: Array("Subject: hi\r\n\r\nclaim your prize\r\n".utf8))
        var ownJudge = try MailJudge(rules: own)
        ownJudge.judge(message)
        #expect(!ownJudge.isSpam, "2 is under the list's own 3")
        var noneJudge = try MailJudge(rules: none)
        noneJudge.judge(message)
        #expect(noneJudge.isSpam, "2 reaches the fallback 1")
        var givenJudge = try MailJudge(rules: own, threshold: 2)
        givenJudge.judge(message)
        #expect(givenJudge.isSpam, "2 reaches the given 2")
    }
}
