import AutomatonCore

/// A small, fast, deterministic random generator (SplitMix64) for differential and
/// property tests: the same seed gives the same sequence on every platform, so a
/// failure prints its seed and replays exactly.
///
/// The seed comes from `TURNSTILE_SEED` when set (to replay a failure), otherwise
/// from the caller's fixed default, which is what CI uses.
public struct SeededGenerator: RandomNumberGenerator, Sendable {
    /// The package's one generator (``SplitMix64``), so a seed replays the same sequence here,
    /// in cross-validation and in the benchmarks.
    private var generator: SplitMix64
    public var state: UInt64 { generator.state }
    /// The seed this generator started from; print it in failure messages.
    public let seed: UInt64

    public init(seed: UInt64) {
        self.seed = seed
        self.generator = SplitMix64(seed: seed)
    }

    /// A generator seeded from `TURNSTILE_SEED` if set, else from `defaultSeed`.
    public init(defaultSeed: UInt64) {
        if let text = Environment.value("TURNSTILE_SEED"), let s = UInt64(text) {
            self.init(seed: s)
        } else {
            self.init(seed: defaultSeed)
        }
    }

    public mutating func next() -> UInt64 { generator.next() }
}
