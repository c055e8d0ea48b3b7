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
        // Only REPORT and REPORT_IFSPAM print the report table: building it for every
        // CHECK cost 12.6 % of the server's CPU under load (perf, 16 connections).
        let verdict = self.verdict(of: message, complete: complete,
                                   withReport: head.method == .report || head.method == .reportIfSpam)
        switch head.method {
        case .process, .headers:
            let status = judge.spamStatus
            var body: [UInt8]
            var length: Int
            var spamd: SpamAssassinHeaders? = nil
            if style == .spamassassin {
                spamd = SpamAssassinHeaders(isSpam: verdict.isSpam, score: verdict.listScore, threshold: verdict.listThreshold,
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

    /// Judges `message` (`complete`: it is the whole message). Under spamd's header
    /// style the score answered is on SpamAssassin's 5.0 scale (as X-Spam-Status shows
    /// it), so `spamc -c` reads `6.2/5.0` rather than the list's `1.12/0.9`. Without
    /// `withReport` the verdict's `report` is empty (no answer but REPORT's prints it).
    public mutating func verdict(of message: UnsafeBufferPointer<UInt8>, complete: Bool, withReport: Bool = true) -> SpamdVerdict {
        let decoded = RecordFormat.eml.message(of: message, truncated: !complete)
        judge.judge(decoded)
        let names = judge.hits.map { String(decoding: SpamStatusHeaders.testName(String(decoding: judge.rules[$0.rule].pattern, as: UTF8.self)), as: UTF8.self) }
        // spamd's get_names_of_tests_hit: sorted, as perl's sort compares strings.
        let symbols = names.sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
        let scale = style == .spamassassin ? SpamAssassinHeaders.scale(threshold: judge.threshold) : 1
        let score = style == .spamassassin ? SpamAssassinHeaders.scaled(judge.score, threshold: judge.threshold, isSpam: judge.isSpam) : judge.score
        let threshold = style == .spamassassin ? SpamAssassinHeaders.required : judge.threshold
        return SpamdVerdict(isSpam: judge.isSpam, score: score, threshold: threshold, symbols: symbols,
                            report: withReport ? report(score: score, threshold: threshold, scale: scale) : "",
                            listScore: judge.score, listThreshold: judge.threshold,
                            messageID: Self.loggedMessageID(decoded.values(of: Self.messageIDName)))
    }

    static let messageIDName = Array("message-id".utf8)

    /// A Message-ID as a log line may hold it: its printable bytes (no space, no
    /// control byte: a client cannot break or forge a log line), at most 200;
    /// `(unknown)`, as spamd writes it, when there is none.
    static func loggedMessageID(_ value: [UInt8]) -> String {
        let kept = value.lazy.filter { $0 > 0x20 && $0 < 0x7F }.prefix(200)
        return kept.isEmpty ? "(unknown)" : String(decoding: kept, as: UTF8.self)
    }

    /// REPORT's text: SpamAssassin's "Content analysis details" table, each rule's
    /// points multiplied by `scale` (the score's own scale).
    private func report(score: Double, threshold: Double, scale: Double) -> String {
        let precision = judge.precision
        var text = "Content analysis details:   (\(cFormat("%.1f", score)) points, \(cFormat("%.1f", threshold)) required)\n\n"
        text += " pts rule name              description\n"
        text += "---- ---------------------- --------------------------------------------------\n"
        for hit in judge.hits {
            let pattern = judge.rules[hit.rule].pattern
            let name = String(decoding: SpamStatusHeaders.testName(String(decoding: pattern, as: UTF8.self)), as: UTF8.self)
            let padded = name.count < 22 ? name + String(repeating: " ", count: 22 - name.count) : name
            text += "\(cFormat("%4.1f", hit.weight * scale)) \(padded) weight \(precision.text(hit.weight))\n"
        }
        return text
    }
}
