import Testing
import Turnstile
@testable import SpamdProtocol

/// spamd's answers, byte for byte as spamd's `check` writes them.
@Suite struct SpamdResponseTests {
    func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    let spam = SpamdVerdict(isSpam: true, score: 7.46, threshold: 5, symbols: ["A", "B"], report: "R\n")
    let ham = SpamdVerdict(isSpam: false, score: 4.96, threshold: 5, symbols: [], report: "R\n")

    @Test func spamLines() {
        #expect(SpamdResponse.spamLine(spam, method: .check) == "Spam: True ; 7.5 / 5.0")
        #expect(SpamdResponse.spamLine(spam, method: .reportIfSpam) == "Spam: Yes ; 7.5 / 5.0")
        // 4.96 rounds to 5.0, which a clean message never shows: the threshold less 0.1.
        #expect(SpamdResponse.spamLine(ham, method: .check) == "Spam: False ; 4.9 / 5.0")
        let negative = SpamdVerdict(isSpam: false, score: -3.25, threshold: 0, symbols: [], report: "")
        #expect(SpamdResponse.spamLine(negative, method: .check) == "Spam: False ; -3.2 / 0.0")
    }

    @Test func answersByVersion() {
        #expect(text(SpamdResponse.verdict(spam, method: .check, version: 1.5)) == "SPAMD/1.1 0 EX_OK\r\nSpam: True ; 7.5 / 5.0\r\n\r\n")
        #expect(text(SpamdResponse.verdict(spam, method: .symbols, version: 1.5))
                == "SPAMD/1.1 0 EX_OK\r\nContent-length: 3\r\nSpam: True ; 7.5 / 5.0\r\n\r\nA,B")
        #expect(text(SpamdResponse.verdict(spam, method: .symbols, version: 1.2))
                == "SPAMD/1.1 0 EX_OK\r\nSpam: True ; 7.5 / 5.0\r\n\r\nA,B\r\n")
        #expect(text(SpamdResponse.verdict(ham, method: .reportIfSpam, version: 1.5))
                == "SPAMD/1.1 0 EX_OK\r\nContent-length: 0\r\nSpam: No ; 4.9 / 5.0\r\n\r\n")
        #expect(text(SpamdResponse.messageHead(spam, method: .process, version: 1.2, length: 10))
                == "SPAMD/1.1 0 EX_OK\r\nContent-length: 10\r\n\r\n")
        #expect(text(SpamdResponse.messageHead(spam, method: .process, version: 1.1, length: 10)) == "SPAMD/1.0 0 EX_OK\r\n")
        #expect(text(SpamdResponse.pong) == "SPAMD/1.5 0 PONG\r\n")
        #expect(text(SpamdResponse.tell(didSet: .local, didRemove: [])) == "SPAMD/1.1 0 EX_OK\r\nDidSet: local\r\n\r\n\r\n")
        #expect(text(SpamdResponse.tell(didSet: [], didRemove: [])) == "SPAMD/1.1 0 EX_OK\r\n\r\n\r\n")
    }

    @Test func headersCut() {
        func end(_ s: String) -> Int? { Array(s.utf8).withUnsafeBufferPointer(SpamdResponse.headersEnd) }
        #expect(end("A: b\r\n\r\nbody\r\n\r\nmore") == 8)
        #expect(end("A: b\n\nbody") == 6)
        #expect(end("A: b\r\n") == nil)
    }
}

/// PROCESS, HEADERS and CHECK through a real judge: the fields are `filter --tag`'s.
@Suite struct SpamdMessageJudgeTests {
    func judge() throws -> SpamdMessageJudge {
        let set = RuleSet(rules: [Rule("subject:winner", weight: 2), Rule("prize", weight: 1.5)], options: SpamFilter.standardOptions)
        return SpamdMessageJudge(judge: try MailJudge(rules: set, threshold: 3))
    }

    func answer(_ j: inout SpamdMessageJudge, _ method: SpamdMethod, _ message: String, judged: Int? = nil) -> SpamdMessageJudge.Answer {
        let bytes = Array(message.utf8)
        let n = judged ?? bytes.count
        return bytes.withUnsafeBufferPointer { j.answer(SpamdRequestHead(method: method, version: 1.5),
                                                       message: UnsafeBufferPointer(rebasing: $0[0..<n]), totalLength: bytes.count) }
    }

    @Test func processTagsAsFilterTag() throws {
        var j = try judge()
        let message = "Subject: WINNER\r\n\r\nclaim your prize\r\n"
        let tagged = SpamStatusHeaders().tagged(Array(message.utf8), status: SpamStatus(isSpam: true, score: "3.5", required: "3", tests: ["subject:winner", "prize"]))
        let a = answer(&j, .process, message)
        let expected = "SPAMD/1.1 0 EX_OK\r\nContent-length: \(tagged.count)\r\nSpam: True ; 3.5 / 3.0\r\n\r\n" + String(decoding: tagged, as: UTF8.self)
        #expect(String(decoding: a.bytes, as: UTF8.self) == expected)
        #expect(!a.restFollows)
        let h = answer(&j, .headers, message)
        #expect(String(decoding: h.bytes, as: UTF8.self).hasSuffix("X-Spam-Flag: YES\r\n\r\n"))
        let s = answer(&j, .symbols, message)
        #expect(String(decoding: s.bytes, as: UTF8.self).hasSuffix("\r\n\r\nprize,subject:winner"))
    }

    /// Only REPORT and REPORT_IFSPAM print the report table, so only they build it;
    /// CHECK's answer is the same bytes either way.
    @Test func reportBuiltOnlyForReport() throws {
        var j = try judge()
        let message = "Subject: WINNER\r\n\r\nclaim your prize\r\n"
        let check = answer(&j, .check, message)
        #expect(String(decoding: check.bytes, as: UTF8.self) == "SPAMD/1.1 0 EX_OK\r\nSpam: True ; 3.5 / 3.0\r\n\r\n")
        #expect(check.verdict.report.isEmpty)
        #expect(check.verdict.symbols == ["prize", "subject:winner"])
        for method in [SpamdMethod.report, .reportIfSpam] {
            let report = String(decoding: answer(&j, method, message).bytes, as: UTF8.self)
            #expect(report.contains("Content analysis details:   (3.5 points, 3.0 required)"), "\(method): \(report)")
            #expect(report.contains(" 2.0 subject:winner"), "\(method): \(report)")
        }
        let whole = Array(message.utf8)
        let full = whole.withUnsafeBufferPointer { j.verdict(of: $0, complete: true) }
        #expect(full.report.contains("Content analysis details"), "verdict(of:complete:) builds the report by default")
    }

    @Test func oversizedProcessPassesTheRestOn() throws {
        var j = try judge()
        let message = "Subject: hello\r\n\r\n" + String(repeating: "x", count: 100) + " prize prize"
        let a = answer(&j, .process, message, judged: 50)
        #expect(a.restFollows)
        let text = String(decoding: a.bytes, as: UTF8.self)
        // Judged on the first 50 bytes: "prize" is past them.
        #expect(text.contains("Spam: False ; 0.0 / 3.0"))
        let head = SpamStatusHeaders().fields(SpamStatus(isSpam: false, score: "0", required: "3", tests: []), lineEnding: [0x0D, 0x0A])
        let length = message.utf8.count + head.count
        #expect(text.hasPrefix("SPAMD/1.1 0 EX_OK\r\nContent-length: \(length)\r\n"))
        // The answer's bytes so far plus the message's unjudged rest are Content-length long.
        let bodyBytes = a.bytes.count - Array("SPAMD/1.1 0 EX_OK\r\nContent-length: \(length)\r\nSpam: False ; 0.0 / 3.0\r\n\r\n".utf8).count
        #expect(bodyBytes + (message.utf8.count - 50) == length)
    }
}
