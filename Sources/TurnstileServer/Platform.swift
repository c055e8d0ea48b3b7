// The module's C library calls, behind internal wrappers so that this is the only
// file with the platform switch (Glibc on Linux, Musl on static Linux builds, Darwin on
// macOS). Add a wrapper here rather than importing the C library in another file.
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#else
#error("TurnstileServer needs a C library (Glibc, Musl or Darwin)")
#endif
import NIOCore

/// The 4 bytes of a textual IPv4 address or the 16 of an IPv6 one, in network
/// order (inet_pton(3)), or nil when `text` is neither.
func parsedAddressBytes(_ text: String) -> [UInt8]? {
    var v4 = in_addr()
    if inet_pton(AF_INET, text, &v4) == 1 {
        return withUnsafeBytes(of: &v4) { Array($0) }
    }
    var v6 = in6_addr()
    if inet_pton(AF_INET6, text, &v6) == 1 {
        return withUnsafeBytes(of: &v6) { Array($0) }
    }
    return nil
}

/// The write end of the pipe the signal handler writes signal numbers to; set once,
/// before any handler is installed.
nonisolated(unsafe) private var signalPipeWriteEnd: Int32 = -1

/// Installs a handler for each of `signals` that writes the signal number (one byte)
/// to a pipe, unblocks them in the calling thread, and returns the pipe's read end.
/// Once per process.
func signalPipe(for signals: [Int32]) throws(ServerSignalsError) -> Int32 {
    precondition(signalPipeWriteEnd < 0, "one signal pipe per process")
    var fds: [Int32] = [-1, -1]
    guard pipe(&fds) == 0 else { throw ServerSignalsError(description: "cannot create the signal pipe: errno \(errno)") }
    for fd in fds { _ = fcntl(fd, F_SETFD, FD_CLOEXEC) }
    // A full pipe (thousands of unread signals) drops a signal rather than block the handler.
    _ = fcntl(fds[1], F_SETFL, fcntl(fds[1], F_GETFL) | O_NONBLOCK)
    signalPipeWriteEnd = fds[1]
    let handler: @convention(c) (Int32) -> Void = { signal in
        // Async-signal-safe: one write(2); errno is restored for the interrupted code.
        let saved = errno
        var byte = UInt8(truncatingIfNeeded: signal)
        _ = write(signalPipeWriteEnd, &byte, 1)
        errno = saved
    }
    var unblock = sigset_t()
    sigemptyset(&unblock)
    for signal in signals {
        var action = sigaction()
        #if canImport(Darwin)
        action.__sigaction_u.__sa_handler = handler
        #else
        action.__sigaction_handler.sa_handler = handler
        #endif
        sigemptyset(&action.sa_mask)
        action.sa_flags = SA_RESTART
        guard sigaction(signal, &action, nil) == 0 else {
            throw ServerSignalsError(description: "cannot handle signal \(signal): errno \(errno)")
        }
        sigaddset(&unblock, signal)
    }
    pthread_sigmask(SIG_UNBLOCK, &unblock, nil)
    return fds[0]
}

/// The next signal number from `signalPipe`'s read end (blocking), or nil if it closed.
func nextSignal(_ readEnd: Int32) -> Int32? {
    var byte: UInt8 = 0
    while true {
        let n = read(readEnd, &byte, 1)
        if n == 1 { return Int32(byte) }
        if n < 0, errno == EINTR { continue }
        return nil
    }
}

/// Sends `message` as one datagram to the Unix socket at `path` (a leading `@` names
/// an abstract socket, as systemd's NOTIFY_SOCKET does). Whether it was sent.
func sendDatagram(_ message: [UInt8], toUnixPath path: String) -> Bool {
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    var pathBytes = Array(path.utf8)
    let abstract = pathBytes.first == UInt8(ascii: "@")
    if abstract { pathBytes[0] = 0 }
    let capacity = MemoryLayout.size(ofValue: address.sun_path)
    guard !pathBytes.isEmpty, pathBytes.count < capacity else { return false }
    withUnsafeMutableBytes(of: &address.sun_path) { raw in
        for (k, byte) in pathBytes.enumerated() { raw[k] = byte }
    }
    let length = socklen_t(MemoryLayout<sa_family_t>.size + pathBytes.count + (abstract ? 0 : 1))
    #if canImport(Darwin)
    let fd = socket(AF_UNIX, SOCK_DGRAM, 0)
    #else
    let fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    #endif
    guard fd >= 0 else { return false }
    defer { close(fd) }
    let sent = message.withUnsafeBytes { bytes in
        withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { sendto(fd, bytes.baseAddress, bytes.count, 0, $0, length) }
        }
    }
    return sent == message.count
}

/// The calling process's id.
func currentProcessID() -> Int32 { getpid() }

/// The value of the environment variable `name`, or nil.
func environmentValue(_ name: String) -> String? {
    getenv(name).map { String(cString: $0) }
}

/// Blocks `signals` in the calling thread (and the threads it starts later): one that
/// arrives is held pending, even if it is ignored, until `signalPipe` unblocks it.
func blockSignals(_ signals: [Int32]) {
    var set = sigset_t()
    sigemptyset(&set)
    for signal in signals { sigaddset(&set, signal) }
    pthread_sigmask(SIG_BLOCK, &set, nil)
}

/// Whether a server answers on the Unix socket at `path` (connect(2) succeeds).
func unixSocketAnswers(_ path: String) -> Bool {
    var address = sockaddr_un()
    address.sun_family = sa_family_t(AF_UNIX)
    let bytes = Array(path.utf8)
    guard bytes.count < MemoryLayout.size(ofValue: address.sun_path) else { return false }
    withUnsafeMutableBytes(of: &address.sun_path) { raw in
        for (k, byte) in bytes.enumerated() { raw[k] = byte }
    }
    #if canImport(Darwin)
    let fd = socket(AF_UNIX, SOCK_STREAM, 0)
    #else
    let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
    #endif
    guard fd >= 0 else { return false }
    defer { close(fd) }
    let result = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
    }
    return result == 0
}

/// Sets the process's umask; the old one.
func setUmask(_ mask: UInt32) -> UInt32 { UInt32(umask(mode_t(mask))) }

/// chmod(2); whether it succeeded.
func changeMode(_ path: String, _ mode: UInt32) -> Bool { chmod(path, mode_t(mode)) == 0 }

/// chown(2) (nil keeps that id); whether it succeeded.
func changeOwner(_ path: String, uid: UInt32?, gid: UInt32?) -> Bool {
    chown(path, uid.map { uid_t($0) } ?? uid_t.max, gid.map { gid_t($0) } ?? gid_t.max) == 0
}

/// The last error's text (strerror(errno)).
func errnoText() -> String { String(cString: strerror(errno)) }

/// A user's uid and primary gid by name (or number), or nil.
func userIDs(_ name: String) -> (uid: UInt32, gid: UInt32)? {
    if let entry = getpwnam(name) { return (UInt32(entry.pointee.pw_uid), UInt32(entry.pointee.pw_gid)) }
    if let number = UInt32(name), let entry = getpwuid(uid_t(number)) {
        return (UInt32(entry.pointee.pw_uid), UInt32(entry.pointee.pw_gid))
    }
    return nil
}

/// A group's gid by name (or number), or nil.
func groupID(_ name: String) -> UInt32? {
    if let entry = getgrnam(name) { return UInt32(entry.pointee.gr_gid) }
    if let number = UInt32(name), getgrgid(gid_t(number)) != nil { return number }
    return nil
}

/// Becomes `uid`/`gid` with no supplementary groups, for good (setgroups, setgid,
/// setuid: glibc applies them to every thread). Whether it succeeded — and root cannot
/// be regained.
func becomeUser(uid: UInt32, gid: UInt32) -> Bool {
    var groups = [gid_t(gid)]
    guard setgroups(1, &groups) == 0, setgid(gid_t(gid)) == 0, setuid(uid_t(uid)) == 0 else { return false }
    return uid == 0 || setuid(0) != 0
}

/// The effective uid.
func effectiveUserID() -> UInt32 { UInt32(geteuid()) }

/// Writes `text` to `path` (created or truncated, mode 0644); whether it succeeded.
func writeSmallFile(_ path: String, _ text: String) -> Bool {
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    guard fd >= 0 else { return false }
    defer { close(fd) }
    let bytes = Array(text.utf8)
    return bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) } == bytes.count
}

/// unlink(2); whether it succeeded.
func removeFile(_ path: String) -> Bool { unlink(path) == 0 }

/// Removes the environment variable `name`.
func unsetEnvironmentValue(_ name: String) { unsetenv(name) }

/// Sets FD_CLOEXEC on `fd`.
func setCloseOnExec(_ fd: Int32) { _ = fcntl(fd, F_SETFD, fcntl(fd, F_GETFD) | FD_CLOEXEC) }

/// Writes all of `bytes` to `fd` (blocking, retried on EINTR); gives up on an error.
func writeWhole(_ fd: Int32, _ bytes: [UInt8]) {
    bytes.withUnsafeBytes { raw in
        var done = 0
        while done < raw.count {
            let n = write(fd, raw.baseAddress! + done, raw.count - done)
            if n < 0 { if errno == EINTR { continue }; return }
            done += n
        }
    }
}

/// errno's value for an address in use (bind(2)), and for a port that needs root.
let addressInUseErrno = EADDRINUSE
let permissionDeniedErrno = EACCES
let addressNotAvailableErrno = EADDRNOTAVAIL

/// The text of the error `code` (strerror(3)).
func errnoText(_ code: Int32) -> String { String(cString: strerror(code)) }

/// The uid of the process at the other end of a Unix-socket `channel` (SO_PEERCRED:
/// what the kernel says, not what the client claims); nil when unknown (TCP, or a
/// system without SO_PEERCRED). Completes at once when called on the channel's loop.
func peerUserID(of channel: any Channel) -> EventLoopFuture<UInt32?> {
    #if os(Linux)
    guard let provider = channel as? any SocketOptionProvider else { return channel.eventLoop.makeSucceededFuture(nil) }
    let credentials: EventLoopFuture<PeerCredentials> = provider.unsafeGetSocketOption(level: SocketOptionLevel(SOL_SOCKET),
                                                                              name: SocketOptionName(SO_PEERCRED))
    return credentials.map { Optional($0.uid) }.recover { _ -> UInt32? in nil }
    #else
    return channel.eventLoop.makeSucceededFuture(nil)
    #endif
}

/// Linux's `struct ucred` (which Glibc's module hides behind _GNU_SOURCE): what
/// SO_PEERCRED fills in.
struct PeerCredentials: Sendable {
    var pid: Int32
    var uid: UInt32
    var gid: UInt32
}

/// The account name of `uid` (getpwuid_r: safe on any thread), or nil.
func userName(of uid: UInt32) -> String? {
    var entry = passwd()
    var result: UnsafeMutablePointer<passwd>? = nil
    var buffer = [CChar](repeating: 0, count: 4096)
    guard getpwuid_r(uid_t(uid), &entry, &buffer, buffer.count, &result) == 0, result != nil, let name = entry.pw_name else { return nil }
    return String(cString: name)
}

/// Starts `/bin/sh -c script name args…` in a process group of its own with no signal
/// blocked, its standard input the read end of a new pipe; returns the write end
/// (close-on-exec, so no other child holds it), or nil. The shell sees end of file on
/// its input when every holder of the write end is gone: when this process ends,
/// however it ends.
func spawnShellWatchingExit(_ script: String, name: String, _ args: [String]) -> Int32? {
    var fds: [Int32] = [-1, -1]
    guard pipe(&fds) == 0 else { return nil }
    _ = fcntl(fds[1], F_SETFD, FD_CLOEXEC)
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, fds[0], 0)
    posix_spawn_file_actions_addclose(&actions, fds[0])
    posix_spawn_file_actions_addclose(&actions, fds[1])
    var attributes = posix_spawnattr_t()
    posix_spawnattr_init(&attributes)
    defer { posix_spawnattr_destroy(&attributes) }
    var none = sigset_t()
    sigemptyset(&none)
    posix_spawnattr_setsigmask(&attributes, &none)
    posix_spawnattr_setpgroup(&attributes, 0)
    posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETPGROUP))
    let argv = (["/bin/sh", "-c", script, name] + args).map { strdup($0) }
    defer { argv.forEach { free($0) } }
    var child: pid_t = 0
    let spawned = posix_spawn(&child, "/bin/sh", &actions, &attributes, argv + [nil], environ)
    close(fds[0])
    guard spawned == 0 else { close(fds[1]); return nil }
    return fds[1]
}

/// Whether `path` exists.
func fileExists(_ path: String) -> Bool {
    var status = stat()
    return stat(path, &status) == 0
}

/// The local time as spamd's log writes it (`Dec  2 15:55:05.997`): strftime's
/// `%b %e %H:%M:%S` and the milliseconds.
func logTimestamp() -> String {
    var now = timespec()
    clock_gettime(CLOCK_REALTIME, &now)
    var seconds = now.tv_sec
    var parts = tm()
    localtime_r(&seconds, &parts)
    var text = [CChar](repeating: 0, count: 32)
    let length = strftime(&text, text.count, "%b %e %H:%M:%S", &parts)
    let millis = Int(now.tv_nsec) / 1_000_000
    let zeros = millis < 10 ? "00" : millis < 100 ? "0" : ""
    return String(decoding: text.prefix(length).map { UInt8(bitPattern: $0) }, as: UTF8.self) + ".\(zeros)\(millis)"
}

/// The process's real uid (spamd's `uid=`, perl's `$<`).
func realUserID() -> UInt32 { UInt32(getuid()) }
