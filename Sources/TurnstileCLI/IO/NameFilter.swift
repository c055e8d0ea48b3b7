/// grep's `--include`, `--exclude` and `--exclude-dir`: shell globs (fnmatch) on names.
///
/// A file met while walking a folder (`-r`) is matched by its base name; a name given
/// on the command line matches when the glob matches the whole name or any part of it
/// after a `/` (grep's "name suffix"). `--include` and `--exclude` apply to both;
/// `--exclude-dir` to folders. A file some `--exclude` matches is skipped even when an
/// `--include` matches it too (grep lets the last matching option win).
///
/// ```swift
/// let filter = NameFilter(include: ["*.c"], exclude: [], excludeDir: ["build"])
/// filter.skipsFile("src/main.c", commandLine: true)     // false
/// filter.skipsFolder("build", commandLine: false)        // true
/// ```
struct NameFilter: Sendable {
    var include: [String] = []
    var exclude: [String] = []
    var excludeDir: [String] = []

    var isEmpty: Bool { include.isEmpty && exclude.isEmpty && excludeDir.isEmpty }

    /// Whether the file at `path` is left out.
    func skipsFile(_ path: String, commandLine: Bool) -> Bool {
        if path == "-" { return false }
        if exclude.contains(where: { Self.matches($0, path, commandLine: commandLine) }) { return true }
        return !include.isEmpty && !include.contains { Self.matches($0, path, commandLine: commandLine) }
    }

    /// Whether the folder at `path` is left out (with everything under it).
    func skipsFolder(_ path: String, commandLine: Bool) -> Bool {
        excludeDir.contains { Self.matches($0, path, commandLine: commandLine) }
    }

    private static func matches(_ glob: String, _ path: String, commandLine: Bool) -> Bool {
        var trimmed = Substring(path)
        while trimmed.count > 1, trimmed.hasSuffix("/") { trimmed = trimmed.dropLast() }
        if !commandLine {
            let base = trimmed.split(separator: "/", omittingEmptySubsequences: false).last.map(String.init) ?? String(trimmed)
            return fnmatch(glob, base, 0) == 0
        }
        if fnmatch(glob, String(trimmed), 0) == 0 { return true }
        var rest = trimmed
        while let slash = rest.firstIndex(of: "/") {
            rest = rest[rest.index(after: slash)...]
            if !rest.isEmpty, fnmatch(glob, String(rest), 0) == 0 { return true }
        }
        return false
    }
}
