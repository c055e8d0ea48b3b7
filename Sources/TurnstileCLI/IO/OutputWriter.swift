/// Why output stopped.
enum OutputError: Error {
    /// The reader went away (`EPIPE`): stop quietly.
    case brokenPipe
    /// Any other write error, with its errno.
    case failed(Int32)
    /// Not an error: the sink has all it needs from this input (`match -l`, `-L`,
    /// `-m`); the command goes on with the next input.
    case inputDone
    /// Not an error: the sink has all it needs from the whole run (`-q` after the
    /// first selected record); the command stops reading and flushes.
    case allDone
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
    private let capacity = 64 << 10
    private let buffer: UnsafeMutablePointer<UInt8>
    private var count = 0
    /// `true` unless the descriptor is a regular file.
    let isInteractive: Bool
    /// `true` when the descriptor is a terminal.
    let isTerminal: Bool
    /// Where the output goes instead of a descriptor, for ``init(collectingLike:)``.
    private var collected: [UInt8] = []
    /// `true` for a writer made by ``init(collectingLike:)``.
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

    /// What a collecting writer has gathered since the last call; `next` (an empty
    /// array, typically with storage to reuse) collects from now on.
    func takeCollected(next: [UInt8] = []) -> [UInt8] {
        try? flush()  // a collecting writer cannot fail
        let taken = collected
        collected = next
        return taken
    }

    deinit { buffer.deallocate() }

    func write(_ bytes: UnsafeBufferPointer<UInt8>) throws(OutputError) {
        guard let base = bytes.baseAddress, bytes.count > 0 else { return }
        // A collecting writer goes through the buffer too, and appends to `collected`
        // 64 KiB at a time: appending each small write to the array straight away cost
        // 7 % more instructions at `filter -j 2` than `-j 1` (per-call array
        // bookkeeping and exclusivity checks; callgrind, 16 MiB of en-sampled).
        if count + bytes.count > capacity {
            try flush()
            if bytes.count >= capacity { return try writeAll(base, bytes.count) }
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

    func write(_ string: String) throws(OutputError) {
        var s = string
        let failure = s.withUTF8 { b -> OutputError? in
            do throws(OutputError) { try write(b); return nil } catch { return error }
        }
        if let failure { throw failure }
    }

    func write(byte: UInt8) throws(OutputError) {
        if count == capacity { try flush() }
        // SAFETY: count < capacity after the flush above.
        buffer[count] = byte
        count += 1
    }

    func flush() throws(OutputError) {
        guard count > 0 else { return }
        let n = count
        count = 0
        try writeAll(buffer, n)
    }

    func flushIfInteractive() throws(OutputError) {
        if isInteractive { try flush() }
    }

    private func writeAll(_ base: UnsafePointer<UInt8>, _ n: Int) throws(OutputError) {
        if collecting {
            collected.append(contentsOf: UnsafeBufferPointer(start: base, count: n))
            return
        }
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
func printError(_ message: String) {
    var line = message + "\n"
    line.withUTF8 { b in
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
