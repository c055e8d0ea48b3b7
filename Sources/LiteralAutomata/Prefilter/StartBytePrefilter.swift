// A start-byte prefilter: when at most three distinct bytes can take an automaton out
// of its start state, scan for them with memchr / memchr2 / memchr3 (Memchr.swift)
// instead of stepping the automaton through bytes that would leave it in the
// start state anyway. It only ever skips bytes on which the start state loops to
// itself, so it cannot change a result; the tests run every search with and without it.

/// Finds the next byte that can leave the start state.
struct StartBytePrefilter: Sendable, Hashable {
    /// The distinct start bytes (1...3), ascending.
    let bytes: [UInt8]
    /// The kernel family memchr2 / memchr3 run.
    let level: SIMDLevel

    /// A prefilter for the given start bytes, or nil when there are none or more than three.
    init?(startBytes: [UInt8], level: SIMDLevel = .best) {
        guard (1...3).contains(startBytes.count) else { return nil }
        self.bytes = startBytes.sorted()
        self.level = level
    }

    /// The first index in `from..<end` holding a start byte, or `end`.
    @inline(__always)
    func find(_ h: UnsafeBufferPointer<UInt8>, _ from: Int, _ end: Int) -> Int {
        if bytes.count == 1 { return Memchr.find(bytes[0], in: h, from: from, end: end) }
        let b0 = bytes[0], b1 = bytes[1], b2 = bytes.count == 3 ? bytes[2] : bytes[1]
        return Memchr.find3(b0, b1, b2, in: h, from: from, end: end, level: level)
    }
}
