import Testing
import Turnstile

/// The header tagging `filter --tag` and the spamd server share: where the fields go,
/// in which line ending, and what happens to odd messages.
@Suite("SpamStatusHeaders")
struct SpamStatusHeadersTests {
    static let spam = SpamStatus(isSpam: true, score: "7.5", required: "5", tests: ["viagra", "subject:win ner"])
    static let ham = SpamStatus(isSpam: false, score: "0", required: "5", tests: [])

    func tag(_ text: String, _ status: SpamStatus = Self.spam, prefix: String = "X-Spam") -> String {
        String(decoding: SpamStatusHeaders(prefix: prefix).tagged(Array(text.utf8), status: status), as: UTF8.self)
    }

    @Test("fields go before the empty line in the message's own line ending")
    func lineEndings() {
        let fields = "X-Spam-Status: Yes, score=7.5 required=5 tests=viagra,subject:win_ner"
        #expect(tag("Subject: a\n\nbody\n") == "Subject: a\n\(fields)\nX-Spam-Flag: YES\n\nbody\n")
        #expect(tag("Subject: a\r\n\r\nbody\r\n") == "Subject: a\r\n\(fields)\r\nX-Spam-Flag: YES\r\n\r\nbody\r\n")
        #expect(tag("Subject: a\r\rbody\r") == "Subject: a\r\(fields)\rX-Spam-Flag: YES\r\rbody\r", "CR only")
        #expect(tag("From x  Thu Jan  1 00:00:00 2002\nSubject: a\n\nb") == "From x  Thu Jan  1 00:00:00 2002\nSubject: a\n\(fields)\nX-Spam-Flag: YES\n\nb")
    }

    @Test("odd messages: empty, no header, header to the end without a final line end, continuation of a removed field")
    func oddMessages() {
        let ham = "X-Spam-Status: No, score=0 required=5 tests=none"
        #expect(tag("", Self.ham) == ham + "\n")
        #expect(tag("just text\n\nmore\n", Self.ham) == ham + "\njust text\n\nmore\n")
        #expect(tag("Subject: a", Self.ham) == "Subject: a\n" + ham + "\n")
        #expect(tag("Subject: a\r\nX-SPAM-Level: ***\r\n  more\r\nTo: b\r\n\r\n", Self.ham) == "Subject: a\r\nTo: b\r\n" + ham + "\r\n\r\n")
        #expect(tag("Subject: a\nX-Spam-Status: Yes\n\n", Self.ham, prefix: "X-Turnstile")
                == "Subject: a\nX-Spam-Status: Yes\nX-Turnstile-Status: No, score=0 required=5 tests=none\n\n", "another prefix is kept")
    }

    @Test("a long tests list is folded under 79 columns; an incomplete header is nil")
    func foldingAndIncomplete() {
        let many = SpamStatus(isSpam: false, score: "1", required: "5", tests: (0..<40).map { "rule\($0)" })
        let text = tag("Subject: a\n\n", many)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(lines.count > 3)
        #expect(lines.allSatisfy { $0.utf8.count <= 79 })
        #expect(lines.dropFirst(2).dropLast(2).allSatisfy { $0.hasPrefix("\t") })
        let head = Array("Subject: never ends".utf8)
        #expect(head.withUnsafeBufferPointer { SpamStatusHeaders().taggedHead($0, complete: false, status: Self.ham) } == nil)
    }
}
