import Testing
import Turnstile

/// A header field past `MailMessage.Limits.maxFieldBytes` is read up to the limit and
/// counted, so a 20 MB Subject costs its bytes once, not at every decoding step.
@Suite("MailMessage: the header field limit")
struct MailFieldLimitTests {
    @Test("a long Subject is read up to the limit and counted; a short one is not")
    func longField() {
        let long = Array(("Subject: " + String(repeating: "x", count: 100) + " viagra\n\nbody\n").utf8)
        let limited = MailMessage(parsing: long, limits: MailMessage.Limits(maxFieldBytes: 50))
        #expect(limited.subject == Array(String(repeating: "x", count: 49).utf8), "the first 50 bytes, trimmed")
        #expect(limited.problems[.fieldTooLong] == 1)
        let whole = MailMessage(parsing: long)
        #expect(whole.subject.count == 107 && whole.problems.total == 0)
        #expect(MailMessage.Limits().maxFieldBytes == 256 << 10)
    }
}
