// Whole-process measurement: posix_spawn a tool with its output on a pipe (never
// /dev/null: GNU grep stops at the first match when its output is /dev/null), wait4
// for it to get its peak RSS (ru_maxrss), and kill it after a timeout.

import Foundation
#if canImport(Glibc)
import Glibc
#endif

/// Seconds on the monotonic clock.
@inline(__always) func now() -> Double {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return Double(ts.tv_sec) + Double(ts.tv_nsec) * 1e-9
}

struct ChildResult {
    var seconds: Double
    var exitCode: Int32
    var signal: Int32
    var stdout: String
    var stderr: String
    /// wait4's ru_maxrss: NOT the child's own peak (see `gnuTime`); not reported.
    var maxRSSBytes: Int
    var timedOut: Bool
}

/// The first executable named `name` on PATH, or nil.
func findExecutable(_ name: String) -> String? {
    if name.contains("/") { return FileManager.default.isExecutableFile(atPath: name) ? name : nil }
    for dir in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin").split(separator: ":") {
        let path = "\(dir)/\(name)"
        if FileManager.default.isExecutableFile(atPath: path) { return path }
    }
    return nil
}

private final class KillSwitch: @unchecked Sendable {
    let lock = NSLock()
    var done = false
    var fired = false
}

/// Runs `executable` with `arguments`, stdout into a pipe read to the end, stderr into
/// `stderrPath`; the environment is ours plus `environment`.
func runChild(_ executable: String, _ arguments: [String], environment: [String: String] = [:],
              stderrPath: String, timeout: Double) -> ChildResult {
    var env = ProcessInfo.processInfo.environment
    for (k, v) in environment { env[k] = v }
    let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
    let envp: [UnsafeMutablePointer<CChar>?] = env.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer {
        for p in argv { free(p) }
        for p in envp { free(p) }
    }
    var fds: [Int32] = [0, 0]
    guard pipe(&fds) == 0 else { fatalError("pipe failed: \(errno)") }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addclose(&actions, fds[0])
    posix_spawn_file_actions_adddup2(&actions, fds[1], 1)
    posix_spawn_file_actions_addclose(&actions, fds[1])
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, stderrPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)

    var pid: pid_t = 0
    let start = now()
    let rc = posix_spawn(&pid, executable, &actions, nil, argv, envp)
    close(fds[1])
    guard rc == 0 else {
        close(fds[0])
        return ChildResult(seconds: 0, exitCode: 127, signal: 0, stdout: "",
                           stderr: "posix_spawn \(executable) failed: \(String(cString: strerror(rc)))",
                           maxRSSBytes: 0, timedOut: false)
    }
    let guardian = KillSwitch()
    let victim = pid
    DispatchQueue.global().asyncAfter(deadline: .now() + timeout) {
        guardian.lock.lock()
        if !guardian.done { guardian.fired = true; kill(victim, SIGKILL) }
        guardian.lock.unlock()
    }
    var output: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
        let n = buffer.withUnsafeMutableBytes { read(fds[0], $0.baseAddress, 65536) }
        if n > 0 {
            if output.count < 1 << 20 { output.append(contentsOf: buffer[..<n]) }
        } else if n == 0 || errno != EINTR {
            break
        }
    }
    close(fds[0])
    var status: Int32 = 0
    var usage = rusage()
    while wait4(pid, &status, 0, &usage) < 0 && errno == EINTR {}
    let elapsed = now() - start
    guardian.lock.lock()
    guardian.done = true
    let timedOut = guardian.fired
    guardian.lock.unlock()
    let signal = status & 0x7F
    let exitCode = signal == 0 ? (status >> 8) & 0xFF : -1
    let err = readFile(stderrPath).map { String(decoding: $0.prefix(4096), as: UTF8.self) } ?? ""
    return ChildResult(seconds: elapsed, exitCode: exitCode, signal: signal,
                       stdout: String(decoding: output, as: UTF8.self), stderr: err,
                       maxRSSBytes: Int(usage.ru_maxrss) * 1024, timedOut: timedOut)
}

/// GNU time, used to read a child's peak RSS: posix_spawn starts the child on the
/// parent's address space (vfork), and Linux keeps the larger high-water mark across
/// execve, so wait4's ru_maxrss would report *our* RSS (hundreds of MiB of haystacks)
/// for every child. GNU time forks its child from its own small process instead.
let gnuTime: String? = FileManager.default.isExecutableFile(atPath: "/usr/bin/time") ? "/usr/bin/time" : nil

/// Runs the command once under GNU time and returns (result, peak RSS in bytes).
func runChildMeasuringRSS(_ executable: String, _ arguments: [String], environment: [String: String] = [:],
                          stderrPath: String, rssPath: String, timeout: Double) -> (ChildResult, Int?) {
    guard let gnuTime else {
        return (runChild(executable, arguments, environment: environment, stderrPath: stderrPath, timeout: timeout), nil)
    }
    try? FileManager.default.removeItem(atPath: rssPath)
    let r = runChild(gnuTime, ["-f", "%M", "-o", rssPath, executable] + arguments, environment: environment,
                     stderrPath: stderrPath, timeout: timeout)
    let text = readFile(rssPath).map { String(decoding: $0, as: UTF8.self) } ?? ""
    // GNU time writes "Command exited with non-zero status N" before the figure.
    let kb = text.split(separator: "\n").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }.last
    return (r, kb.map { $0 * 1024 })
}
