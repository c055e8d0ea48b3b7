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

/// Socket activation (sd_listen_fds(3) without libsystemd): with a `.socket` unit,
/// systemd binds the socket and starts the service with it as file descriptor 3,
/// `LISTEN_FDS=1` and `LISTEN_PID` its pid.
public enum SystemdActivation {
    /// The first socket systemd passed this process, or nil when it passed none.
    /// The variables are removed, so a child process does not take them for its own.
    public static func listeningSocket() -> Int32? {
        guard let pid = environmentValue("LISTEN_PID").flatMap({ Int32($0) }), pid == currentProcessID(),
              let count = environmentValue("LISTEN_FDS").flatMap({ Int($0) }), count >= 1 else { return nil }
        unsetEnvironmentValue("LISTEN_PID")
        unsetEnvironmentValue("LISTEN_FDS")
        unsetEnvironmentValue("LISTEN_FDNAMES")
        setCloseOnExec(3)
        return 3
    }
}
