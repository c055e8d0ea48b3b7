/// Size limits every builder honours. Exceeding one is a typed ``AutomatonError``
/// naming the limit, never an out-of-memory kill.
///
/// ```swift
/// let limits = Limits(maxStates: 10_000, maxTableBytes: 1 << 20)
/// ```
public struct Limits: Sendable, Hashable {
    /// Most states a dense automaton may have.
    public var maxStates: Int
    /// Most bytes the dense transition table may take.
    public var maxTableBytes: Int
    /// Most bytes a lazily built automaton may keep in its cache before clearing it.
    public var maxCacheBytes: Int

    /// The defaults: 4 million states, a 256 MiB table, a 16 MiB lazy cache.
    public init(
        maxStates: Int = 4_000_000,
        maxTableBytes: Int = 256 << 20,
        maxCacheBytes: Int = 16 << 20
    ) {
        self.maxStates = maxStates
        self.maxTableBytes = maxTableBytes
        self.maxCacheBytes = maxCacheBytes
    }

    /// No practical limit (for tests and trusted inputs).
    public static let unlimited = Limits(maxStates: .max, maxTableBytes: .max, maxCacheBytes: .max)
}
