import Turnstile

/// grep's test for binary input: a NUL byte in the first buffer read (GNU grep reads
/// 32 KiB and looks for NUL there; encoding errors, which grep also counts in a UTF-8
/// locale, are not looked at).
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
}
