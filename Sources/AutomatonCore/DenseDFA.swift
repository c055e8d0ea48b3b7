/// A deterministic finite automaton (Σ, Q, q0, F, δ) stored as one flat, dense
/// transition table: the representation every Turnstile matcher runs on.
///
/// - Σ is the byte alphabet compressed to ``ByteClasses`` plus one end-of-input
///   symbol; each state's row has ``stride`` entries (a power of two ≥ the alphabet
///   length), so a transition is `table[state + class]`.
/// - Q is numbered so the hot loop leaves the fast path on one comparison: the dead
///   state is 0, the match states come next, and every other state follows.
///   State ids are *pre-multiplied* by the stride: the id of state *k* is `k * stride`.
/// - q0 is one of eight start states, chosen by what precedes the search position
///   (``StartContext``) and whether the search is anchored.
/// - F (the match states) each carry the ordered list of patterns they report,
///   highest priority first.
/// - ``matchTiming`` says whether entering a match state after byte *i* means a
///   match ending at *i + 1* (``MatchTiming/immediate``, literal automata) or at *i*
///   (``MatchTiming/delayedByOne``, regex automata, whose look-ahead — `$`, `\b` —
///   needs to see the next byte or end-of-input first).
///
/// Build one with ``DenseDFABuilder``; a built automaton is immutable and `Sendable`.
///
/// - Complexity: search is O(n) in the haystack with one table load per byte;
///   memory is `stateCount * stride * 4` bytes.
public struct DenseDFA: Sendable {
    /// Pre-multiplied state id: `index * stride`. The dead state is 0.
    public typealias StateID = UInt32

    /// How match states relate to match ends; see ``DenseDFA``.
    public enum MatchTiming: UInt32, Sendable, Hashable {
        /// Entering a match state after consuming byte *i* reports a match ending at *i + 1*.
        case immediate = 0
        /// Entering a match state after consuming byte *i* (or end-of-input at *n*)
        /// reports a match ending at *i*.
        case delayedByOne = 1
    }

    /// The alphabet.
    public let byteClasses: ByteClasses
    /// Row width in table entries: the next power of two ≥ `byteClasses.alphabetLength`.
    public let stride: Int
    /// log2(stride).
    public let strideShift: Int
    /// |Q|, including the dead state.
    public let stateCount: Int
    /// How match states map to match ends.
    public let matchTiming: MatchTiming
    /// Number of patterns the automaton was built from (pattern ids are 0..<patternCount).
    public let patternCount: Int

    /// δ: `stateCount * stride` pre-multiplied ids; row 0 (dead) is all zeros; entries
    /// in a row past the alphabet length are 0. Every entry is a multiple of the
    /// stride and < `stateCount * stride`.
    @usableFromInline internal let table: [StateID]

    /// Start states indexed by `context.rawValue * 2 + (anchored ? 1 : 0)`.
    @usableFromInline internal let starts: [StateID]

    /// Highest pre-multiplied id of a match state; match states are exactly
    /// `1 * stride ... maxMatchID`. 0 when there are none.
    public let maxMatchID: StateID

    /// `patternOffsets[k]..<patternOffsets[k+1]` indexes `patternList` for match state
    /// index k+1 (k = 0 for the first match state). Each list is non-empty.
    @usableFromInline internal let patternOffsets: [UInt32]
    @usableFromInline internal let patternList: [UInt32]

    @usableFromInline
    internal init(
        byteClasses: ByteClasses, stride: Int, strideShift: Int, stateCount: Int,
        matchTiming: MatchTiming, patternCount: Int, table: [StateID], starts: [StateID],
        maxMatchID: StateID, patternOffsets: [UInt32], patternList: [UInt32]
    ) {
        self.byteClasses = byteClasses
        self.stride = stride
        self.strideShift = strideShift
        self.stateCount = stateCount
        self.matchTiming = matchTiming
        self.patternCount = patternCount
        self.table = table
        self.starts = starts
        self.maxMatchID = maxMatchID
        self.patternOffsets = patternOffsets
        self.patternList = patternList
    }

    /// The dead state: once entered, no match can follow.
    public static let deadState: StateID = 0

    /// Number of match states (|F|).
    @inlinable public var matchStateCount: Int { Int(maxMatchID) >> strideShift }

    /// Bytes of memory held by the transition table and match lists.
    public var memoryBytes: Int {
        table.count * MemoryLayout<StateID>.stride
            + (patternOffsets.count + patternList.count) * MemoryLayout<UInt32>.stride
            + 256 + starts.count * 4
    }

    // MARK: Low-level stepping, for callers that drive chunks themselves.

    /// The start state for a search whose preceding context is `context`.
    @inlinable
    public func startState(_ context: StartContext = .textStart, anchored: Bool = false) -> StateID {
        starts[context.rawValue &* 2 &+ (anchored ? 1 : 0)]
    }

    /// The start state for a search beginning at `position` of `haystack`
    /// (the context is taken from the byte before it).
    @inlinable
    public func startState(in haystack: UnsafeBufferPointer<UInt8>, at position: Int, anchored: Bool) -> StateID {
        startState(StartContext(before: position, in: haystack), anchored: anchored)
    }

    /// δ(state, byte).
    @inlinable
    public func next(_ state: StateID, _ byte: UInt8) -> StateID {
        // SAFETY: state is a valid pre-multiplied id (< stateCount*stride) and the
        // class is < stride, so the index is inside the table.
        table.withUnsafeBufferPointer { $0[Int(state) &+ Int(byteClasses[byte])] }
    }

    /// δ(state, end-of-input).
    @inlinable
    public func nextEOI(_ state: StateID) -> StateID {
        table[Int(state) &+ byteClasses.eoi]
    }

    /// δ(state, class) for a class index (0..<alphabetLength).
    @inlinable
    public func next(_ state: StateID, class symbol: Int) -> StateID {
        table[Int(state) &+ symbol]
    }

    /// `true` when `state` is the dead state.
    @inlinable public func isDeadState(_ state: StateID) -> Bool { state == 0 }

    /// `true` when `state` is a match state.
    @inlinable public func isMatchState(_ state: StateID) -> Bool { state != 0 && state <= maxMatchID }

    /// `true` for the dead state and match states: the states the fast loop stops at.
    @inlinable public func isSpecialState(_ state: StateID) -> Bool { state <= maxMatchID }

    /// The patterns a match state reports, highest priority first (empty otherwise).
    @inlinable
    public func patterns(of state: StateID) -> ArraySlice<UInt32> {
        guard isMatchState(state) else { return [] }
        let k = Int(state >> UInt32(strideShift)) &- 1
        return patternList[Int(patternOffsets[k])..<Int(patternOffsets[k &+ 1])]
    }

    /// The highest-priority pattern a match state reports.
    @inlinable
    public func firstPattern(of state: StateID) -> PatternID {
        let k = Int(state >> UInt32(strideShift)) &- 1
        return Int(patternList[Int(patternOffsets[k])])
    }

    /// Index of a state (0..<stateCount) from its pre-multiplied id.
    @inlinable public func index(of state: StateID) -> Int { Int(state) >> strideShift }

    /// Pre-multiplied id from a state index.
    @inlinable public func id(ofIndex index: Int) -> StateID { StateID(index << strideShift) }

    /// Runs `body` with direct, unchecked access to the table, for search loops in
    /// other modules. Entries are pre-multiplied ids; index with `state + class`.
    @inlinable
    package func withUnsafeTable<R>(_ body: (UnsafeBufferPointer<StateID>) throws -> R) rethrows -> R {
        try table.withUnsafeBufferPointer(body)
    }

    /// Runs `body` with the byte → class map (256 entries).
    @inlinable
    package func withUnsafeClassMap<R>(_ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        try byteClasses.map.withUnsafeBufferPointer(body)
    }
}

/// What precedes a search position; selects among a DFA's start states so
/// look-behind assertions (`^`, `(?m)^`, `\b`) can be decided before the first byte.
public enum StartContext: Int, Sendable, CaseIterable {
    /// The search starts at offset 0.
    case textStart = 0
    /// The previous byte is `\n`.
    case lineStart = 1
    /// The previous byte is an ASCII word byte `[0-9A-Za-z_]`.
    case wordByte = 2
    /// Any other previous byte.
    case otherByte = 3

    /// The context of `position` in `haystack`.
    @inlinable
    public init(before position: Int, in haystack: UnsafeBufferPointer<UInt8>) {
        if position == 0 { self = .textStart; return }
        self.init(previousByte: haystack[position &- 1])
    }

    /// The context after `byte`.
    @inlinable
    public init(previousByte byte: UInt8) {
        if byte == 0x0A { self = .lineStart }
        else if isASCIIWordByte(byte) { self = .wordByte }
        else { self = .otherByte }
    }
}
