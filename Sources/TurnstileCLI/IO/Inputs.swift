import Turnstile

/// An input that could not be opened or read, as the one-sentence message the CLI
/// prints after `turnstile: `.
struct InputError: Error {
    var message: String
    /// The input is a folder (which grep opens, fails to read, and still lists under `-L`).
    var isFolder = false
}

/// Opens `path` for reading (`-` is standard input). Directories are errors.
/// A regular file that is also the output is refused when ``outputFile`` is set
/// (grep's "input file is also the output": reading what it writes would not end).
/// A file a walk listed as regular (`isRegularFile`) is not examined again unless the
/// output is a file: grep -r over /usr/share opens 57,000 files, and that `fstat`
/// was one system call in five.
func openInput(_ path: String, isRegularFile: Bool = false) throws(InputError) -> Int32 {
    let fd = path == "-" ? 0 : PathBytes.withCString(path) { open($0, O_RDONLY | O_CLOEXEC) }
    if fd < 0 { throw InputError(message: "\(path): \(errnoDescription(errno))") }
    if isRegularFile, outputFile == nil { return fd }
    var info = stat()
    guard fstat(fd, &info) == 0 else { return fd }
    if (info.st_mode & S_IFMT) == S_IFDIR, fd != 0 {
        close(fd)
        throw InputError(message: "\(path): \(programName == "grep" ? "Is a directory" : "is a directory")", isFolder: true)
    }
    if let output = outputFile, (info.st_mode & S_IFMT) == S_IFREG,
       info.st_dev == output.st_dev, info.st_ino == output.st_ino {
        if fd != 0 { close(fd) }
        throw InputError(message: "\(inputName(path)): input file is also the output")
    }
    return fd
}

/// Standard output's identity when it is a regular file and the command prints
/// records (grep checks only then), so an input that is the same file is refused.
/// Set once by the command before any input is opened.
nonisolated(unsafe) var outputFile: stat?

/// Standard output's `stat` when it is a regular file.
func regularOutputFile() -> stat? {
    var info = stat()
    guard fstat(1, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return nil }
    return info
}

/// The display name of an input.
func inputName(_ path: String) -> String { path == "-" ? standardInputLabel : path }

/// The name shown for standard input (`match --label`), set once by the command
/// before any input is read.
nonisolated(unsafe) var standardInputLabel = "(standard input)"

/// The most bytes a pattern or rule file may hold unless `--max-pattern-file-bytes`
/// raises it: 16 MiB is over ten times the 123,000-word English dictionary, and keeps
/// `-f /dev/zero` from reading without end.
let defaultMaxPatternFileBytes = 16 << 20

/// Reads a whole (small) file: pattern and rule files. `-` is standard input.
/// More than `limit` bytes is an error naming the limit and `limitFlag`, the option
/// that raises it; nothing past the limit is read.
func readWhole(
    _ path: String, limit: Int = defaultMaxPatternFileBytes, limitFlag: String = "--max-pattern-file-bytes"
) throws -> [UInt8] {
    let fd: Int32
    do { fd = try openInput(path) } catch { throw TurnstileError(.invalidOptions(error.message)) }
    defer { if fd != 0 { close(fd) } }
    func tooLarge() -> TurnstileError {
        TurnstileError(.invalidOptions("\(inputName(path)) is larger than the \(limit)-byte limit; raise it with \(limitFlag)"))
    }
    var result: [UInt8] = []
    // A regular file is read straight into one array of the size fstat reports, plus
    // a byte to notice a file that grew meanwhile: a saved automaton of a few MB then
    // costs one allocation and one copy instead of a doubling array's reallocations
    // (that was half of `filter --automaton`'s load).
    var info = stat()
    if fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG, Int(info.st_size) <= limit {
        let size = Int(info.st_size)
        var failure: Int32 = 0
        result = [UInt8](unsafeUninitializedCapacity: size + 1) { buffer, count in
            while count < buffer.count {
                let n = readSome(fd, buffer.baseAddress! + count, buffer.count - count)
                if n < 0 { failure = errno; return }
                if n == 0 { return }
                count += n
            }
        }
        if failure != 0 { throw TurnstileError(.invalidOptions("\(inputName(path)): \(errnoDescription(failure))")) }
        if result.count <= size { return result }
        if result.count > limit { throw tooLarge() }
    }
    var chunk = [UInt8](repeating: 0, count: 64 << 10)
    while true {
        let n = chunk.withUnsafeMutableBufferPointer { readSome(fd, $0.baseAddress!, $0.count) }
        if n < 0 { throw TurnstileError(.invalidOptions("\(inputName(path)): \(errnoDescription(errno))")) }
        if n == 0 { return result }
        if result.count + n > limit { throw tooLarge() }
        result.append(contentsOf: chunk[..<n])
    }
}

/// A pattern or rule file's bytes (``readWhole(_:limit:limitFlag:)``) without a
/// leading UTF-8 byte order mark, which editors on Windows put there and which would
/// otherwise become part of the first pattern.
func readPatternFile(_ path: String, limit: Int) throws -> [UInt8] {
    let bytes = try readWhole(path, limit: limit)
    return bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? Array(bytes.dropFirst(3)) : bytes
}

/// Environment variables, read with `getenv`.
enum ProcessEnvironment {
    static func value(_ name: String) -> String? {
        guard let p = getenv(name) else { return nil }
        return String(cString: p)
    }
}

/// What kind of thing an input path names, for grep's `-d` and `-D` (standard input
/// is never skipped; a path that cannot be examined is left for opening to report).
enum InputKind: Equatable {
    case folder
    /// A character or block device, a FIFO or a socket.
    case device
    case other

    init(_ path: String) {
        var info = stat()
        guard path != "-", PathBytes.withCString(path, { stat($0, &info) }) == 0 else { self = .other; return }
        switch info.st_mode & S_IFMT {
        case S_IFDIR: self = .folder
        case S_IFCHR, S_IFBLK, S_IFIFO, S_IFSOCK: self = .device
        default: self = .other
        }
    }
}
