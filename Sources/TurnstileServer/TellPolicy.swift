import Synchronization

// Who may TELL (spamc -L): learning changes every later verdict, so with --allow-tell an
// ordinary local user could poison the list (issue 46: spam caught went from 6 of 16 to
// none). TELL can be limited to named users (spamc -u, the request's User header) and to
// client networks, and each user and client gets a number of TELLs per minute. Every
// TELL, allowed or not, is logged.

/// Which TELL requests are served.
///
/// ```swift
/// var policy = TellPolicy()
/// policy.users = ["postmaster"]
/// policy.perMinute = 30
/// ```
public struct TellPolicy: Sendable {
    /// The users (User header) that may TELL; nil: any.
    public var users: Set<String>?
    /// The client networks that may TELL (Unix-socket clients count as local); nil: any
    /// client the server serves.
    public var networks: [IPNetwork]?
    /// TELLs per minute for one user from one client; nil: no limit.
    public var perMinute: Int?

    public init(users: Set<String>? = nil, networks: [IPNetwork]? = nil, perMinute: Int? = nil) {
        self.users = users
        self.networks = networks
        self.perMinute = perMinute
    }

    /// Why a TELL from `user` at `address` (4 or 16 bytes; nil for a Unix socket) is
    /// refused, or nil when it is allowed.
    func refusal(user: String?, address: [UInt8]?) -> String? {
        if let users, !users.contains(user ?? "") {
            return "TELL is not allowed for user \(user ?? "(none)")"
        }
        if let networks, let address, !networks.contains(where: { $0.contains(address) }) {
            return "TELL is not allowed from this client"
        }
        return nil
    }
}

/// Counts TELLs per user and client in one-minute windows.
final class TellRateLimiter: Sendable {
    private let perMinute: Int
    private let windows = Mutex<[String: (start: ContinuousClock.Instant, count: Int)]>([:])

    init(perMinute: Int) { self.perMinute = perMinute }

    /// Whether one more TELL for `key` fits in its current minute (and counts it).
    func admit(_ key: String, now: ContinuousClock.Instant = .now) -> Bool {
        windows.withLock { windows in
            if windows.count > 10_000 { windows = windows.filter { now - $0.value.start < .seconds(60) } }
            var window = windows[key] ?? (now, 0)
            if now - window.start >= .seconds(60) { window = (now, 0) }
            guard window.count < perMinute else { return false }
            window.count += 1
            windows[key] = window
            return true
        }
    }
}
