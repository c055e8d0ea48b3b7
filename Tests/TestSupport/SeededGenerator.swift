/// A small, fast, deterministic random generator (SplitMix64) for differential and
/// property tests: the same seed gives the same sequence on every platform, so a
/// failure prints its seed and replays exactly.
///
/// The seed comes from `TURNSTILE_SEED` when set (to replay a failure), otherwise
/// from the caller's fixed default, which is what CI uses.
public struct SeededGenerator: RandomNumberGenerator, Sendable {
    public private(set) var state: UInt64
    /// The seed this generator started from; print it in failure messages.
    public let seed: UInt64

    public init(seed: UInt64) {
        self.seed = seed
        self.state = seed
    }

    /// A generator seeded from `TURNSTILE_SEED` if set, else from `defaultSeed`.
    public init(defaultSeed: UInt64) {
        if let text = Environment.value("TURNSTILE_SEED"), let s = UInt64(text) {
            self.init(seed: s)
        } else {
            self.init(seed: defaultSeed)
        }
    }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
