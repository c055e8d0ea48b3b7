import Turnstile

/// grep's test for binary input: a NUL byte in the first buffer read (GNU grep reads
/// 32 KiB and looks for NUL there). In a UTF-8 locale grep also treats a line it is
/// about to print as binary when it holds an encoding error (``hasEncodingErrors(_:)``):
/// the line is left out and `binary file matches` is said once the input ends.
enum BinaryDetection {
    /// The bytes looked at.
    static let size = 32 << 10

    /// One read of up to ``size`` bytes from `fd` (one read, so a pipe that has less is
    /// not waited for): the input's first buffer, handed to the reader afterwards.
    static func firstBuffer(_ fd: Int32) throws(ScanError) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: size)
        let n = buffer.withUnsafeMutableBufferPointer { readSome(fd, $0.baseAddress!, size) }
        if n < 0 { throw .read(errno) }
        buffer.removeSubrange(n...)
        return buffer
    }

    /// Whether `bytes` hold a NUL.
    static func isBinary(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { raw in raw.baseAddress.map { memchr($0, 0, raw.count) != nil } ?? false }
    }

    /// Whether the file at `path` might be binary without reading it as an input:
    /// standard input always might; a file that cannot be read is left to the run to
    /// report.
    /// Anything but a regular file might be, and is not opened here: a FIFO's writer
    /// would lose what this read took, and each input is opened once, by the run.
    static func mightBeBinary(_ path: String) -> Bool {
        if path == "-" { return true }
        var info = stat()
        guard PathBytes.withCString(path, { stat($0, &info) }) == 0 else { return false }
        guard (info.st_mode & S_IFMT) == S_IFREG else { return true }
        let fd = PathBytes.withCString(path) { open($0, O_RDONLY | O_CLOEXEC) }
        guard fd >= 0 else { return false }
        defer { close(fd) }
        var buffer = [UInt8](repeating: 0, count: size)
        let n = buffer.withUnsafeMutableBytes { pread(fd, $0.baseAddress, size, 0) }
        guard n > 0 else { return false }
        return buffer.withUnsafeBytes { memchr($0.baseAddress!, 0, n) != nil }
    }

    /// Whether `bytes` hold a sequence glibc's UTF-8 `mbrlen` rejects, which GNU grep
    /// calls an encoding error: a stray continuation byte, a lead byte without its
    /// continuation bytes, an overlong form, a surrogate, or `FE`/`FF`. Like glibc it
    /// accepts the old 4- to 6-byte forms above U+10FFFF (GNU grep prints those lines).
    static func hasEncodingErrors(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var i = 0
        let n = bytes.count
        while i < n {
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
