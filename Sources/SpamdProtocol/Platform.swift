// The module's C library calls (printf's number formatting), behind one wrapper.
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#else
#error("SpamdProtocol needs a C library (Glibc, Musl or Darwin)")
#endif

/// `x` as C's `printf(format, x)` writes it (perl's sprintf is C's).
func cFormat(_ format: String, _ x: Double) -> String {
    withUnsafeTemporaryAllocation(of: CChar.self, capacity: 64) { buffer in
        let n = withVaList([x]) { vsnprintf(buffer.baseAddress!, 64, format, $0) }
        let bytes = UnsafeRawBufferPointer(start: buffer.baseAddress!, count: max(0, min(Int(n), 63)))
        return String(decoding: bytes, as: UTF8.self)
    }
}
