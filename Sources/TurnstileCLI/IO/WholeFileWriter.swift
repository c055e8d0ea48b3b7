/// Creates or truncates `path` and writes all of `bytes`, retrying short and
/// interrupted writes (for `compile -o` and `train -o`). `-` is standard output, as
/// everywhere else on the command line.
func writeWholeFile(_ path: String, _ bytes: [UInt8]) throws {
    let fd = path == "-" ? 1 : open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    if fd < 0 { throw CommandFailure("cannot create \(path): \(errnoDescription(errno))") }
    defer { if fd != 1 { close(fd) } }
    var done = 0
    while done < bytes.count {
        let n = bytes.withUnsafeBufferPointer { systemWrite(fd, $0.baseAddress! + done, bytes.count - done) }
        if n < 0 {
            if errno == EINTR { continue }
            if errno == EPIPE { return }  // the reader of standard output went away
            throw CommandFailure("cannot write \(path): \(errnoDescription(errno))")
        }
        done += n
    }
}
