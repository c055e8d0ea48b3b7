import Turnstile

/// The message files of Maildir folders: for each folder, the regular files under
/// its `cur/` and `new/` (not `tmp/`, where deliveries are still being written),
/// hidden files skipped, sorted by path. A path that is a file is kept (one message).
///
/// - Throws: ``CommandFailure`` for a folder with neither `cur/` nor `new/`.
func maildirFiles(_ paths: [String]) throws -> [String] {
    var result: [String] = []
    for path in paths {
        var info = stat()
        guard path != "-", stat(path, &info) == 0, (info.st_mode & S_IFMT) == S_IFDIR else {
            result.append(path)
            continue
        }
        let base = path.hasSuffix("/") ? String(path.dropLast()) : path
        var found = false
        for sub in ["cur", "new"] {
            let folder = base + "/" + sub
            var subInfo = stat()
            guard stat(folder, &subInfo) == 0, (subInfo.st_mode & S_IFMT) == S_IFDIR else { continue }
            found = true
            result.append(contentsOf: try expandFolders([folder]))
        }
        if !found { throw CommandFailure("\(path) is not a Maildir folder (it has no cur/ or new/ folder)") }
    }
    return result
}

/// Where `filter --spam-to` writes spam, in the input's format: an mbox file that the
/// run's spam is appended to once every input was read (``MboxAppend``: locked, never
/// truncated, untouched when an input fails), or a folder that gets one file per spam
/// message (eml: the input's file name; maildir: a Maildir with the message under the
/// same cur/ or new/ and file name, written in tmp/ first and then renamed, as Maildir
/// delivery does). A name already taken gets a `.1`, `.2`, … suffix: nothing is
/// overwritten.
final class SpamDestination {
    private let format: RecordFormat
    private let path: String
    /// The mbox the spam is appended to (lines and mbox).
    private let mbox: MboxAppend?
    /// The current message's file (eml and maildir).
    private var writer: OutputWriter?
    private var fd: Int32 = -1
    /// The current message's temporary and final paths (maildir).
    private var pending: (temporary: String, final: String)?
    private var counter = 0

    init(path: String, format: RecordFormat) throws {
        self.format = format
        self.path = path
        switch format {
        case .lines, .mbox:
            mbox = MboxAppend(path: path)
        case .eml:
            mbox = nil
            try Self.makeFolder(path)
        case .maildir:
            mbox = nil
            try Self.makeFolder(path)
            for sub in ["cur", "new", "tmp"] { try Self.makeFolder(path + "/" + sub) }
        }
    }

    private static func makeFolder(_ path: String) throws {
        if mkdir(path, 0o755) != 0, errno != EEXIST {
            throw CommandFailure("cannot create the folder \(path): \(errnoDescription(errno))")
        }
    }

    /// A spam message from the input `input` starts; `startsWithFromLine`: its first
    /// bytes are an mbox `From ` line.
    func begin(input: String, startsWithFromLine: Bool) throws {
        if let mbox { return try mbox.begin(startsWithFromLine: startsWithFromLine) }
        counter += 1
        let name = input == "(standard input)" ? "message-\(counter).eml" : String(input.split(separator: "/").last ?? "message")
        let folder: String
        if format == .maildir {
            let parts = input.split(separator: "/")
            let sub = parts.count >= 2 && parts[parts.count - 2] == "new" ? "new" : "cur"
            folder = path + "/" + sub
        } else {
            folder = path
        }
        var final = folder + "/" + name
        var k = 0
        while access(final, F_OK) == 0 {
            k += 1
            final = folder + "/" + name + ".\(k)"
        }
        let temporary = format == .maildir ? path + "/tmp/" + (final.split(separator: "/").last.map(String.init) ?? name) : final
        fd = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        if fd < 0 { throw CommandFailure("cannot create \(temporary): \(errnoDescription(errno))") }
        writer = OutputWriter(fd: fd)
        pending = (temporary, final)
    }

    func write(_ bytes: UnsafeBufferPointer<UInt8>) throws {
        if let mbox { return try mbox.write(bytes) }
        do { try writer?.write(bytes) } catch { throw CommandFailure("cannot write \(path): \(error)") }
    }

    func write(_ bytes: [UInt8]) throws {
        try bytes.withUnsafeBufferPointer { try write($0) }
    }

    /// The current spam message ended.
    func end() throws {
        guard mbox == nil, let pending else { return }
        do { try writer?.flush() } catch { throw CommandFailure("cannot write \(pending.temporary): \(error)") }
        close(fd)
        fd = -1
        writer = nil
        self.pending = nil
        if pending.temporary != pending.final, rename(pending.temporary, pending.final) != 0 {
            throw CommandFailure("cannot move \(pending.temporary) to \(pending.final): \(errnoDescription(errno))")
        }
    }

    /// The run is over: an mbox gets the spooled spam appended, unless `inputFailed`
    /// (then it is left as it was, and the run's exit status says the input failed).
    func finish(inputFailed: Bool) throws {
        guard let mbox else { return }
        if inputFailed {
            mbox.discard()
        } else {
            try mbox.commit()
        }
    }
}
