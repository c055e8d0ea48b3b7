// sd_notify(3) without libsystemd: a unit with `Type=notify` learns that the daemon is
// ready (or stopping) from one datagram sent to the Unix socket named by NOTIFY_SOCKET.
// Without NOTIFY_SOCKET (not started by systemd) nothing is sent.

/// Tells systemd the service's state, as sd_notify(3) does.
///
/// ```swift
/// SystemdNotify.send("READY=1")      // once the socket listens
/// SystemdNotify.send("STOPPING=1")   // when SIGTERM arrives
/// ```
public enum SystemdNotify {
    /// Sends `state` (newline-separated `KEY=VALUE` lines) with `MAINPID`; whether it
    /// was sent (false without NOTIFY_SOCKET).
    @discardableResult
    public static func send(_ state: String) -> Bool {
        guard let socket = environmentValue("NOTIFY_SOCKET"), !socket.isEmpty else { return false }
        return sendDatagram(Array("\(state)\nMAINPID=\(currentProcessID())".utf8), toUnixPath: socket)
    }
}
