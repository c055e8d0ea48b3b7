// A message decoded into the parts rules look at: the header fields (unfolded, RFC 2047
// decoded, UTF-8), the body text (the text parts of the MIME tree decoded from their
// transfer encoding and charset, HTML turned into text, the subject first as
// SpamAssassin's body rules see it), and the URIs in it. Attachments (non-text parts)
// are skipped without decoding, so a 50 MB attachment costs one scan for boundaries.
// Whatever cannot be decoded is counted in `problems` and the rest is still read.
// Sources: RFC 5322 (message format), RFC 2045–2047 and 2231 (MIME), RFC 4155 (mbox).

import AutomatonCore

/// The decoded view of one e-mail message.
///
/// ```swift
/// let raw = Array("Subject: =?UTF-8?B?V2lu?= big\r\nContent-Type: text/html\r\n\r\n<b>Cheap</b> <a href=\"http://x.example\">pills</a>".utf8)
/// let message = MailMessage(parsing: raw)
/// String(decoding: message.subject, as: UTF8.self)   // "Win big"
/// String(decoding: message.body, as: UTF8.self)      // "Win big\nCheap  http://x.example pills\n" (folded to ASCII: MailTextFolding)
/// String(decoding: message.uris, as: UTF8.self)      // "http://x.example\n"
/// ```
///
/// - Complexity: O(message bytes).
public struct MailMessage: Sendable {
    /// How deep and how wide a MIME tree is followed.
    public struct Limits: Sendable, Hashable {
        /// Multipart and message/rfc822 nesting deeper than this is skipped (counted).
        public var maxDepth: Int
        /// Parts after this many are skipped (counted).
        public var maxParts: Int
        /// A header field is read up to this many bytes (longer ones are counted):
        /// real fields are at most a few KB, and a 20 MB one must not be copied at
        /// every step of decoding.
        public var maxFieldBytes: Int

        public init(maxDepth: Int = 8, maxParts: Int = 100, maxFieldBytes: Int = 256 << 10) {
            self.maxDepth = maxDepth
            self.maxParts = maxParts
            self.maxFieldBytes = maxFieldBytes
        }
    }

    /// One header field of the top-level message.
    public struct Field: Sendable, Hashable {
        /// The field name, lowercase ASCII.
        public var name: [UInt8]
        /// The value: unfolded, trimmed, encoded words decoded, UTF-8.
        public var value: [UInt8]
    }

    /// The top-level header fields, in order.
    public var fields: [Field]
    /// What plain (body) rules look at: the decoded subject, a line break, then the
    /// text of each text part followed by a line break, folded to the ASCII letters a
    /// reader reads (``MailTextFolding``: `prêmio` is `premio`).
    public var body: [UInt8]
    /// The `http://`, `https://` and `www.` URIs of the body text as sent (before
    /// folding), one per line.
    public var uris: [UInt8]
    /// What could not be decoded.
    public var problems = MailDecodingProblems()
    /// What the MIME tree is made of (text and HTML parts, base64 text, attachment
    /// kinds, forms, links whose text names another domain): the raw material of
    /// ``MailFacts``.
    public var structure = MailStructure()

    /// Decodes `bytes`, one whole message (a leading mbox `From ` line is skipped). A
    /// record of an mbox is decoded with ``RecordFormat/message(of:limits:truncated:firstOfInput:)``,
    /// which also undoes its `>From ` quoting.
    public init(parsing bytes: UnsafeBufferPointer<UInt8>, limits: Limits = Limits()) {
        self.init(parsing: bytes, limits: limits, unquoteFrom: false)
    }

    /// Decodes `bytes`; `unquoteFrom`: undo mbox `>From ` quoting in the text (one `>`
    /// fewer on lines matching `^>+From `). Only ``RecordFormat`` decides that.
    package init(parsing bytes: UnsafeBufferPointer<UInt8>, limits: Limits = Limits(), unquoteFrom: Bool) {
        let lineEnds = LineEnds(of: bytes)
        if lineEnds.hasBareCR {
            // Bare CRs are line ends: decode a copy with LF in their place (the
            // original bytes are still what is passed through).
            var copy = Array(bytes)
            LineEnds.replaceBareCRs(in: &copy)
            self = copy.withUnsafeBufferPointer { MailMessage(lineEndsNormalized: $0, limits: limits, unquoteFrom: unquoteFrom) }
        } else {
            self = MailMessage(lineEndsNormalized: bytes, limits: limits, unquoteFrom: unquoteFrom)
        }
        if lineEnds.kinds > 1 { problems.add(.mixedLineEnds) } else if lineEnds.hasBareCR { problems.add(.crLineEnds) }
    }

    /// Decodes a message whose lines end in LF or CRLF.
    private init(lineEndsNormalized bytes: UnsafeBufferPointer<UInt8>, limits: Limits, unquoteFrom: Bool) {
        var decoder = Decoder(buffer: bytes, limits: limits)
        let header = HeaderFields(parsing: bytes[...], problems: &decoder.problems)
        fields = header.fields.map { field in
            if field.value.count > limits.maxFieldBytes { decoder.problems.add(.fieldTooLong) }
            return Field(name: asciiLowercased(bytes[field.name]),
                         value: EncodedWords.decode(header.value(of: field, in: bytes, limit: limits.maxFieldBytes),
                                                    problems: &decoder.problems))
        }
        body = []
        body.reserveCapacity(bytes.count / 2)
        for field in fields where field.name == Self.subjectName { body += field.value }
        body.append(0x0A)
        decoder.decodeEntity(header, body: header.bodyStart..<bytes.count, depth: 0, defaultType: "text/plain", into: &body)
        if unquoteFrom { Self.unquoteFromLines(&body) }
        uris = URIScanner.uris(in: body)
        // The links as sent, the words as read: folding comes after the URI scan.
        body = MailTextFolding.folded(body, disguises: &decoder.structure.disguises)
        problems = decoder.problems
        structure = decoder.structure
    }

    /// Decodes a message held in an array.
    public init(parsing bytes: [UInt8], limits: Limits = Limits()) {
        self = bytes.withUnsafeBufferPointer { MailMessage(parsing: $0, limits: limits) }
    }

    static let subjectName = Array("subject".utf8)

    /// The values of every field named `name` (lowercase), joined by line breaks.
    public func values(of name: [UInt8]) -> [UInt8] {
        var out: [UInt8] = []
        for field in fields where field.name == name {
            if !out.isEmpty { out.append(0x0A) }
            out += field.value
        }
        return out
    }

    /// The decoded Subject.
    public var subject: [UInt8] { values(of: Self.subjectName) }

    /// Removes one `>` from each line of `text` that matches `^>+From `.
    static func unquoteFromLines(_ text: inout [UInt8]) {
        // Most messages have no quoted line: look for "\n>" first (memchr on '>').
        let quoted = text.withUnsafeBufferPointer { buffer -> Bool in
            var at = 0
            while let p = RecordDelimiter.find(UInt8(ascii: ">"), in: buffer, from: at) {
                if p == 0 || buffer[p - 1] == 0x0A { return true }
                at = p + 1
            }
            return false
        }
        guard quoted else { return }
        var out: [UInt8] = []
        var changed = false
        var lineStart = true
        var i = 0
        while i < text.count {
            if lineStart, text[i] == UInt8(ascii: ">") {
                var k = i
                while k < text.count, text[k] == UInt8(ascii: ">") { k += 1 }
                if text.count - k >= 5, Array(text[k..<(k + 5)]) == RecordDelimiter.mboxSeparator {
                    if !changed { out = Array(text[..<i]); changed = true }
                    i += 1  // drop one '>'
                    lineStart = false
                    continue
                }
            }
            lineStart = text[i] == 0x0A
            if changed { out.append(text[i]) }
            i += 1
        }
        if changed { text = out }
    }

    /// Walks the MIME tree of one message.
    private struct Decoder {
        let buffer: UnsafeBufferPointer<UInt8>
        let limits: Limits
        var problems = MailDecodingProblems()
        var structure = MailStructure()
        var parts = 0

        init(buffer: UnsafeBufferPointer<UInt8>, limits: Limits) {
            self.buffer = buffer
            self.limits = limits
        }

        /// Appends the text of the entity with header `header` and body `body`.
        mutating func decodeEntity(
            _ header: HeaderFields, body: Range<Int>, depth: Int, defaultType: String, into text: inout [UInt8]
        ) {
            let contentType = header.first("content-type", in: buffer).map {
                MIMEParameters(header.value(of: $0, in: buffer))
            }
            let type = contentType?.type ?? defaultType
            if type.hasPrefix("multipart/") {
                guard depth < limits.maxDepth else { problems.add(.nestingTooDeep); return }
                guard let boundary = contentType?["boundary"], !boundary.isEmpty else {
                    problems.add(.missingBoundary)
                    decodeText(header, contentType: nil, body: body, into: &text)
                    return
                }
                let remaining = limits.maxParts - parts
                guard remaining > 0 else { problems.add(.tooManyParts); return }
                guard let ranges = MultipartBody.parts(of: buffer[body], boundary: boundary, maxParts: remaining,
                                                       problems: &problems)
                else {
                    decodeText(header, contentType: nil, body: body, into: &text)
                    return
                }
                let childType = type == "multipart/digest" ? "message/rfc822" : "text/plain"
                for range in ranges {
                    parts += 1
                    let partHeader = HeaderFields(parsing: buffer[range], problems: &problems)
                    decodeEntity(partHeader, body: partHeader.bodyStart..<range.upperBound, depth: depth + 1,
                                 defaultType: childType, into: &text)
                }
            } else if type == "message/rfc822" {
                guard depth < limits.maxDepth else { problems.add(.nestingTooDeep); return }
                let inner = HeaderFields(parsing: buffer[body], problems: &problems)
                if let subject = inner.first("subject", in: buffer) {
                    text += EncodedWords.decode(inner.value(of: subject, in: buffer), problems: &problems)
                    text.append(0x0A)
                }
                decodeEntity(inner, body: inner.bodyStart..<body.upperBound, depth: depth + 1,
                             defaultType: "text/plain", into: &text)
            } else if type.hasPrefix("text/") || !type.contains("/") {
                decodeText(header, contentType: contentType, body: body, into: &text)
            } else {
                let disposition = header.first("content-disposition", in: buffer).map {
                    MIMEParameters(header.value(of: $0, in: buffer))
                }
                let name = disposition?["filename"] ?? contentType?["name"] ?? []
                structure.addAttachment(type: type, fileName: name)
            }
            // Other types (images, applications, …) are attachments: skipped.
        }

        /// Appends a text part: transfer encoding, charset, and HTML to text.
        mutating func decodeText(
            _ header: HeaderFields, contentType: MIMEParameters?, body: Range<Int>, into text: inout [UInt8]
        ) {
            let encodingLabel = header.first("content-transfer-encoding", in: buffer).map { header.value(of: $0, in: buffer) }
            let encoding = TransferEncoding(label: encodingLabel ?? [])
            if encoding == .unknown { problems.add(.unknownTransferEncoding) }
            let charset = Charset(label: contentType?["charset"] ?? [])
            let isHTML = contentType?.type == "text/html"
            if encoding == .base64 { structure.base64Text = true }
            // PERF: `filter --format mbox` CPU: identity-encoded text is converted
            // straight from the message (no intermediate copies).
            if encoding == .identity || encoding == .unknown {
                appendText(buffer[body], charset: charset, isHTML: isHTML, into: &text)
            } else {
                var decoded: [UInt8] = []
                if !encoding.decode(buffer[body], into: &decoded) { problems.add(.brokenBase64) }
                appendText(decoded, charset: charset, isHTML: isHTML, into: &text)
            }
            text.append(0x0A)
        }

        /// Appends `raw` text in `charset`, HTML turned into text.
        mutating func appendText<C: Collection<UInt8>>(_ raw: C, charset: Charset, isHTML: Bool, into text: inout [UInt8]) {
            if isHTML || Self.looksLikeHTML(raw) {
                structure.htmlParts += 1
                var utf8: [UInt8] = []
                if !charset.appendUTF8(raw, to: &utf8) { problems.add(.unknownCharset) }
                utf8.withUnsafeBufferPointer { HTMLText.append($0, to: &text, facts: &structure.html) }
            } else {
                structure.plainParts += 1
                if !charset.appendUTF8(raw, to: &text) { problems.add(.unknownCharset) }
            }
        }

        /// Whether text labelled plain (or not labelled) is an HTML document, as spam
        /// without a Content-Type often is: it starts with `<html`, `<!doctype html`,
        /// `<head` or `<body` after white space.
        static func looksLikeHTML<C: Collection<UInt8>>(_ text: C) -> Bool {
            var rest = text.drop { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D }
            guard rest.first == UInt8(ascii: "<") else { return false }
            rest = rest.prefix(14)
            let head = String(decoding: rest.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }, as: UTF8.self)
            return head.hasPrefix("<html") || head.hasPrefix("<!doctype html") || head.hasPrefix("<head")
                || head.hasPrefix("<body")
        }
    }
}
