// A start-byte prefilter: when at most three distinct bytes can take an automaton out
// of its start state, scan for them a machine word at a time (memchr for one byte;
// the SWAR "has zero byte" test of Mycroft / the Stanford bit-hacks page for two or
// three) instead of stepping the automaton through bytes that would leave it in the
// start state anyway. It only ever skips bytes on which the start state loops to
// itself, so it cannot change a result; the tests run every search with and without it.

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Finds the next byte that can leave the start state.
struct StartBytePrefilter: Sendable, Hashable {
    /// The distinct start bytes (1...3), ascending.
    let bytes: [UInt8]

    /// A prefilter for the given start bytes, or nil when there are none or more than three.
    init?(startBytes: [UInt8]) {
        guard (1...3).contains(startBytes.count) else { return nil }
        self.bytes = startBytes.sorted()
    }

    /// The first index in `from..<end` holding a start byte, or `end`.
    @inline(__always)
    func find(_ h: UnsafeBufferPointer<UInt8>, _ from: Int, _ end: Int) -> Int {
        guard from < end, let base = h.baseAddress else { return end }
        if bytes.count == 1 {
            // SAFETY: from < end <= h.count, so [from, end) lies inside the buffer.
            guard let p = memchr(base + from, Int32(bytes[0]), end - from) else { return end }
            return base.distance(to: p.assumingMemoryBound(to: UInt8.self))
        }
        let b0 = bytes[0], b1 = bytes[1], b2 = bytes.count == 3 ? bytes[2] : bytes[1]
        let lo: UInt64 = 0x0101_0101_0101_0101, hi: UInt64 = 0x8080_8080_8080_8080
        let m0 = lo &* UInt64(b0), m1 = lo &* UInt64(b1), m2 = lo &* UInt64(b2)
        var i = from
        let raw = UnsafeRawPointer(base)
        while i &+ 8 <= end {
            // SAFETY: i + 8 <= end <= h.count; loadUnaligned has no alignment requirement.
            let w = raw.loadUnaligned(fromByteOffset: i, as: UInt64.self)
            let x0 = w ^ m0, x1 = w ^ m1, x2 = w ^ m2
            let z = ((x0 &- lo) & ~x0) | ((x1 &- lo) & ~x1) | ((x2 &- lo) & ~x2)
            if z & hi != 0 { break }
            i &+= 8
        }
        while i < end {
            // SAFETY: i < end <= h.count.
            let b = h[i]
            if b == b0 || b == b1 || b == b2 { return i }
            i &+= 1
        }
        return end
    }
}
