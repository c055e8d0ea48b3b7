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

/// Runs a program to its end with given standard input and collects both outputs: the
/// one helper every test that runs turnstile, grep, rg, a shell or a script goes
/// through. Standard input is written and both outputs are drained on their own
/// threads, so a child that writes more than a pipe holds (64 KiB) before reading all
/// its input, or fills standard error while the test reads standard output, cannot
/// deadlock the test.
public enum ChildProcess {
    /// Writes to a pipe whose reader is gone (a child that exits early) must be an
    /// EPIPE error here, not SIGPIPE for the test process.
    static let ignoreSIGPIPE: Void = { _ = signal(SIGPIPE, SIG_IGN) }()

    /// Runs `executable arguments` in `directory` (nil: this process's) with
    /// `environment` (nil: this process's) and `stdin` as standard input (nil: none,
    /// /dev/null).
    public static func run(
        _ executable: URL, _ arguments: [String], stdin: [UInt8]? = [], environment: [String: String]? = nil,
        directory: URL? = nil
    ) throws -> ChildResult {
        _ = ignoreSIGPIPE
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        if let environment { process.environment = environment }
        let input = Pipe(), output = Pipe(), errors = Pipe()
        process.standardInput = stdin == nil ? FileHandle.nullDevice : input
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let group = DispatchGroup()
        let outBox = ByteBox(), errBox = ByteBox()
        if let stdin {
            let data = Data(stdin)
            let writer = input.fileHandleForWriting
            DispatchQueue.global().async(group: group) {
                try? writer.write(contentsOf: data)
                try? writer.close()
            }
        }
        let outReader = output.fileHandleForReading, errReader = errors.fileHandleForReading
        DispatchQueue.global().async(group: group) { outBox.set(outReader.readDataToEndOfFile()) }
        DispatchQueue.global().async(group: group) { errBox.set(errReader.readDataToEndOfFile()) }
        group.wait()
        process.waitUntilExit()
        return ChildResult(status: process.terminationStatus, reason: process.terminationReason,
                           stdout: outBox.bytes, stderr: errBox.bytes)
    }

    /// `run` for a program named by path.
    public static func run(
        _ path: String, _ arguments: [String], stdin: [UInt8]? = [], environment: [String: String]? = nil,
        directory: URL? = nil
    ) throws -> ChildResult {
        try run(URL(fileURLWithPath: path), arguments, stdin: stdin, environment: environment, directory: directory)
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
