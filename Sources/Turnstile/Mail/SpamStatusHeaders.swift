// Tagging a judged message as SpamAssassin does, so the recipes written for it work
// unchanged (procmail `^X-Spam-Flag: YES`, maildrop `/^X-Spam-Flag: YES/`, Sieve
// `header :is "X-Spam-Flag" "YES"`): `X-Spam-Status: Yes|No, score=S required=T
// tests=A,B` and, for spam, `X-Spam-Flag: YES`, inserted at the end of the header
// section — just before the empty line — in the message's own line ending. Fields of
// the same prefix from an earlier filter are removed, so a message is never tagged
// twice. Nothing else changes: every other byte of the message is written as it came.
// One place for `filter --tag` and the spamd server's PROCESS and HEADERS.

/// The header fields that tag a judged message, and where they go.
///
/// ```swift
/// let headers = SpamStatusHeaders()
/// let status = SpamStatus(isSpam: true, score: "7.5", required: "5", tests: ["viagra", "subject:winner"])
/// let raw = Array("Subject: WINNER\r\n\r\nbuy viagra\r\n".utf8)
/// String(decoding: headers.tagged(raw, status: status), as: UTF8.self)
/// // "Subject: WINNER\r\nX-Spam-Status: Yes, score=7.5 required=5 tests=viagra,subject:winner\r\n"
/// // + "X-Spam-Flag: YES\r\n\r\nbuy viagra\r\n"
/// ```
///
/// - Complexity: O(header bytes); the body is not read.
public struct SpamStatusHeaders: Sendable, Hashable {
    /// The field-name prefix: `X-Spam` gives `X-Spam-Status` and `X-Spam-Flag`.
    public let prefix: String
    /// `prefix-` in lowercase ASCII, to find earlier fields.
    private let lowercasedPrefix: [UInt8]

    /// `prefix` must be a valid field name (see ``isValidPrefix(_:)``).
    public init(prefix: String = "X-Spam") {
        self.prefix = prefix
        self.lowercasedPrefix = Array((prefix + "-").lowercased().utf8)
    }

    /// Whether `prefix` can start a header field name: printable ASCII other than `:`,
    /// not empty (RFC 5322 §3.6.8).
    public static func isValidPrefix(_ prefix: String) -> Bool {
        !prefix.isEmpty && prefix.utf8.allSatisfy { $0 > 0x20 && $0 < 0x7F && $0 != UInt8(ascii: ":") }
    }

    /// The first bytes of the tagged message: the header section of `message` with
    /// this prefix's earlier fields removed and the status fields inserted before the
    /// empty line; `restStart` is where the rest of `message`, written after `head`
    /// unchanged, begins.
    public struct TaggedHead: Sendable, Hashable {
        public var head: [UInt8]
        public var restStart: Int
    }

    /// Tags `message`. `complete`: `message` is the whole message; when it is only the
    /// first bytes (a message longer than the reader's limit) and its header section
    /// does not end within them, the result is nil — the caller passes the message on
    /// untagged.
    ///
    /// A message with no header section (no field on its first line) gets the fields
    /// at its top; one whose header runs to its end gets them after it (after a line
    /// end, added when its last line has none). A leading mbox `From ` line stays first.
    ///
    /// `fields`, when given, writes the fields inserted (given the line ending) in place
    /// of ``fields(_:lineEnding:)``: the spamd server's SpamAssassin header set.
    public func taggedHead(_ message: UnsafeBufferPointer<UInt8>, complete: Bool, status: SpamStatus,
                           fields written: ((_ lineEnding: [UInt8]) -> [UInt8])? = nil) -> TaggedHead? {
        let end = message.count
        var i = 0
        var lastEnding: Range<Int>? = nil
        if end >= 5, message[0] == UInt8(ascii: "F"), RecordDelimiter.separatorState(message, at: 0) == .separator {
            guard let line = Self.line(message, from: 0, complete: complete) else { return nil }
            if line.next > line.contentEnd { lastEnding = line.contentEnd..<line.next }
            i = line.next
        }
        let headerStart = i
        var removed: [Range<Int>] = []
        var removing = false
        var insertAt = end
        var headerEnding: Range<Int>? = nil
        while i < end {
            guard let line = Self.line(message, from: i, complete: complete) else { return nil }
            let ending = line.contentEnd..<line.next
            if line.contentEnd == i {  // the empty line
                insertAt = i
                if headerEnding == nil, !ending.isEmpty { headerEnding = ending }
                break
            }
            let first = message[i]
            if first == 0x20 || first == 0x09, i > headerStart {
                if removing { removed[removed.count - 1] = removed[removed.count - 1].lowerBound..<line.next }
                if !ending.isEmpty { headerEnding = ending }
                i = line.next
                continue
            }
            guard Self.isField(message, from: i, to: line.contentEnd) else {
                insertAt = i
                break
            }
            removing = hasPrefix(message, at: i, to: line.contentEnd)
            if removing { removed.append(i..<line.next) }
            if !ending.isEmpty { headerEnding = ending }
            i = line.next
        }
        if i >= end, !complete { return nil }
        // The line ending: the header's own, else the message's first, else LF.
        let ending: [UInt8]
        if let headerEnding {
            ending = Array(message[headerEnding])
        } else if let lastEnding {
            ending = Array(message[lastEnding])
        } else if let first = Self.firstLineEnding(message) {
            ending = first
        } else {
            ending = [0x0A]
        }
        var head: [UInt8] = []
        head.reserveCapacity(insertAt + 200)
        var at = 0
        for r in removed {
            head.append(contentsOf: UnsafeBufferPointer(rebasing: message[at..<r.lowerBound]))
            at = r.upperBound
        }
        head.append(contentsOf: UnsafeBufferPointer(rebasing: message[at..<insertAt]))
        // A header running to the end of a message without a final line end.
        if insertAt == end, let last = head.last, last != 0x0A, last != 0x0D { head += ending }
        head += written?(ending) ?? fields(status, lineEnding: ending)
        return TaggedHead(head: head, restStart: insertAt)
    }

    /// The whole tagged message (the spamd server's PROCESS).
    public func tagged(_ message: [UInt8], status: SpamStatus) -> [UInt8] {
        message.withUnsafeBufferPointer { buffer in
            let tagged = taggedHead(buffer, complete: true, status: status)!
            return tagged.head + buffer[tagged.restStart...]
        }
    }

    /// The status fields, each ended by `lineEnding`; a long tests list is folded onto
    /// continuation lines that start with a TAB, as SpamAssassin folds it.
    public func fields(_ status: SpamStatus, lineEnding: [UInt8] = [0x0A]) -> [UInt8] {
        var out = Array("\(prefix)-Status: \(status.isSpam ? "Yes" : "No"), score=\(status.score) required=\(status.required) tests=".utf8)
        var lineLength = out.count
        for (k, test) in status.tests.enumerated() {
            let name = Self.testName(test)
            if k > 0 {
                out.append(UInt8(ascii: ","))
                lineLength += 1
                if lineLength + name.count > 78 {
                    out += lineEnding
                    out.append(0x09)
                    lineLength = 1
                }
            }
            out += name
            lineLength += name.count
        }
        if status.tests.isEmpty { out += Array("none".utf8) }
        out += lineEnding
        if status.isSpam {
            out += Array("\(prefix)-Flag: YES".utf8)
            out += lineEnding
        }
        return out
    }

    /// A rule's pattern as a token of the tests list: printable ASCII other than
    /// space, comma and semicolon kept, any other byte written as `_`.
    public static func testName(_ pattern: String) -> [UInt8] {
        let bytes = pattern.utf8.map { b -> UInt8 in
            b > 0x20 && b < 0x7F && b != UInt8(ascii: ",") && b != UInt8(ascii: ";") ? b : UInt8(ascii: "_")
        }
        return bytes.isEmpty ? Array("_".utf8) : bytes
    }

    /// Whether the field on the line `[from, to)` is named `prefix-…`.
    private func hasPrefix(_ message: UnsafeBufferPointer<UInt8>, at from: Int, to: Int) -> Bool {
        guard to - from >= lowercasedPrefix.count else { return false }
        for (k, c) in lowercasedPrefix.enumerated() {
            var b = message[from + k]
            if b >= 0x41 && b <= 0x5A { b |= 0x20 }
            if b != c { return false }
        }
        return true
    }

    /// The line at `from`: where its content ends and the next line starts. A line
    /// ends at LF, CRLF, or a CR not followed by LF (CR-only mail); nil when `message`
    /// is incomplete and ends inside the line (or on a CR that an LF may follow).
    static func line(_ message: UnsafeBufferPointer<UInt8>, from: Int, complete: Bool) -> (contentEnd: Int, next: Int)? {
        var k = from
        let end = message.count
        while k < end {
            let b = message[k]
            if b == 0x0A { return (k, k + 1) }
            if b == 0x0D {
                if k + 1 < end { return message[k + 1] == 0x0A ? (k, k + 2) : (k, k + 1) }
                return complete ? (k, k + 1) : nil
            }
            k += 1
        }
        return complete ? (end, end) : nil
    }

    /// `Name:` at the start of the line `[from, to)` (spaces before the colon allowed).
    static func isField(_ message: UnsafeBufferPointer<UInt8>, from: Int, to: Int) -> Bool {
        var k = from
        while k < to, message[k] > 0x20, message[k] < 0x7F, message[k] != UInt8(ascii: ":") { k += 1 }
        guard k > from else { return false }
        while k < to, message[k] == 0x20 || message[k] == 0x09 { k += 1 }
        return k < to && message[k] == UInt8(ascii: ":")
    }

    /// The first line ending anywhere in `message`.
    static func firstLineEnding(_ message: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        for k in message.indices where message[k] == 0x0A || message[k] == 0x0D {
            if message[k] == 0x0A { return [0x0A] }
            return k + 1 < message.count && message[k + 1] == 0x0A ? [0x0D, 0x0A] : [0x0D]
        }
        return nil
    }
}

/// A verdict as the status fields write it.
public struct SpamStatus: Sendable, Hashable {
    public var isSpam: Bool
    /// The score and threshold as printed (``ScorePrecision/text(_:)``).
    public var score: String
    public var required: String
    /// The rules that fired, as written in the list (patterns with their scope prefix).
    public var tests: [String]

    public init(isSpam: Bool, score: String, required: String, tests: [String]) {
        self.isSpam = isSpam
        self.score = score
        self.required = required
        self.tests = tests
    }
}

extension MailJudge {
    /// The last message's verdict as the status fields write it.
    public var spamStatus: SpamStatus {
        var tests = hits.map { String(decoding: rules[$0.rule].pattern, as: UTF8.self) }
        if let senderMatch { tests.insert(senderMatch.decision == .allow ? "ALLOW_FROM" : "DENY_FROM", at: 0) }
        return SpamStatus(isSpam: isSpam, score: precision.text(score), required: precision.text(threshold), tests: tests)
    }
}
