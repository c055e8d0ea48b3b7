import Foundation

/// What one run of a program produced.
public struct ChildResult: Sendable {
    public var status: Int32
    public var reason: Process.TerminationReason
    public var stdout: [UInt8]
    public var stderr: [UInt8]
    public var out: String { String(decoding: stdout, as: UTF8.self) }
    public var err: String { String(decoding: stderr, as: UTF8.self) }
}

/// Where a child's standard input comes from.
public enum ChildInput: Sendable {
    /// /dev/null.
    case none
    /// These bytes, written on a thread of their own, then end of file.
    case bytes([UInt8])
    /// A pipe the test writes to through ``RunningChild/input`` (and closes).
    case pipe
}

/// Where a child's standard output or standard error goes.
public enum ChildOutput: Sendable {
    /// /dev/null.
    case discard
    /// Collected on a thread of its own, whole in ``RunningChild/wait()``'s result.
    case collect
    /// A pipe the test reads as the child writes, through ``RunningChild/output``.
    case stream
    /// This file, opened for writing (a log the test reads while the child runs).
    case file(String)
    /// Standard error only: the same pipe as standard output (`2>&1`).
    case toOutput
}

/// A program a test started and has not yet waited for: its pid, its pipes, and
/// ``wait()`` for its status and collected outputs.
public final class RunningChild: @unchecked Sendable {
    public let process: Process
    /// Standard input, with ``ChildInput/pipe``: write, then close for end of file.
    public let input: FileHandle?
    /// Standard output, with ``ChildOutput/stream``.
    public let output: FileHandle?
    /// Standard error, with ``ChildOutput/stream``.
    public let errors: FileHandle?
    private let outBox = ByteBox(), errBox = ByteBox()
    private let group = DispatchGroup()

    public var pid: Int32 { process.processIdentifier }
    public var isRunning: Bool { process.isRunning }

    init(_ executable: URL, _ arguments: [String], stdin: ChildInput, stdout: ChildOutput, stderr: ChildOutput,
         environment: [String: String]?, directory: URL?) throws {
        _ = ChildProcess.ignoreSIGPIPE
        process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        if let environment { process.environment = environment }
        var writeIn: FileHandle?
        switch stdin {
        case .none:
            process.standardInput = FileHandle.nullDevice
        case .bytes, .pipe:
            let pipe = Pipe()
            process.standardInput = pipe
            writeIn = pipe.fileHandleForWriting
        }
        var collectOut: FileHandle?, collectErr: FileHandle?, streamOut: FileHandle?
        var outPipe: Pipe?
        func target(_ kind: ChildOutput, collect: inout FileHandle?, stream: inout FileHandle?) throws -> Any {
            switch kind {
            case .discard: return FileHandle.nullDevice
            case .collect, .stream:
                let pipe = Pipe()
                if case .collect = kind { collect = pipe.fileHandleForReading } else { stream = pipe.fileHandleForReading }
                outPipe = outPipe ?? pipe
                return pipe
            case .file(let path):
                if !FileManager.default.fileExists(atPath: path) { _ = FileManager.default.createFile(atPath: path, contents: nil) }
                return try FileHandle(forWritingTo: URL(fileURLWithPath: path))
            case .toOutput:
                return outPipe ?? FileHandle.nullDevice
            }
        }
        process.standardOutput = try target(stdout, collect: &collectOut, stream: &streamOut)
        var streamErr: FileHandle?
        process.standardError = try target(stderr, collect: &collectErr, stream: &streamErr)
        try process.run()
        if case .bytes(let bytes) = stdin, let writer = writeIn {
            let data = Data(bytes)
            DispatchQueue.global().async(group: group) {
                try? writer.write(contentsOf: data)   // EPIPE when the child stops reading early: not the test's error
                try? writer.close()
            }
            input = nil
        } else {
            input = writeIn
        }
        output = streamOut
        errors = streamErr
        if let collectOut { DispatchQueue.global().async(group: group) { [outBox] in outBox.set(collectOut.readDataToEndOfFile()) } }
        if let collectErr { DispatchQueue.global().async(group: group) { [errBox] in errBox.set(collectErr.readDataToEndOfFile()) } }
    }

    /// Sends `signal` to the child.
    public func signal(_ signal: Int32) { kill(pid, signal) }

    /// Waits for the child to exit and for its collected outputs; closes a streamed
    /// standard output first only if `closingOutput` (the test has read what it needs).
    @discardableResult
    public func wait(closingOutput: Bool = false) -> ChildResult {
        if closingOutput { try? output?.close() }
        group.wait()
        process.waitUntilExit()
        return ChildResult(status: process.terminationStatus, reason: process.terminationReason,
                           stdout: outBox.bytes, stderr: errBox.bytes)
    }

    /// Sends `signal`, waits up to `timeout` seconds for the exit, then SIGKILL; the result.
    @discardableResult
    public func stop(signal: Int32 = SIGTERM, timeout: Double = 30) -> ChildResult {
        if isRunning { self.signal(signal) }
        let deadline = Date().addingTimeInterval(timeout)
        while isRunning, Date() < deadline { usleep(10_000) }
        if isRunning { self.signal(SIGKILL) }
        return wait()
    }
}

/// Runs a program to its end with given standard input and collects both outputs, or
/// starts one a test drives while it runs (``start(_:_:stdin:stdout:stderr:environment:directory:)``):
/// the one place every test that runs turnstile, grep, rg, a shell, a server or a script
/// goes through. Standard input is written and both outputs are drained on their own
/// threads, so a child that writes more than a pipe holds (64 KiB) before reading all
/// its input, or fills standard error while the test reads standard output, cannot
/// deadlock the test.
public enum ChildProcess {
    /// Writes to a pipe whose reader is gone (a child that exits early) must be an
    /// EPIPE error here, not SIGPIPE for the test process.
    static let ignoreSIGPIPE: Void = { _ = signal(SIGPIPE, SIG_IGN) }()

    /// Polls `condition` every 20 ms for up to `timeout` seconds; whether it became true.
    public static func waitUntil(timeout: Double = 60, _ condition: () -> Bool) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        while Date() < deadline {
            if condition() { return true }
            usleep(20_000)
        }
        return condition()
    }

    /// Starts `executable arguments` in `directory` (nil: this process's) with
    /// `environment` (nil: this process's); the test waits for it with ``RunningChild/wait()``.
    public static func start(
        _ executable: URL, _ arguments: [String], stdin: ChildInput = .none, stdout: ChildOutput = .collect,
        stderr: ChildOutput = .collect, environment: [String: String]? = nil, directory: URL? = nil
    ) throws -> RunningChild {
        try RunningChild(executable, arguments, stdin: stdin, stdout: stdout, stderr: stderr,
                         environment: environment, directory: directory)
    }

    /// `start` for a program named by path.
    public static func start(
        _ path: String, _ arguments: [String], stdin: ChildInput = .none, stdout: ChildOutput = .collect,
        stderr: ChildOutput = .collect, environment: [String: String]? = nil, directory: URL? = nil
    ) throws -> RunningChild {
        try start(URL(fileURLWithPath: path), arguments, stdin: stdin, stdout: stdout, stderr: stderr,
                  environment: environment, directory: directory)
    }

    /// Runs `executable arguments` to its end in `directory` (nil: this process's) with
    /// `environment` (nil: this process's) and `stdin` as standard input (nil: none,
    /// /dev/null); `mergingErrors` sends standard error into standard output (`2>&1`).
    public static func run(
        _ executable: URL, _ arguments: [String], stdin: [UInt8]? = [], environment: [String: String]? = nil,
        directory: URL? = nil, mergingErrors: Bool = false
    ) throws -> ChildResult {
        try start(executable, arguments, stdin: stdin.map { .bytes($0) } ?? .none, stdout: .collect,
                  stderr: mergingErrors ? .toOutput : .collect, environment: environment, directory: directory).wait()
    }

    /// `run` for a program named by path.
    public static func run(
        _ path: String, _ arguments: [String], stdin: [UInt8]? = [], environment: [String: String]? = nil,
        directory: URL? = nil, mergingErrors: Bool = false
    ) throws -> ChildResult {
        try run(URL(fileURLWithPath: path), arguments, stdin: stdin, environment: environment, directory: directory,
                mergingErrors: mergingErrors)
    }
}

/// Collects bytes written from another thread.
public final class ByteBox: @unchecked Sendable {
    private let lock = NSLock()
    private var storage = Data()
    public init() {}
    public func set(_ data: Data) { lock.lock(); storage = data; lock.unlock() }
    public var bytes: [UInt8] { lock.lock(); defer { lock.unlock() }; return [UInt8](storage) }
}
