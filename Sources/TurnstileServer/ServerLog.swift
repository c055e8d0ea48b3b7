import Dispatch
import Synchronization

// The server's log (standard error, which systemd's journal or a supervisor reads). A
// log write must never hold up a request: with standard error on a pipe nobody drained,
// every event-loop thread ended up blocked in write(2) after ~64 KiB of request lines
// and no client was answered again (issue 54). So the serving threads only hand a line
// over; one writer thread writes, and may block in write(2) as long as the reader
// stalls. At most `capacity` lines wait for it; a line beyond that is dropped and
// counted, and the count is written once the reader catches up
// ("turnstile serve: 412 log lines dropped …") — before the next line, and at the latest
// by `flush`, so a count is never lost at exit. The server's own notices (ready,
// stopping, reloaded) are never dropped: they are few, and an administrator reading a
// stalled journal needs exactly those.

/// A log that cannot stall the threads writing to it.
///
/// ```swift
/// let log = ServerLog()                 // standard error, 1,024 lines queued at most
/// log.write("turnstile serve: CHECK …") // returns at once, whatever the reader does
/// log.write("turnstile serve: ready", dropWhenFull: false)   // a notice: always queued
/// _ = log.flush(within: .seconds(1))    // before the process exits
/// ```
///
/// - Complexity: a write is two atomic operations and a queue hand-off; the line's
///   bytes are written by the writer thread.
public final class ServerLog: Sendable {
    /// The most lines waiting for the writer thread.
    public let capacity: Int
    private let fd: Int32
    private let writer = DispatchQueue(label: "turnstile.serve.log")
    private let waiting = Atomic<Int>(0)
    private let droppedSinceWritten = Atomic<Int>(0)
    private let droppedTotal = Atomic<Int>(0)

    /// Writes lines to `fd` (2, standard error), at most `capacity` of them queued.
    public init(fd: Int32 = 2, capacity: Int = 1024) {
        self.fd = fd
        self.capacity = max(1, capacity)
    }

    /// Queues `line` (a newline is added), or drops it when `capacity` lines wait and
    /// `dropWhenFull` (a request's line); a notice (`dropWhenFull: false`) always waits.
    public func write(_ line: String, dropWhenFull: Bool = true) {
        guard waiting.add(1, ordering: .acquiringAndReleasing).newValue <= capacity || !dropWhenFull else {
            waiting.subtract(1, ordering: .acquiringAndReleasing)
            droppedSinceWritten.add(1, ordering: .relaxed)
            droppedTotal.add(1, ordering: .relaxed)
            return
        }
        writer.async { [self] in
            writeDroppedCount()
            writeWhole(fd, Array((line + "\n").utf8))
            waiting.subtract(1, ordering: .acquiringAndReleasing)
        }
    }

    /// On the writer thread: the lines dropped since the last line written, if any.
    private func writeDroppedCount() {
        let lost = droppedSinceWritten.exchange(0, ordering: .relaxed)
        guard lost > 0 else { return }
        writeWhole(fd, Array("turnstile serve: \(lost) log line\(lost == 1 ? "" : "s") dropped (standard error was not read fast enough)\n".utf8))
    }

    /// Lines dropped since the log was made.
    public var dropped: Int { droppedTotal.load(ordering: .relaxed) }

    /// Waits at most `timeout` for every queued line to be written; whether all were.
    /// A stalled reader costs the caller `timeout`, never more.
    public func flush(within timeout: Duration) -> Bool {
        let done = DispatchSemaphore(value: 0)
        writer.async { [self] in
            writeDroppedCount()
            done.signal()
        }
        let nanoseconds = max(0, timeout / .nanoseconds(1))
        return done.wait(timeout: .now() + .nanoseconds(Int(min(nanoseconds, 3_600e9)))) == .success
    }
}
