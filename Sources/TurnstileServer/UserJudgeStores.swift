import SpamdProtocol
import Synchronization

// Per-user lists for `serve --db-dir DIR` (issue 52), as spamd's
// --virtual-config-dir: a request naming a user (`spamc -u alice`, the `User:` header)
// is judged with the list of that user's database, DIR/alice.db, and a TELL for alice
// learns into that file only. Each user's judge lives in a JudgeStore of its own,
// loaded the first time the user is named and replaced after the user's TELL; a user
// without a database (or a name that is not a plain file name) is judged by the
// server's own list.

/// The judges of the users that have databases, loaded on first use.
///
/// ```swift
/// let users = UserJudgeStores(directory: "/var/lib/turnstile/users") { path in try judge(for: path) }
/// users.store(for: "alice")          // DIR/alice.db's judge, or nil without that file
/// ```
///
/// - Complexity: a request of a user already loaded costs one lock and a dictionary
///   lookup; the first request of a user builds the user's list.
public final class UserJudgeStores: Sendable {
    /// The folder holding one `USER.db` per user.
    public let directory: String
    private let load: @Sendable (String) throws -> SpamdMessageJudge?
    private let stores = Mutex<[String: JudgeStore]>([:])

    /// `load(path)` builds the judge of the database at `path`; nil when there is none
    /// (the server's own list then judges the user).
    public init(directory: String, load: @escaping @Sendable (String) throws -> SpamdMessageJudge?) {
        self.directory = directory
        self.load = load
    }

    /// The database file of `user`; nil for a name that is not ``isUserName(_:)``.
    public func path(for user: String) -> String? {
        Self.isUserName(user) ? directory + "/" + user + ".db" : nil
    }

    /// Whether `user` may name a file: 1 to 64 bytes of ASCII letters, digits and
    /// `._@+-`, not starting with a dot (so never `..`, a path or a hidden file).
    public static func isUserName(_ user: String) -> Bool {
        let bytes = Array(user.utf8)
        guard !bytes.isEmpty, bytes.count <= 64, bytes[0] != UInt8(ascii: ".") else { return false }
        return bytes.allSatisfy { b in
            (b >= 0x30 && b <= 0x39) || (b | 0x20 >= 0x61 && b | 0x20 <= 0x7A) || "._@+-".utf8.contains(b)
        }
    }

    /// The store judging `user`'s requests; nil when the user has no database (or the
    /// database cannot be read: the server's own list judges, as for any other user).
    public func store(for user: String) -> JudgeStore? {
        if let known = stores.withLock({ $0[user] }) { return known }
        guard let path = path(for: user), let judge = try? load(path) else { return nil }
        return stores.withLock { stores in
            if let raced = stores[user] { return raced }
            let store = JudgeStore(judge)
            stores[user] = store
            return store
        }
    }

    /// Makes `judge` the one `user`'s later requests use (after the user's TELL).
    public func replace(_ judge: SpamdMessageJudge, for user: String) {
        stores.withLock { stores in
            if let store = stores[user] { store.replace(judge) } else { stores[user] = JudgeStore(judge) }
        }
    }

    /// Forgets every loaded list, so each is read again at its user's next request
    /// (SIGHUP).
    public func reload() {
        stores.withLock { $0.removeAll() }
    }
}
