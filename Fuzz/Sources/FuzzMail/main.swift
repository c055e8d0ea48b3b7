// Fuzz target: the mail reader on arbitrary bytes (issue 16: a target for the mail
// issue's reader).
//
// Input: byte 0 sets the MIME limits (bits 0-2: depth 0-7; bits 3-7: parts 0-31) and
// whether `>From ` lines are unquoted (bit 2 of the depth is reused as a coin); the
// rest is the message, or an mbox of several. Every input must decode without a
// crash or a hang, and:
// - decoding is bounded: the decoded text is at most a small multiple of the input
//   (entities, charsets and encoded words can grow text, never without bound);
// - every URI line starts as the URI scanner promises;
// - cutting the input into mbox records hands on every byte exactly once, in order
//   (the pass-through guarantee: records' content + terminator concatenate to the
//   input).

import FuzzSupport
import Turnstile

runFuzzer { data in
    var input = FuzzInput(data)
    let flags = input.byte()
    let limits = MailMessage.Limits(maxDepth: Int(flags & 7), maxParts: Int(flags >> 3))
    let bytes = input.rest()

    let message = (flags & 4 != 0 ? RecordFormat.mbox : .eml).message(of: bytes, limits: limits)
    let bound = 8 * bytes.count + 256
    if message.body.count > bound || message.uris.count > bound {
        fuzzFailure("decoded text of \(message.body.count) / \(message.uris.count) bytes from \(bytes.count) input bytes: \(showBytes(bytes))")
    }
    for line in message.uris.split(separator: 0x0A) {
        let text = Array(line.prefix(8))
        let lower = text.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }
        if !(lower.starts(with: Array("http://".utf8)) || lower.starts(with: Array("https://".utf8))
             || lower.starts(with: Array("www.".utf8))) {
            fuzzFailure("URI line \(showBytes(Array(line))) from \(showBytes(bytes))")
        }
    }

    // The mbox cut covers the input exactly, whether the input ends or more may follow.
    bytes.withUnsafeBufferPointer { buffer in
        var rebuilt: [UInt8] = []
        var from = 0
        while let (contentEnd, next) = RecordDelimiter.mbox.nextRecord(in: buffer, from: from, atEnd: true) {
            if contentEnd < from || next < contentEnd || next > buffer.count || next == from {
                fuzzFailure("mbox cut (\(contentEnd), \(next)) from \(from) of \(buffer.count): \(showBytes(bytes))")
            }
            rebuilt += buffer[from..<next]
            from = next
        }
        if rebuilt != bytes {
            fuzzFailure("mbox records do not rebuild the input (\(rebuilt.count) of \(bytes.count) bytes): \(showBytes(bytes))")
        }
    }
}
