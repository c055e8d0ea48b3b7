import Foundation
import Testing
@testable import Turnstile

/// The mail reader on hand-made messages: each malformed case of issue 14 is decoded
/// as far as it goes and counted, and the mbox cutter never loses or changes a byte.
@Suite("Mail decoding")
struct MailDecodingTests {
    @Test("problem counts: every kind has its own of the 16 inline counts, and sums and differences keep them apart")
    func problemCountsPerKind() {
        #expect(MailDecodingProblems.Kind.allCases.count <= 16)
        var a = MailDecodingProblems(), b = MailDecodingProblems()
        for (index, kind) in MailDecodingProblems.Kind.allCases.enumerated() {
            for _ in 0...index { a.add(kind) }
            b.add(kind)
        }
        var sum = a
        sum += b
        for (index, kind) in MailDecodingProblems.Kind.allCases.enumerated() { #expect(sum[kind] == index + 2) }
        sum -= b
        #expect(sum == a)
        let n = MailDecodingProblems.Kind.allCases.count
        #expect(a.total == n * (n + 1) / 2)
        #expect(a.nonZero.map(\.kind) == MailDecodingProblems.Kind.allCases)
    }

    static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }
    static func decode(_ s: String, limits: MailMessage.Limits = .init()) -> MailMessage {
        MailMessage(parsing: Array(s.utf8), limits: limits)
    }

    // MARK: mbox records

    /// Collects what a reader hands on: each record's bytes (content, terminator and
    /// any tail) and whether it was truncated.
    struct Collector: RecordSink {
        var records: [[UInt8]] = []
        var truncated: [Bool] = []
        mutating func record(content: UnsafeBufferPointer<UInt8>, terminator: UnsafeBufferPointer<UInt8>,
                             offset: Int, matches: ArraySlice<Match>, truncated: Bool) {
            records.append(Array(content) + Array(terminator))
            self.truncated.append(truncated)
        }
        mutating func tail(_ bytes: UnsafeBufferPointer<UInt8>, end: UnsafeBufferPointer<UInt8>?) {
            records[records.count - 1] += Array(bytes) + Array(end ?? UnsafeBufferPointer(start: nil, count: 0))
        }
    }

    /// Reads `input` through a file, as the CLI does.
    static func cut(_ input: [UInt8], maxRecordBytes: Int = 1 << 20) throws -> Collector {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("mbox-\(UUID().uuidString)")
        try Data(input).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let handle = try FileHandle(forReadingFrom: url)
        defer { try? handle.close() }
        var reader = RecordReader(delimiter: .mbox, maxRecordBytes: maxRecordBytes)
        defer { reader.deallocate() }
        var sink = Collector()
        try reader.read(fd: handle.fileDescriptor, into: &sink)
        return sink
    }

    @Test("mbox: messages start at 'From ' lines; '>From ' is not one; bytes are kept exactly")
    func mboxMessages() throws {
        let a = "From a@x  Thu Jan  1 00:00:00 2002\nSubject: one\n\nbody\n>From here\n\n"
        let b = "From b@x  Thu Jan  1 00:00:00 2002\nSubject: two\n\nFromage is not a separator\n"
        let c = "From c@x  Thu Jan  1 00:00:00 2002\nSubject: three\n\nno final newline"
        let sink = try Self.cut(Array((a + b + c).utf8))
        #expect(sink.records.map(Self.text) == [a, b, c])
    }

    @Test("mbox: junk before the first From line is a record of its own; CRLF line ends stay")
    func mboxJunkAndCRLF() throws {
        let junk = "junk line\r\nmore junk\r\n"
        let a = "From a@x  Thu Jan  1 00:00:00 2002\r\nSubject: one\r\n\r\nbody\r\n"
        let b = "From b@x  Thu Jan  1 00:00:00 2002\r\nSubject: two\r\n\r\nbody\r\n"
        let sink = try Self.cut(Array((junk + a + b).utf8))
        #expect(sink.records.map(Self.text) == [junk, a, b])
    }

    @Test("mbox: a message over the record limit is truncated and streamed, and the next one is found")
    func mboxLongMessage() throws {
        let big = "From a@x  Thu Jan  1 00:00:00 2002\nSubject: big\n\n" + String(repeating: "0123456789\n", count: 50_000)
        let small = "From b@x  Thu Jan  1 00:00:00 2002\nSubject: small\n\nhi\n"
        // Each read may cut the separator anywhere: try several limits.
        for limit in [1000, 4093, 65_536] {
            let sink = try Self.cut(Array((big + small + big).utf8), maxRecordBytes: limit)
            #expect(sink.records.map(Self.text) == [big, small, big], "limit \(limit)")
            #expect(sink.truncated == [true, false, true])
        }
    }

    // MARK: headers

    @Test("headers: folded lines unfolded, RFC 2047 words decoded, a leading From line skipped")
    func headerFields() {
        let m = Self.decode("From x@y  Thu Jan  1 00:00:00 2002\r\nSubject: =?ISO-8859-1?Q?Caf=E9?=\r\n =?UTF-8?B?IGNyw6htZQ==?= ok\r\nFrom: \"Bob\" <bob@example.com>\r\n\r\nhi\r\n")
        #expect(Self.text(m.subject) == "Café crème ok")
        #expect(Self.text(m.values(of: Array("from".utf8))) == "\"Bob\" <bob@example.com>")
        #expect(m.problems.total == 0)
        #expect(Self.text(m.body) == "Cafe creme ok\nhi\r\n\n")  // folded (MailTextFolding)
    }

    @Test("a header line without a colon ends the header: counted, and read as body")
    func headerLineWithoutColon() {
        let m = Self.decode("Subject: hello\nthis is not a header\nFree money\n")
        #expect(m.problems[.headerLineWithoutColon] == 1)
        #expect(Self.text(m.body).contains("this is not a header\nFree money"))
    }

    // MARK: transfer encodings and charsets

    @Test("base64 and quoted-printable bodies are decoded")
    func transferEncodings() {
        let b64 = Self.decode("Content-Transfer-Encoding: base64\n\nQ2hlYXAgcGlsbHMgbm93\n")
        #expect(Self.text(b64.body) == "\nCheap pills now\n")
        let qp = Self.decode("Content-Type: text/plain; charset=iso-8859-1\nContent-Transfer-Encoding: quoted-printable\n\nsoft=\nbreak caf=E9 =3D done\n")
        #expect(Self.text(qp.body) == "\nsoftbreak cafe = done\n\n")
        // "=" then trailing spaces or a tab before the line end is a soft break too.
        let padded = Self.decode("Content-Transfer-Encoding: quoted-printable\n\nsoft=  \nbreak, tab=\t\r\nbed, kept= x\n")
        #expect(Self.text(padded.body) == "\nsoftbreak, tabbed, kept= x\n\n")
        #expect(qp.problems.total == 0)
    }

    @Test("broken base64 is decoded as far as it goes and counted")
    func brokenBase64() {
        // "Cheap pills" then a stray '*' and a dangling last byte.
        let m = Self.decode("Content-Transfer-Encoding: base64\n\nQ2hlYXAg*cGlsbHM=\n")
        #expect(Self.text(m.body).contains("Cheap pills"))
        #expect(m.problems[.brokenBase64] == 1)
        let dangling = Self.decode("Content-Transfer-Encoding: base64\n\nQ2hlYXAgcGlsbHMx\nQ")
        #expect(Self.text(dangling.body).contains("Cheap pills1"))
        #expect(dangling.problems[.brokenBase64] == 1)
    }

    @Test("charsets: ISO-8859-1, ISO-8859-15 and Windows-1252 to UTF-8; an unknown one kept and counted")
    func charsets() {
        func body(_ charset: String, _ bytes: [UInt8]) -> MailMessage {
            MailMessage(parsing: Array("Content-Type: text/plain; charset=\"\(charset)\"\n\n".utf8) + bytes)
        }
        #expect(Self.text(body("iso-8859-1", [0x63, 0x61, 0x66, 0xE9]).body) == "\ncafe\n")  // é decoded, then folded
        #expect(Self.text(body("ISO-8859-15", [0xA4, 0x35]).body) == "\n€5\n")
        #expect(Self.text(body("windows-1252", [0x93, 0x68, 0x69, 0x94]).body) == "\n\"hi\"\n")  // “ ” decoded, then folded
        let unknown = body("koi8-r", [0x66, 0x72, 0x65, 0x65, 0x20, 0xC6])
        #expect(unknown.problems[.unknownCharset] == 1)
        #expect(Array(unknown.body) == Array("\nfree ".utf8) + [0xC6, 0x0A])
        // No charset, 8-bit bytes that are not UTF-8: Windows-1252.
        #expect(Self.text(body("us-ascii", [0x41, 0x92, 0x73]).body) == "\nA's\n")
    }

    // MARK: HTML

    @Test("HTML: tags, comments, script and style dropped; entities decoded; link targets kept")
    func html() {
        let m = Self.decode("""
            Content-Type: text/html

            <html><head><style>p { color: red }</style><script>var x = "<b>";</script></head>
            <body><!-- hidden words --><p>FR<b>EE</b> caf&eacute; &amp; &#x263A; &#8364;</p>
            <a href="http://cheap.example/buy?a=1&amp;b=2">click</a></body></html>
            """)
        let body = Self.text(m.body)
        #expect(body.contains("FREE cafe & ☺ €"))
        #expect(!body.contains("hidden") && !body.contains("color") && !body.contains("var x"))
        #expect(body.contains("http://cheap.example/buy?a=1&b=2"))
        #expect(Self.text(m.uris) == "http://cheap.example/buy?a=1&b=2\n")
    }

    // MARK: multipart

    static let nested = """
        Content-Type: multipart/mixed; boundary="outer"

        preamble is skipped
        --outer
        Content-Type: multipart/alternative; boundary=inner

        --inner
        Content-Type: text/plain

        plain words
        --inner
        Content-Type: text/html

        <p>html words</p>
        --inner--
        --outer
        Content-Type: application/octet-stream
        Content-Transfer-Encoding: base64

        c2VjcmV0IGF0dGFjaG1lbnQ=
        --outer--
        epilogue is skipped
        """

    @Test("nested multipart: text parts decoded, attachments, preamble and epilogue skipped")
    func nestedMultipart() {
        let m = Self.decode(Self.nested)
        let body = Self.text(m.body)
        #expect(body.contains("plain words") && body.contains("html words"))
        #expect(!body.contains("preamble") && !body.contains("epilogue") && !body.contains("secret"))
        #expect(m.problems.total == 0)
    }

    @Test("no closing boundary: the last part runs to the end, counted")
    func missingClosingBoundary() {
        let m = Self.decode("Content-Type: multipart/mixed; boundary=b\n\n--b\n\nfirst part\n--b\n\nsecond part, cut off")
        #expect(Self.text(m.body).contains("first part") && Self.text(m.body).contains("second part, cut off"))
        #expect(m.problems[.missingClosingBoundary] == 1)
    }

    @Test("a multipart without its boundary is read as text, counted")
    func missingBoundary() {
        let m = Self.decode("Content-Type: multipart/mixed\n\nwin a prize\n")
        #expect(Self.text(m.body).contains("win a prize"))
        #expect(m.problems[.missingBoundary] == 1)
    }

    @Test("nesting past the limit and parts past the limit are skipped, counted")
    func limits() {
        // Depth: multiparts nested 5 deep, limit 3.
        var message = ""
        for d in 0..<5 { message += "Content-Type: multipart/mixed; boundary=b\(d)\n\n--b\(d)\n" }
        message += "Content-Type: text/plain\n\ndeep text\n"
        for d in (0..<5).reversed() { message += "--b\(d)--\n" }
        let deep = Self.decode(message, limits: .init(maxDepth: 3, maxParts: 100))
        #expect(deep.problems[.nestingTooDeep] == 1)
        #expect(!Self.text(deep.body).contains("deep text"))
        #expect(Self.text(Self.decode(message).body).contains("deep text"))
        // Width: 10 parts, limit 4.
        var wide = "Content-Type: multipart/mixed; boundary=w\n\n"
        for k in 0..<10 { wide += "--w\n\npart\(k)\n" }
        wide += "--w--\n"
        let m = Self.decode(wide, limits: .init(maxDepth: 8, maxParts: 4))
        #expect(m.problems[.tooManyParts] == 1)
        #expect(Self.text(m.body).contains("part3") && !Self.text(m.body).contains("part4"))
    }

    @Test("a large attachment is skipped without decoding; the text beside it is read")
    func largeAttachment() {
        var message = Array("Content-Type: multipart/mixed; boundary=b\n\n--b\n\nsee the file\n--b\nContent-Type: application/zip\nContent-Transfer-Encoding: base64\n\n".utf8)
        let line = Array((String(repeating: "QUFB", count: 19) + "\n").utf8)
        for _ in 0..<(5 << 20) / line.count { message += line }
        message += Array("--b--\n".utf8)
        let m = MailMessage(parsing: message)
        #expect(Self.text(m.body) == "\nsee the file\n")
        #expect(m.problems.total == 0)
    }

    @Test("mbox quoting: '>From ' lines are unquoted for analysis")
    func unquoteFrom() {
        let m = RecordFormat.mbox.message(of: Array("Subject: x\n\n>From here\n>>From there\n> From not\n".utf8))
        #expect(Self.text(m.body) == "x\nFrom here\n>From there\n> From not\n\n")
    }

    @Test("bigrams: ASCII word pairs separated by exactly one space, lowercased")
    func bigrams() {
        let pairs = WordTokenizer.bigrams(in: Array("Claim your  FREE prize, now! café bar x_1 y".utf8))
        #expect(pairs.map { String(decoding: $0, as: UTF8.self) } == ["bar x_1", "claim your", "free prize", "x_1 y"])
    }

    // MARK: scoped rules

    @Test("scope prefixes: subject:, from:, header:NAME:, uri:, body: and plain")
    func scopes() {
        func scope(_ s: String) -> MailScope { MailScope(rulePattern: Array(s.utf8)) }
        #expect(scope("subject:free") == MailScope(rulePattern: Array("header:Subject:free".utf8)))
        #expect(scope("from:bob").part == .header(Array("from".utf8)))
        #expect(scope("header:X-Mailer:outlook") == MailScope(rulePattern: Array("header:x-mailer:outlook".utf8)))
        #expect(scope("header:X-Mailer:outlook").pattern == Array("outlook".utf8))
        #expect(scope("uri:click").part == .uri)
        #expect(scope("body:from:x").part == .body && scope("body:from:x").pattern == Array("from:x".utf8))
        #expect(scope("free money").part == .body)
    }

    @Test("a scoped rule fires only in its part; the verdict adds the weights once each")
    func mailJudge() throws {
        let rules = RuleSet(rules: [Rule("subject:winner", weight: 2), Rule("prize", weight: 1),
                                    Rule("uri:cheap", weight: 1), Rule("header:x-mailer:bulkmail", weight: 3)],
                            options: SpamFilter.standardOptions)
        var judge = try MailJudge(rules: rules, threshold: 3)
        judge.judge(Self.decode("Subject: WINNER\n\nyou won a prize, the winner is you\n"))
        #expect(judge.score == 3 && judge.isSpam)
        #expect(judge.hits.map(\.rule).sorted() == [0, 1])
        judge.judge(Self.decode("Subject: hello\n\nthe winner gets a prize\n"))
        #expect(judge.score == 1 && !judge.isSpam, "'winner' in the body is not the subject rule")
        judge.judge(Self.decode("X-Mailer: BulkMail 2.0\n\nsee http://cheap.example\n"))
        #expect(judge.score == 4 && judge.isSpam)
    }
}
