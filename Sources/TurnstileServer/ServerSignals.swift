import Dispatch

// SIGTERM, SIGINT and SIGHUP for a daemon, however it was started.
//
// Why not a Dispatch signal source: on Linux libdispatch reads signals through a
// signalfd, which sees a signal only while it is blocked in every thread; it blocks it
// in one thread and the caller had to set SIG_IGN. Any other thread (SwiftNIO's event
// loops, the main thread) that does not block the signal may then take it and, with
// SIG_IGN, discard it. Whether TERM reached the source depended on the mask the
// process inherited and on which thread the kernel picked: a server started from a
// shell or by systemd ignored TERM (issue 38), one started by the test harness did
// not. Here a real handler (sigaction) catches the signal in whichever thread gets
// it and writes its number to a pipe (write(2) is async-signal-safe); one thread
// reads the pipe and runs the Swift handler. The signals are unblocked in the
// calling thread, so an inherited blocked mask does not hide them either.

/// Watches signals and runs a handler for each on one thread, in arrival order.
///
/// ```swift
/// let signals = try ServerSignals.watch([SIGTERM, SIGINT, SIGHUP]) { signal in
///     if signal == SIGHUP { reload() } else { server.stop() }
/// }
/// ```
///
/// One watcher per process: the handlers and the pipe are process-wide.
public final class ServerSignals: Sendable {
    private let readEnd: Int32

    private init(readEnd: Int32) { self.readEnd = readEnd }

    /// Holds `signals` pending from now until ``watch(_:handler:)`` handles them: call it
    /// first thing in `main`, so that a signal sent while the program starts (or one a
    /// shell's background job would ignore) is not lost or fatal.
    public static func hold(_ signals: [Int32]) {
        blockSignals(signals)
    }

    /// Installs handlers for `signals` (replacing SIG_IGN a shell may have set for a
    /// background job's SIGINT) and runs `handler` with each signal number as it arrives.
    public static func watch(_ signals: [Int32], handler: @escaping @Sendable (Int32) -> Void) throws(ServerSignalsError) -> ServerSignals {
        let readEnd = try signalPipe(for: signals)
        DispatchQueue(label: "turnstile.serve.signals").async {
            while let signal = nextSignal(readEnd) { handler(signal) }
        }
        return ServerSignals(readEnd: readEnd)
    }
}

/// Signal handling could not be set up.
public struct ServerSignalsError: Error, Sendable, CustomStringConvertible {
    public var description: String
}
