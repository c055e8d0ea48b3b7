// The prefilter a literal engine chose, once, when it was built (LiteralEngine.
// makePrefilter): memchr-family over the start bytes when at most three bytes leave
// the start state, Teddy for up to 64 patterns of 2+ bytes, else none. Its loops ask
// it through AutomatonCore's `SearchPrefilter`, and switch it off by the core's one
// rule (`PrefilterEffectiveness`), measured against the longest pattern.

import AutomatonCore

/// The prefilter a literal engine runs in front of its automaton.
///
/// A class, so that handing it to a search loop is one retain rather than a copy of
/// the kernel's tables (PERF: callgrind, 'free|win|winner|cash|prize' on 8 MiB: the
/// struct's value-witness copies cost 188 K instructions, two per match).
final class LiteralPrefilter: SearchPrefilter, Sendable {
    enum Kernel: Sendable {
        /// At most three bytes leave the start state: memchr / memchr2 / memchr3 over them.
        case startBytes(StartBytePrefilter)
        /// Up to 64 patterns of at least 2 bytes: the Teddy scan.
        case teddy(Teddy)
    }

    let kernel: Kernel
    /// The longest pattern the engine reports: what a skip is judged against.
    let longestLiteral: Int

    init(kernel: Kernel, longestLiteral: Int) {
        self.kernel = kernel
        self.longestLiteral = longestLiteral
    }

    /// The first position in `from..<end` where a match may start (the automaton may
    /// leave its start state), or `end`.
    @inline(__always)
    func find(_ h: UnsafeBufferPointer<UInt8>, from: Int, end: Int) -> Int {
        switch kernel {
        case .startBytes(let p): return p.find(h, from, end)
        case .teddy(let p): return p.find(h, from, end)
        }
    }

    /// Which kernel runs ("memchr" over the start bytes, "teddy"), for the strategy's name.
    var kernelName: String {
        switch kernel {
        case .startBytes: return "memchr"
        case .teddy: return "teddy"
        }
    }

    /// The same question in the shared answer type.
    func candidate(in h: UnsafeBufferPointer<UInt8>, from: Int) -> PrefilterCandidate {
        let i = find(h, from: from, end: h.count)
        return i < h.count ? .possibleStart(i) : .none
    }
}
