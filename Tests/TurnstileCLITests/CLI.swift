import Foundation
import TestSupport

/// What one run of the binary produced.
struct CLIResult {
    var status: Int32
    var stdout: [UInt8]
    var stderr: [UInt8]
    var out: String { String(decoding: stdout, as: UTF8.self) }
    var err: String { String(decoding: stderr, as: UTF8.self) }
}

/// Runs the `turnstile` binary built next to the test bundle.
enum CLI {
    /// The tests write to pipes whose reader may be gone (a usage error, the broken-pipe
    /// test): that must be an EPIPE error in the writer, not SIGPIPE for the test process.
    static let ignoreSIGPIPE: Void = { _ = signal(SIGPIPE, SIG_IGN) }()

    /// ripgrep, which `make deps` installs: the tests that compare `match` with it are
    /// reported as skipped (not passed) where it is absent.
    static let ripgrep: String? = ["/usr/bin/rg", "/usr/local/bin/rg"].first(where: FileManager.default.isExecutableFile)

    /// `TURNSTILE_BINARY` when set, else `turnstile` in the build products directory
    /// (beside the test bundle), else `.build/debug/turnstile`.
    static let binary: URL = {
        if let path = Environment.value("TURNSTILE_BINARY") { return URL(fileURLWithPath: path) }
        var candidates: [URL] = []
        if let exe = Bundle.main.executableURL {
            candidates.append(exe.deletingLastPathComponent().appendingPathComponent("turnstile"))
            // Inside an .xctest bundle directory (macOS): go up to the products directory.
            candidates.append(exe.deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("turnstile"))
        }
        candidates.append(URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("turnstile"))
        candidates.append(SharedCorpora.repositoryRoot.appendingPathComponent(".build/debug/turnstile"))
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? candidates.last!
    }()

    /// The environment of every child `turnstile`: this process's, without NO_COLOR.
    /// Under `make test-asan` the child is instrumented too; its leak check at exit
    /// would print a report and turn exit status 2 into 1, so it is off there (the
    /// suite's own process is still leak-checked; the child's status and output are
    /// what tests compare).
    static var childEnvironment: [String: String] {
        var env = ProcessInfo.processInfo.environment
        env["NO_COLOR"] = nil
        if env["TURNSTILE_SANITIZER"] == "address" { env["LSAN_OPTIONS"] = "detect_leaks=0" }
        return env
    }

    /// Runs `turnstile args…` with `stdin` as standard input, from the repository root.
    static func run(_ args: [String], stdin: [UInt8] = [], environment: [String: String] = [:]) throws -> CLIResult {
        _ = ignoreSIGPIPE
        var env = childEnvironment
        for (k, v) in environment { env[k] = v }
        let r = try ChildProcess.run(binary, args, stdin: stdin, environment: env, directory: SharedCorpora.repositoryRoot)
        return CLIResult(status: r.status, stdout: r.stdout, stderr: r.stderr)
    }

    /// Runs `turnstile args…` with standard input fed by `feed` (on its own thread,
    /// which should write and return) while `consume` reads standard output as it
    /// arrives (on the calling thread, returning when it has seen enough or the end).
    /// Standard output is closed after `consume` returns.
    static func stream(
        _ args: [String], feed: @escaping @Sendable (FileHandle) -> Void, consume: (FileHandle) -> Void
    ) throws -> (status: Int32, reason: Process.TerminationReason, stderr: String) {
        _ = ignoreSIGPIPE
        let child = try ChildProcess.start(binary, args, stdin: .pipe, stdout: .stream, environment: childEnvironment,
                                           directory: SharedCorpora.repositoryRoot)
        let writer = child.input!
        let fed = DispatchGroup()
        DispatchQueue.global().async(group: fed) {
            feed(writer)
            try? writer.close()   // already closed by a feed that ends the input itself
        }
        consume(child.output!)
        let r = child.wait(closingOutput: true)
        fed.wait()
        return (r.status, r.reason, r.err)
    }

    /// A fresh temporary directory.
    static func temporaryDirectory() throws -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("turnstile-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// Writes `bytes` to `name` in `dir` and returns the path.
    @discardableResult
    static func write(_ bytes: [UInt8], to name: String, in dir: URL) throws -> String {
        let url = dir.appendingPathComponent(name)
        try Data(bytes).write(to: url)
        return url.path
    }
}

extension String {
    var bytes: [UInt8] { Array(utf8) }
}
