// The module's C library calls, behind internal wrappers so that this is the only
// file with the platform switch (Glibc on Linux, Musl on static Linux builds, Darwin on
// macOS). Add a wrapper here rather than importing the C library in another file.
//
// The wrappers are `@inlinable` and always inlined: the prefilters that call them are
// `@inlinable` search loops, and a wrapper must cost nothing over the call it wraps.
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#else
#error("LiteralAutomata needs a C library (Glibc, Musl or Darwin)")
#endif

/// The address of the first `byte` among the `count` bytes at `start`, or nil
/// (memchr(3), vectorized by the C library).
@inlinable @inline(__always)
func cMemchr(_ start: UnsafePointer<UInt8>, _ byte: UInt8, _ count: Int) -> UnsafePointer<UInt8>? {
    // SAFETY: the caller passes `count` readable bytes at `start`; memchr reads no further.
    guard let hit = memchr(start, Int32(byte), count) else { return nil }
    return UnsafePointer(hit.assumingMemoryBound(to: UInt8.self))
}

/// `true` when the `count` bytes at `a` and at `b` are equal (memcmp(3)).
@inlinable @inline(__always)
func cBytesEqual(_ a: UnsafePointer<UInt8>, _ b: UnsafePointer<UInt8>, _ count: Int) -> Bool {
    // SAFETY: the caller passes `count` readable bytes at both addresses.
    memcmp(a, b, count) == 0
}
