// Appending to an mbox file without ever losing what is in it (`filter --spam-to` with
// --format mbox), the way mail delivery agents do (procmail, maildrop, Postfix local(8)):
// the file is opened with O_APPEND and never truncated, and while it is written it is
// held by a `.lock` dotlock (for readers that only know dotlocks: mutt, mail(1)) and an
// fcntl(2) write lock (for those that only know kernel locks: dovecot, maildrop).
//
// Messages are first spooled to an unlinked temporary file beside the target, and only
// appended — in one locked pass — when the run's inputs were all read: so the target is
// untouched (not even created) when an input fails or no spam is found, two concurrent
// runs never interleave their messages, and an append that fails half-way (disk full) is
// cut back to the length the file had, as procmail does.

/// Spam messages of one run, spooled and then appended to an mbox file under its locks.
final class MboxAppend {
    /// The mbox file appended to.
    let path: String
    /// The unlinked spool file (created at the first message), its descriptor and writer.
    private var spool: Int32 = -1
    private var writer: OutputWriter?
    /// Bytes spooled so far.
    private var spooled = 0

    init(path: String) { self.path = path }

    deinit { if spool >= 0 { close(spool) } }

    /// The folder the target is in (where the spool and the dotlock go).
    private var folder: String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// Starts a message: when `startsWithFromLine` is false (bytes before an mbox's
    /// first `From ` line, or a message read from another format), a `From ` line is
    /// written first so the appended mbox still separates its messages.
    func begin(startsWithFromLine: Bool) throws {
        if spool < 0 { try openSpool() }
        if !startsWithFromLine {
            var now = time(nil)
            var fields = tm()
            gmtime_r(&now, &fields)
            var text = [CChar](repeating: 0, count: 32)
            strftime(&text, text.count, "%a %b %e %H:%M:%S %Y", &fields)
            let line = "From MAILER-DAEMON  " + String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self) + "\n"
            try write(Array(line.utf8))
        }
    }

    func write(_ bytes: UnsafeBufferPointer<UInt8>) throws {
        do { try writer?.write(bytes) } catch { throw CommandFailure("cannot write spam for \(path) to a temporary file in \(folder): \(error)") }
        spooled += bytes.count
    }

    func write(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBufferPointer { try write($0) }
    }

    private func openSpool() throws {
        var template = Array((folder + "/.turnstile-spool-XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        if fd < 0 { throw CommandFailure("cannot create a temporary file in \(folder) for --spam-to \(path): \(errnoDescription(errno))") }
        // Unlinked at once: nothing is left behind whatever happens to the process.
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        spool = fd
        writer = OutputWriter(fd: fd)
    }

    /// Forgets what was spooled: the target stays untouched.
    func discard() {
        if spool >= 0 { close(spool) }
        spool = -1
        writer = nil
        spooled = 0
    }

    /// Appends what was spooled to the target under its locks (nothing to do, and the
    /// target untouched, when nothing was spooled). On a failed write the target is cut
    /// back to its length before the append.
    func commit() throws {
        guard spool >= 0, let writer else { return }
        defer { discard() }
        do { try writer.flush() } catch { throw CommandFailure("cannot write spam for \(path) to a temporary file in \(folder): \(error)") }
        guard spooled > 0 else { return }
        let dotlock = try DotLock(path: path + ".lock")
        defer { dotlock.release() }
        let fd = open(path, O_RDWR | O_APPEND | O_CREAT | O_CLOEXEC, 0o600)
        if fd < 0 { throw CommandFailure("cannot open \(path) to append: \(errnoDescription(errno))") }
        defer { close(fd) }
        try Self.lockForWriting(fd, path: path)
        var info = stat()
        guard fstat(fd, &info) == 0 else { throw CommandFailure("cannot read the size of \(path): \(errnoDescription(errno))") }
        guard (info.st_mode & S_IFMT) == S_IFREG else { throw CommandFailure("--spam-to \(path) is not a regular file") }
        let before = off_t(info.st_size)
        do {
            // The file's last message must end its last line for `From ` to start one.
            if before > 0 {
                var last: UInt8 = 0
                if pread(fd, &last, 1, before - 1) == 1, last != 0x0A { try Self.writeAll(fd, [0x0A]) }
            }
            try copySpool(to: fd)
            if fsync(fd) != 0 { throw CommandFailure("cannot write \(path): \(errnoDescription(errno))") }
        } catch {
            // As procmail: what this run appended is cut off again, earlier mail kept.
            _ = ftruncate(fd, before)
            throw error
        }
    }

    /// Copies the spool to `fd` in 256 KiB pieces.
    private func copySpool(to fd: Int32) throws {
        let size = 256 << 10
        let piece = UnsafeMutablePointer<UInt8>.allocate(capacity: size)
        defer { piece.deallocate() }
        var at: off_t = 0
        while true {
            let n = pread(spool, piece, size, at)
            if n < 0 {
                if errno == EINTR { continue }
                throw CommandFailure("cannot read back the spam spooled for \(path): \(errnoDescription(errno))")
            }
            if n == 0 { break }
            try Self.writeAll(fd, UnsafeBufferPointer(start: piece, count: n))
            at += off_t(n)
        }
    }

    private static func writeAll(_ fd: Int32, _ bytes: [UInt8]) throws {
        try bytes.withUnsafeBufferPointer { try writeAll(fd, $0) }
    }

    private static func writeAll(_ fd: Int32, _ bytes: UnsafeBufferPointer<UInt8>) throws {
        var done = 0
        while done < bytes.count {
            let n = systemWrite(fd, bytes.baseAddress! + done, bytes.count - done)
            if n < 0 {
                if errno == EINTR { continue }
                throw CommandFailure("cannot append to the mbox: \(errnoDescription(errno))")
            }
            done += n
        }
    }

    /// Waits for an fcntl(2) write lock on the whole file (released when `fd` closes).
    private static func lockForWriting(_ fd: Int32, path: String) throws {
        var lock = flock()
        lock.l_type = Int16(F_WRLCK)
        lock.l_whence = Int16(SEEK_SET)
        lock.l_start = 0
        lock.l_len = 0
        while fcntl(fd, F_SETLKW, &lock) != 0 {
            if errno == EINTR { continue }
            throw CommandFailure("cannot lock \(path) (fcntl): \(errnoDescription(errno))")
        }
    }
}

/// A `name.lock` dotlock as mail programs take it: created with O_EXCL, waited for
/// while another process holds it, and broken when older than five minutes (a holder
/// that died; liblockfile's and procmail's rule). A folder where no lock file can be
/// created (a shared spool without write access) falls back to the fcntl lock alone.
struct DotLock {
    let path: String
    /// Whether this process created the lock file (and so removes it).
    private(set) var held = false
    /// How long to wait for another holder before giving up.
    static let patience: Duration = .seconds(60)
    /// A lock file older than this is stale.
    static let staleSeconds = 300

    init(path: String) throws {
        self.path = path
        let clock = ContinuousClock()
        let deadline = clock.now + Self.patience
        var pause = 10_000  // microseconds, doubled up to 0.5 s
        while true {
            let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
            if fd >= 0 {
                let pid = Array("\(getpid())\n".utf8)
                _ = pid.withUnsafeBufferPointer { systemWrite(fd, $0.baseAddress!, $0.count) }
                close(fd)
                held = true
                return
            }
            let code = errno
            if code == EACCES || code == EROFS || code == EPERM { return }  // fcntl alone
            guard code == EEXIST else { throw CommandFailure("cannot create the lock file \(path): \(errnoDescription(code))") }
            var info = stat()
            if stat(path, &info) == 0, Int(time(nil)) - Self.modified(info) > Self.staleSeconds {
                _ = unlink(path)
                continue
            }
            if clock.now > deadline {
                throw CommandFailure("\(path) has been locked by another program for over a minute; try again later")
            }
            usleep(UInt32(pause))
            pause = min(pause * 2, 500_000)
        }
    }

    func release() { if held { _ = unlink(path) } }

    /// When a file was last modified, in seconds since 1970.
    private static func modified(_ info: stat) -> Int {
        #if canImport(Darwin)
        return Int(info.st_mtimespec.tv_sec)
        #else
        return Int(info.st_mtim.tv_sec)
        #endif
    }
}
