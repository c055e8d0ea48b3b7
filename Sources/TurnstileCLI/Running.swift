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

/// What happened over all inputs.
struct RunStatus {
    /// Some input could not be opened or read.
    var hadError = false
    /// The output went away (broken pipe): the run stopped early, quietly.
    var brokenPipe = false

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

/// What is said of an input file that shrank while it was searched through a map
/// (``RecordReadError/shrank``).
func shrankMessage(_ name: String) -> String {
    "\(name): the file shrank while it was searched; lines after the cut may hold NUL bytes"
}

/// Notes a failed write: a broken pipe quietly, any other error with a message.
func recordOutputFailure(_ error: OutputError, in status: inout RunStatus) {
    switch error {
    case .brokenPipe: status.brokenPipe = true
    case .failed(let code):
        printError("\(programName): write error: \(errnoDescription(code))")  // grep's words
        status.hadError = true
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
