import ArgumentParser
import AutomatonCore
import Turnstile

/// A failure that ends the command with exit status 2 after printing
/// `turnstile: <message>` to standard error.
struct CommandFailure: Error {
    var message: String
    /// The exit status: 2, or 75 (EX_TEMPFAIL) for a missing configuration file, so
    /// that procmail keeps the original message and maildrop defers it.
    var status: Int32 = 2
    /// `message`, with a library error's advice to raise a `Limits` field replaced by
    /// the flag that raises it here.
    init(_ message: String, status: Int32 = 2) {
        self.status = status
        self.message = message
            .replacingAll(AutomatonError.maxStatesAdvice, with: "raise the limit with --max-states")
            .replacingAll(AutomatonError.maxTableBytesAdvice, with: "raise the limit with --max-table-bytes")
    }
}

extension String {
    /// Every occurrence of `target` replaced (Foundation-free).
    func replacingAll(_ target: String, with replacement: String) -> String {
        guard !target.isEmpty else { return self }
        var result = "", rest = Substring(self)
        while let range = rest.firstRange(of: target) {
            result += rest[..<range.lowerBound] + replacement
            rest = rest[range.upperBound...]
        }
        return result + rest
    }
}

/// Why reading one input stopped: read(2) failed, or writing the output did.
typealias ScanError = RecordReadError<OutputError>

/// What happened over all inputs.
struct RunStatus {
    /// Some input could not be opened or read.
    var hadError = false
    /// The output went away (broken pipe): the run stopped early, quietly.
    var brokenPipe = false
    /// The sink had all it needed (`match -q`): the run stopped early, as asked.
    var stoppedEarly = false

    /// grep's exit status: 2 after an error, else 0 when something matched, else 1.
    func exitCode(matched: Bool) -> Int32 {
        if hadError { return 2 }
        return matched ? 0 : 1
    }
}

/// Whether messages about inputs that cannot be opened or read are left out
/// (`-s`, grep's `--no-messages`; the exit status still says 2). Set once by the
/// command before any input is read.
nonisolated(unsafe) var inputMessagesSuppressed = false

/// The name messages start with: `turnstile`, or `grep` when the command runs as grep
/// (a link named grep, egrep or fgrep), so scripts see the messages grep would print.
/// Set once by `main` before anything is printed.
nonisolated(unsafe) var programName = "turnstile"

/// Reports an input that could not be opened or read, unless `-s` asked for silence.
func reportInputError(_ message: String) {
    if !inputMessagesSuppressed { printError("\(programName): " + message) }
}

/// Runs `body` over each input in order. A missing or unreadable input is reported and
/// the others are still processed; a broken pipe stops everything quietly, as does a
/// sink that has all it needs (``OutputError/allDone``); any other write error is
/// reported. `finish` runs after the last input (for totals), then the output is
/// flushed. `unreadFolder` gets the name of a folder that could not be read, after its
/// error (grep `-L` lists it).
func runInputs(
    _ inputs: [String], output: OutputWriter,
    _ body: (_ fd: Int32, _ name: String) throws(ScanError) -> Void,
    unreadFolder: (_ name: String) throws(OutputError) -> Void = { _ in },
    finish: () throws(OutputError) -> Void
) -> RunStatus {
    var status = RunStatus()
    for path in inputs {
        let fd: Int32
        do {
            fd = try openInput(path)
        } catch {
            reportInputError(error.message)
            status.hadError = true
            if error.isFolder {
                do throws(OutputError) { try unreadFolder(inputName(path)) } catch {
                    recordOutputFailure(error, in: &status)
                    return status
                }
            }
            continue
        }
        defer { if fd != 0 { close(fd) } }
        do {
            try body(fd, inputName(path))
        } catch {
            switch error {
            case .read(let code):
                reportInputError("\(inputName(path)): \(errnoDescription(code))")
                status.hadError = true
            case .sink(.inputDone):
                continue
            case .sink(.allDone):
                status.stoppedEarly = true
            case .sink(let e):
                recordOutputFailure(e, in: &status)
                return status
            }
            if status.stoppedEarly { break }
        }
    }
    finishRun(&status, output: output, finish)
    return status
}

/// Notes a failed write: a broken pipe quietly, any other error with a message.
func recordOutputFailure(_ error: OutputError, in status: inout RunStatus) {
    switch error {
    case .brokenPipe: status.brokenPipe = true
    case .failed(let code):
        printError("\(programName): write error: \(errnoDescription(code))")  // grep's words
        status.hadError = true
    case .inputDone, .allDone: break
    }
}

/// Runs `finish` (totals) and flushes the output, unless the output already went away.
func finishRun(_ status: inout RunStatus, output: OutputWriter, _ finish: () throws(OutputError) -> Void) {
    guard !status.brokenPipe else { return }
    do {
        try finish()
        try output.flush()
    } catch {
        recordOutputFailure(error, in: &status)
    }
}

/// Megabytes per second with two decimals.
func formatRate(_ rate: Double) -> String {
    let hundredths = Int((rate * 100).rounded())
    let fraction = hundredths % 100
    return "\(hundredths / 100).\(fraction < 10 ? "0" : "")\(fraction)"
}
