// The prefilter a literal engine chose, once, when it was built (LiteralEngine.
// makePrefilter): memchr-family over the start bytes when at most three bytes leave
// the start state, Teddy for up to 64 patterns of 2+ bytes, else none.

/// The prefilter a literal engine runs in front of its automaton.
enum LiteralPrefilter: Sendable {
    /// At most three bytes leave the start state: memchr / memchr2 / memchr3 over them.
    case startBytes(StartBytePrefilter)
    /// Up to 64 patterns of at least 2 bytes: the Teddy scan.
    case teddy(Teddy)

    /// The first position in `from..<end` where a match may start (the automaton may
    /// leave its start state), or `end`.
    @inline(__always)
    func find(_ h: UnsafeBufferPointer<UInt8>, _ from: Int, _ end: Int) -> Int {
        switch self {
        case .startBytes(let p): return p.find(h, from, end)
        case .teddy(let p): return p.find(h, from, end)
        }
    }

    /// The same question in the shared answer type.
    func candidate(in h: UnsafeBufferPointer<UInt8>, from: Int) -> PrefilterCandidate {
        let i = find(h, from, h.count)
        return i < h.count ? .possibleStart(i) : .none
    }
}
