// Writing spamd's answers byte for byte as spamd's `check`, `dotell` and
// `doskip_or_ping` write them, for each protocol version spamc may speak:
//   CHECK                   SPAMD/1.1 0 EX_OK\r\nSpam: True ; 7.5 / 5.0\r\n\r\n
//   SYMBOLS, REPORT, …      (1.3+) SPAMD/1.1 0 EX_OK\r\nContent-length: N\r\nSpam: …\r\n\r\nBODY
//   PROCESS, HEADERS        (1.3+) SPAMD/1.1 0 EX_OK\r\nContent-length: N\r\nSpam: …\r\n\r\nMESSAGE
//   PING                    SPAMD/1.5 0 PONG\r\n
//   TELL                    SPAMD/1.1 0 EX_OK\r\nDidSet: local\r\n\r\n\r\n

/// A judged message as spamd reports it.
public struct SpamdVerdict: Sendable, Hashable {
    public var isSpam: Bool
    /// The score and threshold answered: on SpamAssassin's 5.0 scale under spamd's
    /// header style, the list's own under `--headers turnstile`.
    public var score: Double
    public var threshold: Double
    /// The list's own score and threshold (X-Spam-Turnstile's, `filter`'s).
    public var listScore: Double
    public var listThreshold: Double
    /// The names of the rules that fired, as SYMBOLS lists them.
    public var symbols: [String]
    /// REPORT's text.
    public var report: String
    /// The message's Message-ID as spamd logs it (`mid=`), `(unknown)` when it has none.
    public var messageID: String

    public init(isSpam: Bool, score: Double, threshold: Double, symbols: [String], report: String,
                listScore: Double? = nil, listThreshold: Double? = nil, messageID: String = "(unknown)") {
        self.isSpam = isSpam
        self.score = score
        self.threshold = threshold
        self.listScore = listScore ?? score
        self.listThreshold = listThreshold ?? threshold
        self.symbols = symbols
        self.report = report
        self.messageID = messageID
    }
}

/// The answers, as bytes.
///
/// ```swift
/// let verdict = SpamdVerdict(isSpam: true, score: 7.46, threshold: 5, symbols: [], report: "")
/// SpamdResponse.spamLine(verdict, method: .check)   // "Spam: True ; 7.5 / 5.0"
/// ```
public enum SpamdResponse {
    /// `Spam: True ; S / T`; REPORT_IFSPAM says Yes/No. The score is written as spamd's
    /// get_tag_value_for_score writes it: one decimal, and a clean message never shown
    /// at or above the threshold (then the threshold less 0.1).
    public static func spamLine(_ verdict: SpamdVerdict, method: SpamdMethod) -> String {
        let word = method == .reportIfSpam ? (verdict.isSpam ? "Yes" : "No") : (verdict.isSpam ? "True" : "False")
        let score = cFormat("%2.1f", verdict.score), required = cFormat("%2.1f", verdict.threshold)
        var shown = score
        if !verdict.isSpam, !((Double(score) ?? 0) < (Double(required) ?? 0)) {
            // perl prints $rscore - 0.1 with %.15g.
            shown = cFormat("%.15g", (Double(required) ?? 0) - 0.1)
        }
        return "Spam: \(word) ; \(shown) / \(required)"
    }

    /// The answer to CHECK, SYMBOLS, REPORT or REPORT_IFSPAM.
    public static func verdict(_ verdict: SpamdVerdict, method: SpamdMethod, version: Double) -> [UInt8] {
        let spam = spamLine(verdict, method: method)
        var out = Array("SPAMD/1.1 0 EX_OK\r\n".utf8)
        if method == .check {
            out += Array("\(spam)\r\n\r\n".utf8)
            return out
        }
        var body: [UInt8]
        switch method {
        case .report: body = Array(verdict.report.utf8)
        case .reportIfSpam: body = verdict.isSpam ? Array(verdict.report.utf8) : []
        default:
            body = Array(verdict.symbols.joined(separator: ",").utf8)
            if version < 1.3 { body += [0x0D, 0x0A] }
        }
        if version >= 1.3 { out += Array("Content-length: \(body.count)\r\n".utf8) }
        out += Array("\(spam)\r\n\r\n".utf8)
        return out + body
    }

    /// The head of the answer to PROCESS or HEADERS whose message is `length` bytes
    /// (it follows the head).
    public static func messageHead(_ verdict: SpamdVerdict, method: SpamdMethod, version: Double, length: Int) -> [UInt8] {
        if version >= 1.3 {
            return Array("SPAMD/1.1 0 EX_OK\r\nContent-length: \(length)\r\n\(spamLine(verdict, method: method))\r\n\r\n".utf8)
        }
        if version >= 1.2 { return Array("SPAMD/1.1 0 EX_OK\r\nContent-length: \(length)\r\n\r\n".utf8) }
        return Array("SPAMD/1.0 0 EX_OK\r\n".utf8)
    }

    /// `SPAMD/1.5 0 PONG\r\n`.
    public static let pong = Array("SPAMD/1.5 0 PONG\r\n".utf8)

    /// The answer to TELL: what was set and removed (`local`; `remote` is never done).
    public static func tell(didSet: SpamdTellTargets, didRemove: SpamdTellTargets) -> [UInt8] {
        var headers = ""
        if didSet.contains(.local) { headers += "DidSet: local\r\n" }
        if didRemove.contains(.local) { headers += "DidRemove: local\r\n" }
        return Array("SPAMD/1.1 0 EX_OK\r\n\(headers)\r\n\r\n".utf8)
    }

    /// Where spamd cuts a rewritten message for HEADERS: after the first empty line
    /// (`s/(\015?\012\015?\012).*$/$1/s`); the whole message when it has none.
    public static func headersEnd(_ message: UnsafeBufferPointer<UInt8>) -> Int? {
        var i = 0
        while i < message.count {
            if message[i] == 0x0A {
                if i + 1 < message.count, message[i + 1] == 0x0A { return i + 2 }
                if i + 2 < message.count, message[i + 1] == 0x0D, message[i + 2] == 0x0A { return i + 3 }
            }
            i += 1
        }
        return nil
    }
}

extension SpamdVerdict {

    /// spamd's `result:` words: `Y 1003 - A,B` — `Y` or `.`, the score as perl's `%2d`
    /// writes it (truncated), the rules that fired (`none` when none did).
    public var resultWords: String {
        let points = score.isFinite ? Int(max(-1e9, min(1e9, score))) : 0
        let padded = points > -10 && points < 10 && points >= 0 ? " \(points)" : "\(points)"
        return "\(isSpam ? "Y" : ".") \(padded) - \(symbols.isEmpty ? "none" : symbols.joined(separator: ","))"
    }

    /// The threshold with one decimal (`5.0`), spamd's `required_score=`.
    public var requiredText: String { cFormat("%.1f", threshold) }

    /// The list's own `score/threshold` (`1.12/0.90`) beside the scaled one.
    public var listScoreText: String { cFormat("%.2f", listScore) + "/" + cFormat("%.2f", listThreshold) }
}
