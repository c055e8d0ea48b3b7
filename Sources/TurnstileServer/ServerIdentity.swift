// Who the server runs as, and the files that say it runs: `--user`/`--group` drop root
// after the socket is bound (as spamd's -u), `--socket-owner` gives a Unix socket to
// another user, and `--pidfile` names the process for init scripts. Names are looked up
// in the system's user and group databases (getpwnam, getgrnam); numbers are accepted.

/// A user and group to run as or to own a socket.
///
/// ```swift
/// let identity = try ServerIdentity(user: "turnstile", group: nil)   // the user's own group
/// try identity.become()                                              // after binding
/// ```
public struct ServerIdentity: Sendable, Hashable {
    public var uid: UInt32?
    public var gid: UInt32?

    /// `user` and `group` by name or number; a user alone brings its primary group.
    public init(user: String?, group: String?) throws(ServerIdentityError) {
        if let user {
            guard let ids = userIDs(user) else { throw ServerIdentityError(description: "no user named \(user)") }
            uid = ids.uid
            gid = ids.gid
        }
        if let group {
            guard let id = groupID(group) else { throw ServerIdentityError(description: "no group named \(group)") }
            gid = id
        }
    }

    /// `USER`, `USER:GROUP` or `:GROUP` (as chown(1) writes it).
    public init(owner text: String) throws(ServerIdentityError) {
        let parts = text.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        try self.init(user: parts[0].isEmpty ? nil : parts[0], group: parts.count > 1 && !parts[1].isEmpty ? parts[1] : nil)
    }

    /// Whether the process may change who it is (it runs as root).
    public static var isRoot: Bool { effectiveUserID() == 0 }

    /// Becomes this user and group for good (no supplementary groups).
    public func become() throws(ServerIdentityError) {
        let uid = self.uid ?? effectiveUserID()
        guard let gid else { throw ServerIdentityError(description: "no group to run as") }
        guard becomeUser(uid: uid, gid: gid) else {
            throw ServerIdentityError(description: "cannot run as uid \(uid) gid \(gid): \(errnoText())")
        }
    }
}

extension ServerIdentity {
    /// Gives `path` to this user and group (root only): a file root creates for the
    /// server before dropping to this user — a new learning database, the pid file
    /// (issue 54: a database created root-owned before the drop made every start exit
    /// 75). A SQLite database's `-wal` and `-shm` files, when there, go with it.
    public func own(_ path: String) throws(ServerIdentityError) {
        for file in [path, path + "-wal", path + "-shm"] where file == path || fileExists(file) {
            guard changeOwner(file, uid: uid, gid: gid) else {
                throw ServerIdentityError(description: "cannot give \(file) to uid \(uid.map { String($0) } ?? "?"): \(errnoText())")
            }
        }
    }
}

/// A user or group that does not exist, or a change of identity that failed.
public struct ServerIdentityError: Error, Sendable, CustomStringConvertible {
    public var description: String
    public init(description: String) { self.description = description }
}

/// `--pidfile`: the process id, written once the server listens, removed when it stops.
public struct PidFile: Sendable {
    public let path: String

    /// Writes the current process id to `path`.
    public init(path: String) throws(ServerIdentityError) {
        self.path = path
        guard writeSmallFile(path, "\(currentProcessID())\n") else {
            throw ServerIdentityError(description: "cannot write the pid file \(path): \(errnoText())")
        }
    }

    /// Removes the file (when the process may: after dropping root it may not).
    public func remove() { _ = removeFile(path) }

    /// Makes sure the file is removed when this process ends, even after it dropped
    /// root and can no longer write the file's folder (/run): a shell started now,
    /// still as root, waits for the process to end and then removes the file if it
    /// still holds this process's id, as spamd's is removed on TERM (issue 54: the pid
    /// file stayed behind 5 runs of 5). Call before anything else is opened that a
    /// child must not hold; the shell ignores HUP, INT and TERM, so a signal to the
    /// whole group (a terminal, systemd) leaves it to do its job.
    public static func removeAtExit(_ path: String) throws(ServerIdentityError) {
        let script = #"trap '' HUP INT TERM; while read -r _; do :; done; [ "$(cat -- "$1" 2>/dev/null)" = "$2" ] && rm -f -- "$1""#
        guard let watched = spawnShellWatchingExit(script, name: "turnstile-pidfile", [path, "\(currentProcessID())"]) else {
            throw ServerIdentityError(description: "cannot start the shell that removes the pid file \(path) at exit: \(errnoText())")
        }
        // Held open (never written) for the rest of the process's life.
        _ = watched
    }
}
