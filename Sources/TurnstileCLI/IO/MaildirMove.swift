// `filter --format maildir --move-spam-to DIR`: spam leaves the source Maildir by
// rename(2), the one operation that cannot leave a message in two places or in none
// (a crash before it leaves the message where it was, after it where it goes). The
// message keeps its sub-folder (`new/` stays unread, `cur/` keeps its flags) and its
// file name, `:2,FLAGS` info included; a name already taken in DIR (a rerun after the
// source was restored, or another delivery) gets a fresh Maildir unique name with the
// same info. A rerun finds only the messages still in the source, so it moves nothing
// twice. rename(2) cannot cross file systems: DIR must be on the source's (as Maildir
// delivery requires of tmp/ and new/ too).

/// Moves spam messages into a Maildir folder.
struct MaildirMove {
    /// The Maildir the spam goes to (its cur/, new/ and tmp/ are created if missing).
    let folder: String
    private var counter = 0

    init(folder: String) throws {
        self.folder = folder.hasSuffix("/") && folder.count > 1 ? String(folder.dropLast()) : folder
        for path in [self.folder] + ["cur", "new", "tmp"].map({ self.folder + "/" + $0 }) {
            if mkdir(path, 0o700) != 0, errno != EEXIST {
                throw CommandFailure("cannot create the folder \(path): \(errnoDescription(errno))")
            }
        }
    }

    /// Whether `path` (a message file) is already in the destination folder.
    func holds(_ path: String) -> Bool {
        guard let parent = Self.parent(path) else { return false }
        var a = stat(), b = stat()
        return ["cur", "new"].contains { sub in
            stat(parent, &a) == 0 && stat(folder + "/" + sub, &b) == 0 && a.st_dev == b.st_dev && a.st_ino == b.st_ino
        }
    }

    /// Moves the message file at `path` to the same sub-folder of the destination
    /// (`new/` when it was under `new/`, else `cur/`). Returns the new path.
    mutating func move(_ path: String) throws -> String {
        let parts = path.split(separator: "/", omittingEmptySubsequences: true)
        let name = parts.last.map(String.init) ?? path
        let sub = parts.count >= 2 && parts[parts.count - 2] == "new" ? "new" : "cur"
        var target = folder + "/" + sub + "/" + name
        while access(target, F_OK) == 0 {
            target = folder + "/" + sub + "/" + uniqueName(keepingInfoOf: name)
        }
        if rename(path, target) != 0 {
            let code = errno
            let advice = code == EXDEV ? " (--move-spam-to must be on the same file system as the Maildir)" : ""
            throw CommandFailure("cannot move \(path) to \(target): \(errnoDescription(code))\(advice)")
        }
        return target
    }

    /// A Maildir unique name (`SECONDS.MmicrosecondsPpidQn.host`) with the `:2,FLAGS`
    /// info of `name`, if it has one.
    private mutating func uniqueName(keepingInfoOf name: String) -> String {
        counter += 1
        var now = timeval()
        gettimeofday(&now, nil)
        var host = [CChar](repeating: 0, count: 256)
        gethostname(&host, host.count - 1)
        let hostName = String(decoding: host.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            .replacingAll("/", with: "\\057").replacingAll(":", with: "\\072")
        let info = name.lastIndex(of: ":").map { String(name[$0...]) } ?? ""
        return "\(now.tv_sec).M\(now.tv_usec)P\(getpid())Q\(counter).\(hostName)\(info)"
    }

    private static func parent(_ path: String) -> String? {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}
