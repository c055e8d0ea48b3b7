// SplitMix64 (Steele, Lea & Flood, "Fast splittable pseudorandom number generators",
// OOPSLA 2014): the one seeded generator of the package. Cross-validation deals folds
// with it, the tests draw random patterns and haystacks with it, the benchmarks make
// their word lists and text with it — so a seed means the same sequence everywhere,
// on every platform and release (the standard library's generator and shuffle may
// change between releases).

/// A small, fast, seedable pseudo-random generator with a fixed algorithm.
///
/// ```swift
/// var generator = SplitMix64(seed: 1)
/// let roll = generator.below(6)                 // 0..<6, the same on every machine
/// let x = Int.random(in: 0..<10, using: &generator)
/// ```
///
/// - Complexity: O(1) per number.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    /// The generator's whole state; the next number is a function of it alone.
    public var state: UInt64

    /// A generator starting from `seed`.
    public init(seed: UInt64) { state = seed }

    /// The next 64 random bits.
    @inlinable
    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// A number in `0..<bound` (`bound > 0`), by the plain modulo: the tiny bias is
    /// irrelevant for tests and benchmarks and keeps old seeds' sequences.
    @inlinable
    public mutating func below(_ bound: Int) -> Int { Int(next() % UInt64(bound)) }
}
