import Turnstile

/// grep's test for binary input: a NUL byte in the first buffer read (GNU grep reads
/// 96 KiB and looks for NUL there; ``RecordReader/headBytes``). In a UTF-8 locale grep also treats a line it is
/// about to print as binary when it holds an encoding error (``hasEncodingErrors(_:)``):
/// the line is left out and `binary file matches` is said once the input ends.
enum BinaryDetection {
    /// Whether `bytes` hold a NUL (the reader hands over an input's head once,
    /// ``RecordSink/inputHead(_:)``; nothing here reads an input).
    static func isBinary(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let start = bytes.baseAddress, bytes.count > 0 else { return false }
        return memchr(start, 0, bytes.count) != nil
    }

    /// Whether `bytes` hold a sequence glibc's UTF-8 `mbrlen` rejects, which GNU grep
    /// calls an encoding error: a stray continuation byte, a lead byte without its
    /// continuation bytes, an overlong form, a surrogate, or `FE`/`FF`. Like glibc it
    /// accepts the old 4- to 6-byte forms above U+10FFFF (GNU grep prints those lines).
    static func hasEncodingErrors(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var i = 0
        let n = bytes.count
        guard let base = UnsafeRawPointer(bytes.baseAddress) else { return false }
        while i < n {
            // ASCII eight bytes at a time: most printed lines have no other byte
            // (PERF: `grep ERROR` over a 100 MB log in a UTF-8 locale, 25.5 M of 204 M
            // instructions a byte at a time).
            while i &+ 8 <= n, base.loadUnaligned(fromByteOffset: i, as: UInt64.self) & 0x8080_8080_8080_8080 == 0 {
                i &+= 8
            }
            guard i < n else { return false }
            let lead = bytes[i]
            if lead < 0x80 { i += 1; continue }
            let length: Int, minimum: UInt32
            switch lead {
            case 0xC2...0xDF: (length, minimum) = (2, 0x80)
            case 0xE0...0xEF: (length, minimum) = (3, 0x800)
            case 0xF0...0xF7: (length, minimum) = (4, 0x1_0000)
            case 0xF8...0xFB: (length, minimum) = (5, 0x20_0000)
            case 0xFC...0xFD: (length, minimum) = (6, 0x400_0000)
            default: return true
            }
            guard i + length <= n else { return true }
            var value = UInt32(lead) & (0x7F >> UInt32(length))
            for k in 1..<length {
                let c = bytes[i + k]
                guard c & 0xC0 == 0x80 else { return true }
                value = value << 6 | UInt32(c & 0x3F)
            }
            if value < minimum || (0xD800...0xDFFF).contains(value) { return true }
            i += length
        }
        return false
    }
}
