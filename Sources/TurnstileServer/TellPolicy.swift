import Synchronization

// Who may TELL (spamc -L): learning changes every later verdict, so with --allow-tell an
// ordinary local user could poison the list (issue 46: spam caught went from 6 of 16 to
// none). The user a TELL names (spamc -u, the User header) is only a claim: any local
// user could send `spamc -u postmaster -L ham` (issue 54). So a TELL is bound to who is
// really asking — on the Unix socket the peer's uid (SO_PEERCRED), over TCP the
// client's address — and:
//   - on the Unix socket, --tell-user names the accounts (by name or uid) whose
//     processes may TELL; a TELL may name another user (for that user's --db-dir
//     database) only when its sender is root or one of those named accounts;
//   - over TCP nobody's uid is known, so TELL is refused unless --tell-from names the
//     client's network; from there the User header is trusted, and --tell-user limits it;
//   - --tell-rate counts per peer (uid, or address), so a client that spends its TELLs
//     never locks another out.
// Every TELL, allowed or not, is logged with the peer it came from.

/// Who sent a request: a Unix-socket process (its uid and account name) or a TCP client.
enum RequestPeer: Sendable, Hashable {
    case local(uid: UInt32?, name: String?)
    case network(address: [UInt8])

    /// The key TELLs are counted under: one per uid or address.
    var rateKey: String {
        switch self {
        case .local(let uid, _): "uid " + (uid.map { String($0) } ?? "?")
        case .network(let address): IPNetwork.text(address)
        }
    }
}

/// Which TELL requests are served.
///
/// ```swift
/// var policy = TellPolicy()
/// policy.users = ["postmaster"]          // postmaster's processes on the Unix socket
/// policy.networks = [try IPNetwork(parsing: "127.0.0.1/32")]   // TCP TELL from here
/// policy.perMinute = 30
/// ```
public struct TellPolicy: Sendable {
    /// The accounts that may TELL; nil: any. On the Unix socket, the sender's account
    /// (name or uid); over TCP, the User header of a client from `networks`.
    public var users: Set<String>?
    /// The client networks TCP TELL is served from; nil: none (TELL only on the Unix
    /// socket, where the sender's uid is known).
    public var networks: [IPNetwork]?
    /// TELLs per minute from one peer (a uid, or a TCP address); nil: no limit.
    public var perMinute: Int?

    public init(users: Set<String>? = nil, networks: [IPNetwork]? = nil, perMinute: Int? = nil) {
        self.users = users
        self.networks = networks
        self.perMinute = perMinute
    }

    /// The user a TELL naming `claimed` (its User header) from `peer` learns for, or
    /// why it is refused (one sentence, without the final period).
    func user(claimed: String?, peer: RequestPeer) -> Result<String?, TellRefusal> {
        switch peer {
        case .local(let uid, let name):
            let number = uid.map { String($0) }
            // Whether the sender is a --tell-user account (by name or uid); nil: no list.
            let named = users.map { users in name.map(users.contains) == true || number.map(users.contains) == true }
            if named == false { return .failure(TellRefusal(text: "TELL is not allowed for \(Self.describe(uid, name))")) }
            // Telling for someone else (their --db-dir database): root, or a named teller.
            if let claimed, claimed != name, claimed != number, uid != 0, named != true {
                return .failure(TellRefusal(text: "TELL for user \(claimed) is not allowed from \(Self.describe(uid, name))"))
            }
            return .success(claimed ?? name)
        case .network(let address):
            guard let networks else {
                return .failure(TellRefusal(text: "TELL over TCP is not allowed without --tell-from naming the client"))
            }
            guard networks.contains(where: { $0.contains(address) }) else {
                return .failure(TellRefusal(text: "TELL is not allowed from this client"))
            }
            if let users, !users.contains(claimed ?? "") {
                return .failure(TellRefusal(text: "TELL is not allowed for user \(claimed ?? "(none)")"))
            }
            return .success(claimed)
        }
    }

    /// `uid 1000 (alice)`.
    static func describe(_ uid: UInt32?, _ name: String?) -> String {
        "uid \(uid.map { String($0) } ?? "?")" + (name.map { " (\($0))" } ?? "")
    }
}

/// Why a TELL was refused.
struct TellRefusal: Error, Sendable, Hashable {
    var text: String
}

/// Counts TELLs per peer in one-minute windows.
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
