/// Emits the states and transitions of a ``DenseDFA``: the one target that KMP,
/// Aho-Corasick, subset construction and the typed event machine all build into.
///
/// States are plain indices while building; state 0 is the dead state and exists from
/// the start; every transition not set leads to it. ``build(matchTiming:limits:)``
/// renumbers the states (dead, then match states, then the rest) and pre-multiplies
/// their ids.
///
/// ```swift
/// var b = DenseDFABuilder(byteClasses: .singletons, patternCount: 1)
/// let start = b.addState()
/// let seenA = b.addState(patterns: [0])
/// b.setTransition(from: start, byte: UInt8(ascii: "a"), to: seenA)
/// b.setStart(start)
/// let dfa = try b.build()
/// dfa.isMatch(in: "xa")   // false: the DFA is anchored in effect (no self-loop on start)
/// ```
///
/// - Complexity: O(states × alphabet) memory while building.
public struct DenseDFABuilder: Sendable {
    /// The alphabet the transitions are expressed in.
    public let byteClasses: ByteClasses
    /// Number of patterns; every pattern id given to ``addState(patterns:)`` is below it.
    public let patternCount: Int
    /// Row width while building: `byteClasses.alphabetLength`.
    private let width: Int
    /// Transitions by state index, `width` per state.
    private var rows: [UInt32]
    /// The patterns of state i are `patternPool[patternStart[i]..<patternEnd[i]]`
    /// (empty for non-match states). One pool rather than an array per state: a
    /// 100,000-word list has 174,000 states, and an array each took 7.6 MB of small
    /// allocations on top of the trie's (issue 28). A replaced list stays in the pool.
    private var patternStart: [UInt32]
    private var patternEnd: [UInt32]
    private var patternPool: [UInt32] = []
    /// Start state indices, by `context * 2 + anchored`.
    private var starts: [Int]

    public init(byteClasses: ByteClasses, patternCount: Int) {
        self.byteClasses = byteClasses
        self.patternCount = patternCount
        self.width = byteClasses.alphabetLength
        self.rows = [UInt32](repeating: 0, count: byteClasses.alphabetLength)
        self.patternStart = [0]
        self.patternEnd = [0]
        self.starts = [Int](repeating: 0, count: 8)
    }

    /// The dead state's index.
    public static let dead = 0

    /// Number of states so far, including the dead state.
    public var stateCount: Int { patternStart.count }

    /// Makes room for `count` states in all, so a builder that knows its size up front
    /// (the literal trie) grows no table by doubling.
    public mutating func reserveStates(_ count: Int) {
        rows.reserveCapacity(count * width)
        patternStart.reserveCapacity(count)
        patternEnd.reserveCapacity(count)
    }

    /// Adds a state that reports `patterns` (highest priority first; empty for a
    /// non-match state) and returns its index. All its transitions lead to the dead state.
    @discardableResult
    public mutating func addState(patterns: [PatternID] = []) -> Int {
        rows.append(contentsOf: repeatElement(0, count: width))
        patternStart.append(UInt32(patternPool.count))
        for p in patterns { patternPool.append(UInt32(p)) }
        patternEnd.append(UInt32(patternPool.count))
        return patternStart.count - 1
    }

    /// Replaces the patterns a state reports.
    public mutating func setPatterns(_ state: Int, _ patterns: [PatternID]) {
        patternStart[state] = UInt32(patternPool.count)
        for p in patterns { patternPool.append(UInt32(p)) }
        patternEnd[state] = UInt32(patternPool.count)
    }

    /// The patterns a state reports.
    public func patterns(of state: Int) -> [PatternID] { storedPatterns(of: state).map { Int($0) } }

    /// The stored pattern list of a state.
    private func storedPatterns(of state: Int) -> ArraySlice<UInt32> {
        patternPool[Int(patternStart[state])..<Int(patternEnd[state])]
    }

    /// `true` when the state reports a pattern.
    private func isMatchState(_ state: Int) -> Bool { patternEnd[state] != patternStart[state] }

    /// δ(from, symbol) := to, where symbol is a class index or `byteClasses.eoi`.
    @inlinable
    public mutating func setTransition(from: Int, class symbol: Int, to: Int) {
        setRaw(from &* byteClasses.alphabetLength &+ symbol, UInt32(to))
    }

    @usableFromInline
    internal mutating func setRaw(_ index: Int, _ value: UInt32) { rows[index] = value }

    /// δ(from, class of byte) := to.
    public mutating func setTransition(from: Int, byte: UInt8, to: Int) {
        setTransition(from: from, class: Int(byteClasses[byte]), to: to)
    }

    /// δ(from, c) := to for every class c that holds a byte of `bytes`.
    public mutating func setTransition(from: Int, bytes: ClosedRange<UInt8>, to: Int) {
        var lastClass = -1
        for byte in bytes {
            let c = Int(byteClasses[byte])
            if c != lastClass { setTransition(from: from, class: c, to: to); lastClass = c }
        }
    }

    /// δ(from, end-of-input) := to.
    public mutating func setEOITransition(from: Int, to: Int) {
        setTransition(from: from, class: byteClasses.eoi, to: to)
    }

    /// δ(state, symbol).
    public func transition(from state: Int, class symbol: Int) -> Int {
        Int(rows[state * width + symbol])
    }

    /// Makes `state` the start state for the given context(s) and anchoring; `nil`
    /// means all of them.
    public mutating func setStart(_ state: Int, context: StartContext? = nil, anchored: Bool? = nil) {
        for ctx in StartContext.allCases where context == nil || context == ctx {
            for a in [false, true] where anchored == nil || anchored == a {
                starts[ctx.rawValue * 2 + (a ? 1 : 0)] = state
            }
        }
    }

    /// The start state index for a context and anchoring.
    public func start(_ context: StartContext, anchored: Bool) -> Int {
        starts[context.rawValue * 2 + (anchored ? 1 : 0)]
    }

    /// The table stride a DFA over `classes` gets.
    public static func stride(for classes: ByteClasses) -> (stride: Int, shift: Int) {
        var shift = 0
        while (1 << shift) < classes.alphabetLength { shift += 1 }
        return (1 << shift, shift)
    }

    /// Throws when the automaton built so far already exceeds `limits`, so builders
    /// can stop early instead of exhausting memory.
    public func checkSize(against limits: Limits) throws(AutomatonError) {
        let n = stateCount
        if n > limits.maxStates { throw AutomatonError(.tooManyStates(limit: limits.maxStates)) }
        let stride = Self.stride(for: byteClasses).stride
        let (bytes, overflow) = n.multipliedReportingOverflow(by: stride * 4)
        if overflow || bytes > limits.maxTableBytes {
            throw AutomatonError(.tableTooLarge(limit: limits.maxTableBytes))
        }
    }

    /// Renumbers the states (dead first, then match states in index order, then the
    /// rest in index order), pre-multiplies the ids and returns the immutable automaton.
    ///
    /// - Throws: ``AutomatonError`` when a limit is exceeded or a pattern id is out of range.
    public func build(matchTiming: DenseDFA.MatchTiming = .immediate, limits: Limits = Limits()) throws(AutomatonError) -> DenseDFA {
        try buildReportingIDs(matchTiming: matchTiming, limits: limits).automaton
    }

    /// ``build(matchTiming:limits:)``, also telling where each builder state went:
    /// `ids[i]` is the pre-multiplied id of builder state `i` in the automaton, so a
    /// caller that keeps its own state names (the event machine) maps them explicitly
    /// instead of assuming the renumbering.
    package func buildReportingIDs(matchTiming: DenseDFA.MatchTiming = .immediate, limits: Limits = Limits())
        throws(AutomatonError) -> (automaton: DenseDFA, ids: [DenseDFA.StateID])
    {
        try checkSize(against: limits)
        let n = stateCount
        for i in 0..<n {
            if i == 0, isMatchState(i) { throw AutomatonError(.invalidBuild("the dead state cannot be a match state")) }
            for p in storedPatterns(of: i) where Int(p) >= patternCount {
                throw AutomatonError(.invalidBuild("pattern id \(p) is not below the pattern count \(patternCount)"))
            }
        }
        for (i, target) in rows.enumerated() where Int(target) >= n {
            throw AutomatonError(.invalidBuild("state \(i / width) has a transition to state \(target), but there are only \(n) states"))
        }
        for (slot, start) in starts.enumerated() where start >= n {
            throw AutomatonError(.invalidBuild("start state \(slot) is state \(start), but there are only \(n) states"))
        }
        let (stride, shift) = Self.stride(for: byteClasses)
        // Pre-multiplied ids are UInt32, and the table length must be one too (the
        // loader checks ids against it).
        let (entries, overflow) = n.multipliedReportingOverflow(by: stride)
        guard !overflow, entries <= Int(UInt32.max) else {
            throw AutomatonError(.invalidBuild("\(n) states × stride \(stride) do not fit 32-bit state ids"))
        }
        // New order: dead, match states, others.
        var order: [Int] = [0]
        order.reserveCapacity(n)
        for i in 1..<n where isMatchState(i) { order.append(i) }
        let matchCount = order.count - 1
        for i in 1..<n where !isMatchState(i) { order.append(i) }
        var newIndex = [UInt32](repeating: 0, count: n)
        for (new, old) in order.enumerated() { newIndex[old] = UInt32(new) }

        var table = [UInt32](repeating: 0, count: n * stride)
        var offsets: [UInt32] = [0]
        var list: [UInt32] = []
        for (new, old) in order.enumerated() {
            if old != 0 {
                let src = old * width, dst = new * stride
                for c in 0..<width { table[dst + c] = newIndex[Int(rows[src + c])] << UInt32(shift) }
            }
            if new >= 1, new <= matchCount {
                list.append(contentsOf: storedPatterns(of: old))
                offsets.append(UInt32(list.count))
            }
        }
        let startIDs = starts.map { newIndex[$0] << UInt32(shift) }
        let automaton = DenseDFA(
            byteClasses: byteClasses, stride: stride, strideShift: shift, stateCount: n,
            matchTiming: matchTiming, patternCount: patternCount, table: table, starts: startIDs,
            maxMatchID: UInt32(matchCount) << UInt32(shift), patternOffsets: offsets, patternList: list
        )
        return (automaton, newIndex.map { $0 << UInt32(shift) })
    }
}

extension DenseDFA {
    /// A builder holding this automaton's states (same indices), for transformations
    /// such as minimization.
    public func toBuilder() -> DenseDFABuilder {
        var b = DenseDFABuilder(byteClasses: byteClasses, patternCount: patternCount)
        for i in 1..<stateCount {
            b.addState(patterns: patterns(of: id(ofIndex: i)).map { Int($0) })
        }
        let width = byteClasses.alphabetLength
        for i in 1..<stateCount {
            for c in 0..<width {
                b.setTransition(from: i, class: c, to: index(of: table[i * stride + c]))
            }
        }
        for ctx in StartContext.allCases {
            for a in [false, true] {
                b.setStart(index(of: startState(ctx, anchored: a)), context: ctx, anchored: a)
            }
        }
        return b
    }
}
