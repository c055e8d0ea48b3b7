// The module's few C library calls, behind internal wrappers so that this is the only
// file with the platform switch (Glibc on Linux, Musl on static Linux builds, Darwin on
// macOS). Add a wrapper here rather than importing the C library in another file.
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#else
#error("Turnstile needs a C library (Glibc, Musl or Darwin)")
#endif

/// The natural logarithm (the standard library has none without Foundation).
@inline(__always)
func naturalLog(_ x: Double) -> Double { log(x) }

/// The address of the first `byte` among the `count` bytes at `start`, or nil (memchr(3)).
@inline(__always)
func findByte(_ byte: UInt8, in start: UnsafePointer<UInt8>, count: Int) -> UnsafePointer<UInt8>? {
    // SAFETY: the caller passes `count` readable bytes at `start`; memchr reads no further.
    guard let hit = memchr(start, Int32(byte), count) else { return nil }
    return UnsafePointer(hit.assumingMemoryBound(to: UInt8.self))
}

/// read(2) into `buffer`, retried on `EINTR`: the byte count, 0 at the end of the
/// input, or -1 with the error in ``lastErrno``.
package func readSome(_ fd: Int32, _ buffer: UnsafeMutablePointer<UInt8>, _ count: Int) -> Int {
    while true {
        let n = read(fd, buffer, count)
        if n < 0, errno == EINTR { continue }
        return n
    }
}

/// The `errno` of the last failed call.
var lastErrno: Int32 { errno }

/// Moves `count` bytes from `source` to `destination`; the regions may overlap (memmove(3)).
@inline(__always)
func moveBytes(_ destination: UnsafeMutablePointer<UInt8>, from source: UnsafePointer<UInt8>, count: Int) {
    // SAFETY: the caller passes `count` valid bytes at both addresses; memmove allows overlap.
    memmove(destination, source, count)
}
