// The mbox boundary finder (RFC 4155): a message starts at a line that begins with the
// five bytes `From `. mboxo and mboxrd writers quote body lines that would begin so
// (`>From `, `>>From `), so every such line is a separator; the quoting is undone for
// analysis only (`MailMessage`), never in the bytes passed through.
//
// A message's content runs from its `From ` line to the `\n` before the next one, and
// that `\n` is its terminator, so content plus terminator, message after message, is
// exactly the input. Bytes before the first `From ` line (junk, a stray header) are a
// record of their own, judged like a message and passed through like one. A CRLF mbox
// works the same way: the `\r` stays at the end of the content.

extension RecordDelimiter {
    /// The separator that starts every message: `From `.
    static let mboxSeparator: [UInt8] = Array("From ".utf8)
    /// The same, public: a record of an mbox that does not start so is junk before
    /// the first message.
    public static var mboxSeparatorBytes: [UInt8] { mboxSeparator }

    /// The message that starts at `from` (see ``nextRecord(in:from:atEnd:continuing:)``).
    /// The first line of a record is never a separator for it (it is its own `From `
    /// line, or junk), so the search starts at the first `\n`.
    func nextMboxMessage(in buffer: UnsafeBufferPointer<UInt8>, from: Int, atEnd: Bool) -> (contentEnd: Int, next: Int)? {
        var p = from
        while let nl = Self.find(0x0A, in: buffer, from: p) {
            let q = nl + 1
            switch Self.separatorState(buffer, at: q) {
            case .separator: return (nl, q)
            case .notSeparator: p = q
            case .undecided:
                // Too few bytes after this `\n` to tell; at the end there is no more.
                if atEnd { return Self.lastMessage(buffer) }
                return nil
            }
        }
        return atEnd ? Self.lastMessage(buffer) : nil
    }

    /// The last message runs to the end; a final `\n` is its terminator.
    private static func lastMessage(_ buffer: UnsafeBufferPointer<UInt8>) -> (contentEnd: Int, next: Int) {
        let count = buffer.count
        return buffer[count - 1] == 0x0A ? (count - 1, count) : (count, count)
    }

    enum SeparatorState { case separator, notSeparator, undecided }

    /// Whether a `From ` line starts at `q` (just after a `\n`): undecided when the
    /// buffer ends before five bytes and what is there is a prefix of `From `.
    static func separatorState(_ buffer: UnsafeBufferPointer<UInt8>, at q: Int) -> SeparatorState {
        let available = buffer.count - q
        for k in 0..<min(5, available) where buffer[q + k] != mboxSeparator[k] { return .notSeparator }
        return available >= 5 ? .separator : .undecided
    }

    /// How much of an unfinished message's tail can be streamed on: everything but a
    /// last `\n` that a `From ` line may still follow (the `\n` would be the terminator).
    static func mboxSafeTailEnd(_ view: UnsafeBufferPointer<UInt8>, from: Int) -> Int {
        var i = view.count
        // Only the last five bytes can hold an undecided `\n`.
        while i > max(from, view.count - 5) {
            i -= 1
            if view[i] == 0x0A {
                return separatorState(view, at: i + 1) == .undecided ? i : view.count
            }
        }
        return view.count
    }
}
