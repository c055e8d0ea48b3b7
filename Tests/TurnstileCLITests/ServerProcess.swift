import Foundation
import TestSupport

/// A `turnstile serve` started for a test on an ephemeral loopback port (or a Unix
/// socket), stopped by ``stop(signal:)``; never left running.
final class ServerProcess: @unchecked Sendable {
    /// The child this test started: the server, or with `fromShell` the shell.
    let child: RunningChild
    var process: Process { child.process }
    /// The port it listens on (0 for a Unix socket).
    private(set) var port = 0
    private let errors = ByteBox()
    private let reader = DispatchGroup()

    /// The server's process id: `process`'s, or with `fromShell` the one the shell started.
    private(set) var pid: Int32 = 0

    /// Starts `turnstile serve --listen 127.0.0.1:0 args…` (or `listen`) and waits for it to listen.
    ///
    /// With `fromShell`, `/bin/sh -c 'turnstile serve … & wait $!'`, with no signal
    /// blocked, starts it as a
    /// background job, as an administrator's shell or an init script does (a
    /// non-interactive shell starts it with SIGINT and SIGQUIT ignored), rather than as
    /// the test's own child (issue 38: TERM was ignored by a server started from a
    /// shell while the test that started it directly passed). ``stop(signal:timeout:)``
    /// then signals the server, and the shell's exit status is the server's.
    ///
    /// With `unprivileged`, the server runs as `nobody` (setpriv(1) drops
    /// root's uid, gid, groups and capabilities first; a test not run as root already
    /// is unprivileged), as a `User=` unit or spamd's `-u` runs it (issue 46: as any
    /// user but root every connection was closed at once).
    init(_ args: [String], listen: String = "127.0.0.1:0", fromShell: Bool = false, unprivileged: Bool = false) throws {
        _ = CLI.ignoreSIGPIPE
        let drop = unprivileged ? Unprivileged.prefix : []
        let command: [String]
        if fromShell {
            // The test's threads block most signals and a child inherits the mask
            // (which is why a server started directly by a test saw TERM when one started
            // from a shell did not); python3 clears it first, as a login shell or systemd
            // starts with none blocked. A blocked SIGCHLD would also hang the shell's wait.
            command = ["/usr/bin/env", "python3", "-c",
                       "import os, signal, sys; signal.pthread_sigmask(signal.SIG_SETMASK, []); os.execv('/bin/sh', sys.argv[1:])",
                       "sh", "-c", #""$@" & echo $!; wait $!"#, "sh"] + drop + [CLI.binary.path, "serve", "--listen", listen] + args
        } else {
            command = drop + [CLI.binary.path, "serve", "--listen", listen] + args
        }
        child = try ChildProcess.start(command[0], Array(command.dropFirst()), stdout: fromShell ? .stream : .discard,
                                       stderr: .stream, environment: CLI.childEnvironment, directory: SharedCorpora.repositoryRoot)
        pid = child.pid
        if fromShell {
            var line = Data()
            while !line.contains(UInt8(ascii: "\n")) {
                let chunk = child.output!.availableData
                if chunk.isEmpty { break }
                line.append(chunk)
            }
            guard let shellChild = Int32(String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)) else {
                child.stop(signal: SIGKILL)
                throw ServerError(message: "the shell did not print the server's pid: \(String(decoding: line, as: UTF8.self))")
            }
            pid = shellChild
        }
        let handle = child.errors!
        let box = errors
        let listening = DispatchSemaphore(value: 0)
        DispatchQueue.global().async(group: reader) {
            var seen = Data()
            var signalled = false
            while true {
                let chunk = handle.availableData
                if chunk.isEmpty { break }
                seen.append(chunk)
                box.set(seen)
                if !signalled, String(decoding: seen, as: UTF8.self).contains("listening on") {
                    signalled = true
                    listening.signal()
                }
            }
            if !signalled { listening.signal() }
        }
        if listening.wait(timeout: .now() + 60) == .timedOut || !stderr.contains("listening on") {
            kill(pid, SIGKILL)
            child.wait()
            throw ServerError(message: "turnstile serve did not start: \(stderr)")
        }
        if let range = stderr.range(of: #"listening on 127\.0\.0\.1:(\d+)"#, options: .regularExpression) {
            port = Int(stderr[range].split(separator: ":").last!)!
        }
    }

    struct ServerError: Error, CustomStringConvertible { var message: String; var description: String { message } }

    /// What the server wrote to standard error so far.
    var stderr: String { String(decoding: errors.bytes, as: UTF8.self) }

    /// Whether the server writes `text` to standard error within `timeout`. The server
    /// logs after it has closed a connection, and its standard error reaches the test
    /// through a pipe read on another thread, so a client can see the close before the
    /// line arrives: checking `stderr` once raced (ServeTests' --allow-from failed once).
    func stderrContains(_ text: String, within timeout: TimeInterval = 30) -> Bool {
        let deadline = Date().addingTimeInterval(timeout)
        while !stderr.contains(text) {
            if Date() > deadline { return false }
            usleep(10_000)
        }
        return true
    }

    /// Sends `signal` and waits (up to `timeout`) for the server to exit; its exit status.
    @discardableResult
    func stop(signal: Int32 = SIGTERM, timeout: TimeInterval = 30) -> Int32? {
        guard process.isRunning else { return process.terminationStatus }
        kill(pid, signal)
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning, Date() < deadline { usleep(20_000) }
        if process.isRunning {
            kill(pid, SIGKILL)
            child.wait()
            return nil
        }
        reader.wait()
        return child.wait().status
    }

    deinit { if process.isRunning { kill(pid, SIGKILL) } }
}

/// The user a server runs as in the tests that say `unprivileged`: `nobody` (uid and
/// gid 65534) when the tests run as root, else the tests' own user.
enum Unprivileged {
    static let uid: UInt32 = 65534
    static let gid: UInt32 = 65534

    /// What runs a command as that user: setpriv when root, nothing otherwise.
    static var prefix: [String] {
        getuid() == 0 ? ["/usr/bin/setpriv", "--reuid=\(uid)", "--regid=\(gid)", "--clear-groups", "--inh-caps=-all"] : []
    }

    /// Why an unprivileged run is impossible here, or nil.
    static var unavailable: String? {
        if getuid() != 0 { return nil }
        if !FileManager.default.isExecutableFile(atPath: "/usr/bin/setpriv") { return "running as root without setpriv(1)" }
        return nil
    }

    /// A fresh directory the unprivileged server can write (its socket, database, pidfile).
    static func directory() throws -> URL {
        let dir = try CLI.temporaryDirectory()
        if getuid() == 0 { chown(dir.path, uid, gid) }
        return dir
    }
}

/// Runs a program (spamc, python3) with `stdin`, from the repository root.
func runTool(_ path: String, _ args: [String], stdin: [UInt8] = []) throws -> CLIResult {
    let r = try ChildProcess.run(path, args, stdin: stdin, directory: SharedCorpora.repositoryRoot)
    return CLIResult(status: r.status, stdout: r.stdout, stderr: r.stderr)
}

/// A raw TCP client for the protocol's edges the tests drive by hand.
struct RawClient {
    let fd: Int32

    init(port: Int, from source: String? = nil) throws {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        if let source {
            var local = sockaddr_in()
            local.sin_family = sa_family_t(AF_INET)
            inet_pton(AF_INET, source, &local.sin_addr)
            _ = withUnsafePointer(to: &local) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) } }
        }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        inet_pton(AF_INET, "127.0.0.1", &address.sin_addr)
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        if result != 0 { close(fd); throw ServerProcess.ServerError(message: "connect failed: errno \(errno)") }
    }

    func send(_ text: String) { send(Array(text.utf8)) }
    func send(_ bytes: [UInt8]) { _ = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) } }
    func finishSending() { shutdown(fd, Int32(SHUT_WR)) }

    /// Everything until the server closes.
    func readAll() -> String {
        var out: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = recv(fd, &buffer, buffer.count, 0)
            if n <= 0 { break }
            out += buffer[0..<n]
        }
        close(fd)
        return String(decoding: out, as: UTF8.self)
    }
}
