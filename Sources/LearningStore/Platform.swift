// The module's C library calls, behind internal wrappers so that this is the only
// file with the platform switch (Glibc on Linux, Musl on static Linux builds, Darwin on
// macOS). Add a wrapper here rather than importing the C library in another file.
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#else
#error("LearningStore needs a C library (Glibc, Musl or Darwin)")
#endif

/// Creates an empty file at `path` readable and writable by its owner only (0600),
/// unless something is there already. SQLite then opens it as a new database, and
/// gives the journal and WAL files it creates beside it the same mode: the database
/// holds what was learned from private mail, so no other user may read it.
/// Errors are left to SQLite's open, which reports them with the path.
func createOwnerOnlyFileIfAbsent(_ path: String) {
    let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode_t(0o600))
    if fd >= 0 { close(fd) }
}
