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
#error("TurnstileServer needs a C library (Glibc, Musl or Darwin)")
#endif

/// The 4 bytes of a textual IPv4 address or the 16 of an IPv6 one, in network
/// order (inet_pton(3)), or nil when `text` is neither.
func parsedAddressBytes(_ text: String) -> [UInt8]? {
    var v4 = in_addr()
    if inet_pton(AF_INET, text, &v4) == 1 {
        return withUnsafeBytes(of: &v4) { Array($0) }
    }
    var v6 = in6_addr()
    if inet_pton(AF_INET6, text, &v6) == 1 {
        return withUnsafeBytes(of: &v6) { Array($0) }
    }
    return nil
}
