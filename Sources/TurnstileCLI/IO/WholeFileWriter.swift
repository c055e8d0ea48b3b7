/// Creates or truncates `path` and writes all of `bytes`, retrying short and
/// interrupted writes (for `compile -o` and `train -o`).
func writeWholeFile(_ path: String, _ bytes: [UInt8]) throws {
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    if fd < 0 { throw CommandFailure("cannot create \(path): \(errnoDescription(errno))") }
    defer { close(fd) }
    var done = 0
    while done < bytes.count {
        let n = bytes.withUnsafeBufferPointer { systemWrite(fd, $0.baseAddress! + done, bytes.count - done) }
        if n < 0 {
            if errno == EINTR { continue }
            throw CommandFailure("cannot write \(path): \(errnoDescription(errno))")
        }
        done += n
    }
}
