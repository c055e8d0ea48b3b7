// Which line ends a message uses. RFC 5322 says CRLF, mbox files and Unix tools LF,
// and some old or broken senders CR alone; a message read with the wrong idea of its
// line ends is one long header line. The reader takes LF and CRLF as they come, and a
// message with bare CRs is decoded from a copy where they are LF.

/// The kinds of line end in one message.
///
/// ```swift
/// LineEnds(of: "a\r\nb\n")      // kinds 2 (CRLF and LF): mixed
/// LineEnds(of: "a\rb\r")        // hasBareCR, kinds 1
/// ```
///
/// - Complexity: O(message bytes), one memchr pass for CR when there is none.
struct LineEnds {
    var hasLF = false
    var hasCRLF = false
    var hasBareCR = false
    /// How many kinds of line end occur.
    var kinds: Int { (hasLF ? 1 : 0) + (hasCRLF ? 1 : 0) + (hasBareCR ? 1 : 0) }

    /// A CR as the very last byte counts as neither: in an mbox the message's content
    /// stops before the `\n` that is its terminator, so it may be half of a CRLF.
    init(of bytes: UnsafeBufferPointer<UInt8>) {
        let count = bytes.count
        guard var cr = RecordDelimiter.find(0x0D, in: bytes, from: 0) else {
            hasLF = RecordDelimiter.find(0x0A, in: bytes, from: 0) != nil
            return
        }
        // LF alone anywhere (an LF not after a CR).
        var at = 0
        while let lf = RecordDelimiter.find(0x0A, in: bytes, from: at) {
            if lf == 0 || bytes[lf - 1] != 0x0D { hasLF = true; break }
            at = lf + 1
        }
        while true {
            if cr + 1 < count { if bytes[cr + 1] == 0x0A { hasCRLF = true } else { hasBareCR = true } }
            if hasCRLF && hasBareCR { break }
            guard let next = RecordDelimiter.find(0x0D, in: bytes, from: cr + 1) else { break }
            cr = next
        }
    }

    /// Every CR not followed by LF (and not the last byte) replaced by LF.
    static func replaceBareCRs(in bytes: inout [UInt8]) {
        let count = bytes.count
        for i in 0..<count where bytes[i] == 0x0D && i + 1 < count && bytes[i + 1] != 0x0A {
            bytes[i] = 0x0A
        }
    }
}
