// The C library, imported once for the whole executable: read(2), write(2), open(2),
// stat(2), directories, errno, signals and exit(3) come from Glibc on Linux, Musl on
// static Linux builds, and Darwin on macOS.
//
// `@_exported` makes the import visible in every file of this target (a plain import
// is file-scoped), so no other file repeats the platform switch. It re-exports nothing
// to anyone: an executable has no importers. Library targets must not do this; they
// keep their few libc calls behind internal wrappers in their own Platform.swift.
#if canImport(Glibc)
@_exported import Glibc
#elseif canImport(Musl)
@_exported import Musl
#elseif canImport(Darwin)
@_exported import Darwin
#else
#error("turnstile needs a C library (Glibc, Musl or Darwin)")
#endif

/// Ends the process with `status` (exit(3): flushes C stdio, runs atexit handlers).
///
/// A named function rather than `exit(_:)` at the call site, because inside a
/// `ParsableCommand` the unqualified name `exit` finds ArgumentParser's
/// `exit(withError:)` first, and a module-qualified `Glibc.exit` does not build on macOS.
func terminate(_ status: Int32) -> Never {
    exit(status)
}
