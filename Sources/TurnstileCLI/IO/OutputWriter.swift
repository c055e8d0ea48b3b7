import Turnstile

/// Why output stopped.
enum OutputError: Error {
    /// The reader went away (`EPIPE`): stop quietly.
    case brokenPipe
    /// Any other write error, with its errno.
    case failed(Int32)
}

/// Buffered writes to a file descriptor through one reused 64 KiB buffer.
///
/// When the descriptor is a pipe, a terminal, a socket or a character device (anything
/// but a regular file), ``flushIfInteractive()`` — called before every blocking read —
/// writes out what is buffered, so each record is on its way before turnstile waits
/// for more input (`tail -f log | turnstile filter` works line by line). To a regular
/// file the output goes in 64 KiB writes.
final class OutputWriter {
    private let fd: Int32
    /// `buffer[0..<count]` is written and not yet flushed; `buffer[0..<capacity]` is
    /// allocated (64 KiB; a collecting writer's grows instead of flushing).
    private var capacity = 64 << 10
    private var buffer: UnsafeMutablePointer<UInt8>
    private var count = 0
    /// `true` unless the descriptor is a regular file.
    let isInteractive: Bool
    /// `true` when the descriptor is a terminal.
    let isTerminal: Bool
    /// `true` for a writer made by ``init(collectingLike:)``: the buffer grows and
    /// is handed over whole by ``takeCollected(next:)``.
    private let collecting: Bool

    init(fd: Int32) {
        self.fd = fd
        self.buffer = .allocate(capacity: capacity)
        var info = stat()
        let regular = fstat(fd, &info) == 0 && (info.st_mode & S_IFMT) == S_IFREG
        self.isInteractive = !regular
        self.isTerminal = isatty(fd) == 1
        self.collecting = false
    }

    /// A writer that collects the output in memory (one `--threads` chunk's output,
    /// written later in input order); `isTerminal` is `terminal`, so colour is decided
    /// as for the real output.
    init(collectingLike output: OutputWriter) {
        self.fd = -1
        self.buffer = .allocate(capacity: capacity)
        self.isInteractive = false
        self.isTerminal = output.isTerminal
        self.collecting = true
    }

    /// What a collecting writer has gathered since the last call, its buffer handed
    /// over as it is (no copy); the storage of `next` collects from now on.
    func takeCollected(next: ChunkOutput) -> ChunkOutput {
        let taken = ChunkOutput(adopting: buffer, capacity: capacity, count: count)
        (buffer, capacity) = next.relinquishStorage()
        count = 0
        return taken
    }

    deinit { buffer.deallocate() }

    func write(_ bytes: UnsafeBufferPointer<UInt8>) throws(OutputError) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        if count + bytes.count > capacity {
            if collecting {
                grow(to: count + bytes.count)
            } else {
                try flush()
                if bytes.count >= capacity { return try writeAll(base, bytes.count) }
            }
        }
        // SAFETY: count + bytes.count <= capacity after the flush above.
        (buffer + count).update(from: base, count: bytes.count)
        count += bytes.count
    }

    func write(_ bytes: [UInt8]) throws(OutputError) {
        let failure = bytes.withUnsafeBufferPointer { b -> OutputError? in
            do throws(OutputError) { try write(b); return nil } catch { return error }
        }
        if let failure { throw failure }
    }

    /// A string with names holding bytes beyond UTF-8 is written as those bytes (``PathBytes``).
    func write(_ string: String) throws(OutputError) {
        if PathBytes.hasStandIns(string) {
            let failure = PathBytes.bytes(string).withUnsafeBufferPointer { b -> OutputError? in
                do throws(OutputError) { try write(b); return nil } catch { return error }
            }
            if let failure { throw failure }
            return
        }
        var s = string
        let failure = s.withUTF8 { b -> OutputError? in
            do throws(OutputError) { try write(b); return nil } catch { return error }
        }
        if let failure { throw failure }
    }

    func write(byte: UInt8) throws(OutputError) {
        if count == capacity {
            if collecting { grow(to: count + 1) } else { try flush() }
        }
        // SAFETY: count < capacity after the flush above.
        buffer[count] = byte
        count += 1
    }

    /// A collecting writer's buffer, at least doubled.
    private func grow(to minimum: Int) {
        let newCapacity = max(minimum, 2 * capacity)
        let bigger = UnsafeMutablePointer<UInt8>.allocate(capacity: newCapacity)
        // SAFETY: count <= capacity < newCapacity; distinct allocations.
        bigger.update(from: buffer, count: count)
        buffer.deallocate()
        buffer = bigger
        capacity = newCapacity
    }

    func flush() throws(OutputError) {
        if collecting { return }
        guard count > 0 else { return }
        let n = count
        count = 0
        try writeAll(buffer, n)
    }

    func flushIfInteractive() throws(OutputError) {
        if isInteractive { try flush() }
    }

    private func writeAll(_ base: UnsafePointer<UInt8>, _ n: Int) throws(OutputError) {
        var done = 0
        while done < n {
            let r = systemWrite(fd, base + done, n - done)
            if r < 0 {
                if errno == EINTR { continue }
                throw errno == EPIPE ? .brokenPipe : .failed(errno)
            }
            done += r
        }
    }
}

/// Writes one line to stderr, unbuffered.
/// Names in it that hold bytes beyond UTF-8 are written as those bytes (``PathBytes``).
func printError(_ message: String) {
    let line = PathBytes.bytes(message + "\n")
    line.withUnsafeBufferPointer { b in
        var done = 0
        while done < b.count {
            let r = systemWrite(2, b.baseAddress! + done, b.count - done)
            if r < 0 { if errno == EINTR { continue }; return }
            done += r
        }
    }
}

/// The text of an errno value.
func errnoDescription(_ code: Int32) -> String {
    String(cString: strerror(code))
}

/// `write(2)`, named apart from ``OutputWriter/write(_:)``.
@inline(__always)
func systemWrite(_ fd: Int32, _ base: UnsafePointer<UInt8>, _ n: Int) -> Int {
    write(fd, base, n)
}
