import Turnstile

// One request's message judged and answered: the message is decoded as
// `filter --format eml` decodes a file (MailMessage, no mbox unquoting) and judged by
// the same MailJudge, so spamc's verdict is filter's; PROCESS and HEADERS tag it with
// SpamStatusHeaders, the fields `filter --tag` writes. A message longer than the
// server's limit is judged on its first bytes (marked truncated, as filter marks a
// record cut at --max-record-bytes), and PROCESS passes its rest on unchanged.

/// Judges messages and writes spamd's answers; one per thread (the judge has scratch).
///
/// ```swift
/// var judge = SpamdMessageJudge(judge: try MailJudge(rules: .standardMail))
/// let head = SpamdRequestHead(method: .check, version: 1.5)
/// let message = Array("Subject: hi\r\n\r\nlunch?\r\n".utf8)
/// let answer = message.withUnsafeBufferPointer { judge.answer(head, message: $0, totalLength: message.count) }
/// // answer.bytes: "SPAMD/1.1 0 EX_OK\r\nSpam: False ; … / …\r\n\r\n"
/// ```
///
/// - Complexity: judging is the MailJudge's; the answer is O(message bytes) for
///   PROCESS and HEADERS, O(rules fired) otherwise.
public struct SpamdMessageJudge: Sendable {
    private var judge: MailJudge
    /// Where PROCESS and HEADERS add their fields, and which prefix they have.
    public let tagger: SpamStatusHeaders
    /// Which fields: spamd's set (``SpamAssassinHeaders``) or `filter --tag`'s.
    public let style: SpamdHeaderStyle

    public init(judge: MailJudge, tagger: SpamStatusHeaders = SpamStatusHeaders(), style: SpamdHeaderStyle = .turnstile) {
        self.judge = judge
        self.tagger = tagger
        self.style = style
    }

    /// An answer: `bytes`, then — when `restFollows` — the message's bytes past the
    /// judged ones, unchanged (PROCESS of a message longer than the limit).
    public struct Answer: Sendable, Hashable {
        public var bytes: [UInt8]
        public var restFollows: Bool
        /// The verdict answered (for the server's log).
        public var verdict: SpamdVerdict
    }

    /// The answer to a CHECK, SYMBOLS, REPORT, REPORT_IFSPAM, PROCESS or HEADERS
    /// request whose message is `totalLength` bytes, of which `message` are the first.
    public mutating func answer(_ head: SpamdRequestHead, message: UnsafeBufferPointer<UInt8>, totalLength: Int) -> Answer {
        let complete = message.count >= totalLength
        let verdict = self.verdict(of: message, complete: complete)
        switch head.method {
        case .process, .headers:
            let status = judge.spamStatus
            var body: [UInt8]
            var length: Int
            var spamd: SpamAssassinHeaders? = nil
            if style == .spamassassin {
                spamd = SpamAssassinHeaders(isSpam: verdict.isSpam, score: verdict.score, threshold: verdict.threshold,
                                            tests: status.tests, ownScore: status.score, ownRequired: status.required)
                spamd?.prefix = tagger.prefix
            }
            let fields = spamd.map { spamd in { (ending: [UInt8]) in spamd.bytes(lineEnding: ending) } }
            if let tagged = tagger.taggedHead(message, complete: complete, status: status, fields: fields) {
                body = tagged.head
                body.append(contentsOf: UnsafeBufferPointer(rebasing: message[tagged.restStart...]))
                length = body.count + (totalLength - message.count)
            } else {
                // The header runs past the judged bytes: the message goes back untagged.
                body = Array(message)
                length = totalLength
            }
            if head.method == .headers {
                if let end = body.withUnsafeBufferPointer(SpamdResponse.headersEnd) { body.removeSubrange(end...) }
                length = body.count
                return Answer(bytes: SpamdResponse.messageHead(verdict, method: .headers, version: head.version, length: length) + body,
                              restFollows: false, verdict: verdict)
            }
            return Answer(bytes: SpamdResponse.messageHead(verdict, method: .process, version: head.version, length: length) + body,
                          restFollows: !complete, verdict: verdict)
        default:
            return Answer(bytes: SpamdResponse.verdict(verdict, method: head.method, version: head.version), restFollows: false,
                          verdict: verdict)
        }
    }

    /// Judges `message` (`complete`: it is the whole message).
    public mutating func verdict(of message: UnsafeBufferPointer<UInt8>, complete: Bool) -> SpamdVerdict {
        let decoded = RecordFormat.eml.message(of: message, truncated: !complete)
        judge.judge(decoded)
        let names = judge.hits.map { String(decoding: SpamStatusHeaders.testName(String(decoding: judge.rules[$0.rule].pattern, as: UTF8.self)), as: UTF8.self) }
        // spamd's get_names_of_tests_hit: sorted, as perl's sort compares strings.
        let symbols = names.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        return SpamdVerdict(isSpam: judge.isSpam, score: judge.score, threshold: judge.threshold,
                            symbols: symbols, report: report())
    }

    /// REPORT's text: SpamAssassin's "Content analysis details" table.
    private func report() -> String {
        let precision = judge.precision
        var text = "Content analysis details:   (\(cFormat("%.1f", judge.score)) points, \(cFormat("%.1f", judge.threshold)) required)\n\n"
        text += " pts rule name              description\n"
        text += "---- ---------------------- --------------------------------------------------\n"
        for hit in judge.hits {
            let pattern = judge.rules[hit.rule].pattern
            let name = String(decoding: SpamStatusHeaders.testName(String(decoding: pattern, as: UTF8.self)), as: UTF8.self)
            let padded = name.count < 22 ? name + String(repeating: " ", count: 22 - name.count) : name
            text += "\(cFormat("%4.1f", hit.weight)) \(padded) weight \(precision.text(hit.weight))\n"
        }
        return text
    }
}
