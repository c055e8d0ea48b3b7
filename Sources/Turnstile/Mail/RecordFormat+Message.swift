// The one place a raw record of a mail format becomes the message rules look at.
// `filter` (its sinks, sequential and threaded), `eval`, `train` (TrainingSet), `learn`
// and the learning store all decode here, so a message means the same thing in every
// command: mbox's `>From ` quoting undone for mbox records only, and what the reader
// knows of the record (cut at the record limit, junk before an mbox's first message)
// added to the message's problems.

extension RecordFormat {
    /// Decodes one record of this format into a ``MailMessage``.
    ///
    /// - Parameters:
    ///   - record: the record's original bytes (they stay what is passed through).
    ///   - limits: how deep and wide the MIME tree is followed.
    ///   - truncated: the reader cut the record at its limit: the message notes
    ///     ``MailDecodingProblems/Kind/truncated``.
    ///   - firstOfInput: the record is its input's first: in an mbox that does not
    ///     start with a `From ` line, the bytes before the first message are noted
    ///     as ``MailDecodingProblems/Kind/junkBeforeFirstMessage``.
    ///
    /// ```swift
    /// let raw = Array("From a@b Thu Nov 26 09:00:00 2026\nSubject: hi\n\n>From here\n".utf8)
    /// String(decoding: RecordFormat.mbox.message(of: raw).body, as: UTF8.self)  // "hi\nFrom here\n\n"
    /// ```
    /// - Complexity: O(record bytes).
    public func message(
        of record: UnsafeBufferPointer<UInt8>, limits: MailMessage.Limits = MailMessage.Limits(),
        truncated: Bool = false, firstOfInput: Bool = false
    ) -> MailMessage {
        var message = MailMessage(parsing: record, limits: limits, unquoteFrom: self == .mbox)
        if truncated { message.problems.add(.truncated) }
        if self == .mbox, firstOfInput, !record.starts(with: RecordDelimiter.mboxSeparatorBytes) {
            message.problems.add(.junkBeforeFirstMessage)
        }
        return message
    }

    /// Decodes one whole record held in an array (see
    /// ``message(of:limits:truncated:firstOfInput:)``).
    public func message(of record: [UInt8], limits: MailMessage.Limits = MailMessage.Limits()) -> MailMessage {
        record.withUnsafeBufferPointer { message(of: $0, limits: limits) }
    }
}
