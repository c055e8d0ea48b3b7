import Turnstile

/// Paths with each folder replaced by the regular files under it (recursively,
/// hidden entries skipped, sorted by path so the order is the same everywhere).
///
/// Symbolic links are followed, as `grep -R` does, but every folder and every file is
/// visited once, identified by its device and inode: a link back to a folder being
/// walked (a loop) or a second link to a folder or file already listed is skipped
/// with a warning on standard error (`warning: DIR: recursive directory loop`, GNU
/// grep's wording) only for a loop, silently for a second link, so a file is never
/// read twice and a loop never recurses.
func expandFolders(_ paths: [String]) throws -> [String] {
    var walk = DirectoryWalk()
    var result: [String] = []
    for path in paths {
        var info = stat()
        if path != "-", stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR {
            result.append(contentsOf: try walk.files(under: path, info: info).sorted())
        } else {
            result.append(path)
        }
    }
    return result
}

/// The state of one walk: the folders and files already seen.
struct DirectoryWalk {
    /// A file system object's identity.
    struct Identity: Hashable {
        var device: UInt64
        var inode: UInt64
        init(_ info: stat) {
            device = UInt64(truncatingIfNeeded: info.st_dev)
            inode = UInt64(truncatingIfNeeded: info.st_ino)
        }
    }

    private var seenFolders: Set<Identity> = []
    /// The folders on the current path from the walk's root (a link to one is a loop).
    private var ancestors: Set<Identity> = []
    private var seenFiles: Set<Identity> = []
    /// Whether names starting with `.` are listed (`-r` lists them, as grep does;
    /// mail folders do not).
    var includeHidden = false
    /// Whether symbolic links under a folder are followed (grep -R, and mail folders)
    /// or skipped (grep -r).
    var followLinks = true
    /// `--include`, `--exclude`, `--exclude-dir` on the names met (base names).
    var names = NameFilter()
    /// Whether each folder's entries are taken in sorted order (`match -r`, mail
    /// folders) or in the order the folder lists them, as GNU grep's `-r` takes them
    /// (`grep -r` then prints what grep prints, in the same order).
    var sorted = true

    init(includeHidden: Bool = false, followLinks: Bool = true) {
        self.includeHidden = includeHidden
        self.followLinks = followLinks
    }

    /// What a walk finds, in walk order.
    enum Found {
        /// A regular file to read.
        case file(String)
        /// A folder that could not be opened, with the errno.
        case unreadable(String, Int32)
    }

    /// The regular files under `folder` (whose `stat` is `info`), each once; the first
    /// folder that cannot be read is the error.
    mutating func files(under folder: String, info: stat) throws -> [String] {
        var result: [String] = []
        var failure: CommandFailure?
        walk(under: folder, info: info) { found in
            switch found {
            case .file(let path):
                result.append(path)
                return true
            case .unreadable(let path, let code):
                failure = CommandFailure("\(path): \(errnoDescription(code))")
                return false
            }
        }
        if let failure { throw failure }
        return result
    }

    /// Hands `found` what is under `folder` (whose `stat` is `info`), in walk order:
    /// each regular file once, and each folder that cannot be read (GNU grep says so
    /// in its place and goes on). Returns `false` as soon as `found` does: the walk
    /// stops there.
    @discardableResult
    mutating func walk(under folder: String, info: stat, _ found: (Found) -> Bool) -> Bool {
        guard enter(folder, info: info, found) else { return false }
        while isWalking {
            guard step(found) else {
                // Stopped: the folders still open are left, as returning from each would.
                for folder in open { ancestors.remove(folder.identity) }
                open.removeAll()
                return false
            }
        }
        return true
    }

    /// A folder being walked: its entries, and the next one to visit.
    private struct OpenFolder {
        var path: String
        var identity: Identity
        var entries: [(name: String, type: UInt8)]
        var next = 0
    }

    /// The folders from the walk's root to the one being listed (an explicit stack, so
    /// a walk can stop between two steps and go on later: ``step(_:)``).
    private var open: [OpenFolder] = []

    /// Whether a walk ``enter(_:info:_:)`` began has folders left to list.
    var isWalking: Bool { !open.isEmpty }

    /// Begins the walk of `folder` (whose `stat` is `info`): reads its entries, to be
    /// handed on by ``step(_:)``. A loop back to a folder being walked is warned of
    /// and skipped, a folder seen before is skipped, and one that cannot be read goes
    /// to `found`; returns what `found` returned then, else `true`.
    @discardableResult
    mutating func enter(_ folder: String, info: stat, _ found: (Found) -> Bool) -> Bool {
        let identity = Identity(info)
        if ancestors.contains(identity) {
            printError("warning: \(folder): recursive directory loop")
            return true
        }
        guard seenFolders.insert(identity).inserted else { return true }
        guard let dir = PathBytes.withCString(folder, { opendir($0) }) else { return found(.unreadable(folder, errno)) }
        var entries: [(name: String, type: UInt8)] = []
        // Most folders hold a few entries: no regrowing from 1, 2, 4, 8 (1.6 M
        // instructions of a `grep -r` over 6,000 files).
        entries.reserveCapacity(32)
        while let entry = readdir(dir) {
            // `.`, `..` and hidden names are told by their bytes, before a string is made.
            let name: String? = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                let bytes = UnsafeRawBufferPointer(rebasing: raw[..<(raw.firstIndex(of: 0) ?? raw.count)])
                if bytes.first == UInt8(ascii: ".") {
                    if bytes.count == 1 || (bytes.count == 2 && bytes[1] == UInt8(ascii: ".")) || !includeHidden {
                        return nil
                    }
                }
                return PathBytes.string(bytes.bindMemory(to: UInt8.self))
            }
            if let name { entries.append((name, entry.pointee.d_type)) }
        }
        closedir(dir)
        if sorted { entries.sort(by: { $0.name < $1.name }) }
        ancestors.insert(identity)
        open.append(OpenFolder(path: folder, identity: identity, entries: entries))
        return true
    }

    /// Hands `found` the entries of the folder being listed up to its next subfolder,
    /// and enters that subfolder (one folder read a step); a folder whose entries are
    /// all handed on is left. Returns `false` as soon as `found` does.
    @discardableResult
    mutating func step(_ found: (Found) -> Bool) -> Bool {
        guard !open.isEmpty else { return true }
        let top = open.count - 1
        let folder = open[top].path
        while open[top].next < open[top].entries.count {
            let (name, type) = open[top].entries[open[top].next]
            open[top].next += 1
            let path = PathBytes.joined(folder, name)
            if !followLinks, type == UInt8(DT_REG) {
                // grep -r: a regular file named by its folder needs no stat (GNU grep's
                // fts reads d_type too), and reaches the list once per name, as in grep.
                if names.skipsFile(name, commandLine: false) { continue }
                if !found(.file(path)) { return false }
                continue
            }
            if !followLinks, type != UInt8(DT_DIR), type != UInt8(DT_UNKNOWN) { continue }
            var child = stat()
            guard PathBytes.withCString(path, { followLinks ? stat($0, &child) : lstat($0, &child) }) == 0 else { continue }
            switch child.st_mode & S_IFMT {
            case S_IFDIR:
                if names.skipsFolder(name, commandLine: false) { continue }
                guard enter(path, info: child, found) else { return false }
                // Entered (its entries read): the step ends, the subfolder is next.
                if open.count > top + 1 { return true }
            case S_IFREG:
                if names.skipsFile(name, commandLine: false) { continue }
                if seenFiles.insert(Identity(child)).inserted, !found(.file(path)) { return false }
            default: continue
            }
        }
        ancestors.remove(open[top].identity)
        open.removeLast()
        return true
    }
}
