import Testing
@testable import SpamdProtocol

/// The request head as spamd reads it: each case is a request spamc (or a broken
/// client) sends and what spamd makes of it (spamd's parse_headers and main loop).
@Suite struct SpamdRequestParserTests {
    let parser = SpamdRequestParser(maxHeaderBytes: 200)

    func parse(_ text: String, ended: Bool = false) -> SpamdRequestParser.Outcome {
        parser.parse(Array(text.utf8), inputEnded: ended)
    }

    func error(_ text: String, ended: Bool = false) -> String? {
        if case .error(let e) = parse(text, ended: ended) { return String(decoding: e.response, as: UTF8.self) }
        return nil
    }

    @Test func spamcCheck() throws {
        let text = "CHECK SPAMC/1.5\r\nContent-length: 12\r\nUser: mail\r\n\r\nSubject: x\r\n"
        guard case .head(let head, let start) = parse(text) else { Issue.record("no head"); return }
        #expect(head.method == .check)
        #expect(head.version == 1.5)
        #expect(head.contentLength == 12)
        #expect(head.user == "mail")
        #expect(start == text.utf8.count - 12)
    }

    @Test(arguments: SpamdMethod.allCases.filter { $0 != .tell })
    func everyMethod(_ method: SpamdMethod) {
        guard case .head(let head, _) = parse("\(method.rawValue) SPAMC/1.5\r\n\r\n") else {
            Issue.record("no head for \(method)"); return
        }
        #expect(head.method == method)
    }

    @Test func reportIfSpamIsNotReport() {
        guard case .head(let head, _) = parse("REPORT_IFSPAM SPAMC/1.5\r\n\r\n") else { Issue.record("no head"); return }
        #expect(head.method == .reportIfSpam)
    }

    @Test func incompleteHeadsWait() {
        #expect(parse("CHECK SPAMC/1.5") == .needMore)
        #expect(parse("CHECK SPAMC/1.5\r\nContent-length: 3\r\n") == .needMore)
        #expect(parse("CHECK SPAMC/1.5\r\nContent-len") == .needMore)
    }

    @Test func versionOneHasNoHeaders() {
        guard case .head(let head, let start) = parse("PROCESS SPAMC/1.0\r\nSubject: x\r\n") else { Issue.record("no head"); return }
        #expect(head.version == 1.0)
        #expect(start == 19)
        // PING before 1.5 has no header section either.
        guard case .head(_, let s2) = parse("PING SPAMC/1.2\r\n") else { Issue.record("no head"); return }
        #expect(s2 == 16)
    }

    @Test func methodFoundAnywhereInTheLine() {
        guard case .head(let head, _) = parse("xx CHECK SPAMC/1.5 trailing\r\n\r\n") else { Issue.record("no head"); return }
        #expect(head.method == .check)
        #expect(head.version == 1.5)
    }

    @Test func tellHeaders() {
        guard case .head(let head, _) = parse("TELL SPAMC/1.5\r\nMessage-class: spam\r\nSet: local, remote\r\nContent-length: 0\r\n\r\n") else {
            Issue.record("no head"); return
        }
        #expect(head.messageClass == .spam)
        #expect(head.set == [.local, .remote])
        #expect(head.remove == [])
    }

    @Test func spamdErrorLines() {
        #expect(error("GET / HTTP/1.1\r\n") == "SPAMD/1.0 76 Bad header line: GET / HTTP/1.1\r\n")
        #expect(error("", ended: true) == "SPAMD/1.0 76 Bad header line: (closed before headers)\r\n")
        #expect(error("CHECK SPAMC/1.5\r\n", ended: true) == "SPAMD/1.0 76 Bad header line: (EOF during headers)\r\n")
        #expect(error("CHECK SPAMC/1.5\r\nnonsense\r\n\r\n") == "SPAMD/1.0 76 Bad header line: (header not in 'Name: value' format)\r\n")
        #expect(error("CHECK SPAMC/1.5\r\nContent-length: 12x\r\n\r\n") == "SPAMD/1.0 76 Bad header line: (Content-Length contains non-numeric bytes)\r\n")
        #expect(error("CHECK SPAMC/1.5\r\nUser: a\u{1}b\r\n\r\n") == "SPAMD/1.0 76 Bad header line: (User header contains control chars)\r\n")
        #expect(error("CHECK SPAMC/1.5\r\nCompress: zlib\r\n\r\n") == "SPAMD/1.0 76 Bad header line: (compression not supported: zlib)\r\n")
        #expect(error("TELL SPAMC/1.5\r\nMessage-class: eggs\r\n\r\n") == "SPAMD/1.0 76 Bad header line: (Message-class header contains invalid class)\r\n")
        #expect(error("TELL SPAMC/1.5\r\nSet: local\r\nRemove: local\r\n\r\n") == "SPAMD/1.0 76 Bad header line: Unable to set local and remove local in the same operation.\r\n")
        // Binary garbage is echoed with its control bytes as '?'.
        #expect(error("\u{1}\u{2}junk\r\n") == "SPAMD/1.0 76 Bad header line: ??junk\r\n")
    }

    @Test func bareLineFeedDoesNotEndHeaders() {
        // spamd strips only CRLF, so "\n" is a header line with no colon.
        #expect(error("CHECK SPAMC/1.5\nContent-length: 1\n\n") == "SPAMD/1.0 76 Bad header line: (header not in 'Name: value' format)\r\n")
    }

    @Test func limits() {
        let long = "CHECK SPAMC/1.5\r\nX-Pad: " + String(repeating: "a", count: 300) + "\r\n\r\n"
        #expect(error(long) == "SPAMD/1.0 76 Bad header line: (request header longer than 200 bytes)\r\n")
        // A first line without an end, past the limit: refused before its end arrives.
        #expect(error(String(repeating: "A", count: 201)) == "SPAMD/1.0 76 Bad header line: (request header longer than 200 bytes)\r\n")
        let big = SpamdRequestParser(maxHeaderBytes: 1 << 20)
        let many = "CHECK SPAMC/1.5\r\n" + String(repeating: "X: y\r\n", count: 256) + "\r\n"
        if case .error(let e) = big.parse(Array(many.utf8), inputEnded: false) {
            #expect(e.message == "Bad header line: (too many headers)")
        } else { Issue.record("256 headers accepted") }
        let most = "CHECK SPAMC/1.5\r\n" + String(repeating: "X: y\r\n", count: 255) + "\r\n"
        guard case .head = big.parse(Array(most.utf8), inputEnded: false) else { Issue.record("255 headers refused"); return }
    }

    @Test func unknownHeadersIgnored() {
        guard case .head(let head, _) = parse("SYMBOLS SPAMC/1.5\r\nX-Whatever: 1\r\ncontent-length: 9\r\n\r\n") else {
            Issue.record("no head"); return
        }
        // Names are case-sensitive, as in spamd: lower-case content-length is ignored.
        #expect(head.contentLength == nil)
    }

    @Test func perlNumbers() {
        #expect(SpamdRequestParser.perlNumber(Array("1.5".utf8)[...]) == 1.5)
        #expect(SpamdRequestParser.perlNumber(Array("1.3x".utf8)[...]) == 1.3)
        #expect(SpamdRequestParser.perlNumber(Array("abc".utf8)[...]) == 0)
    }
}
