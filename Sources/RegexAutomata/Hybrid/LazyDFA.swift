// LazyDFA: the subset construction run on demand during a search, with the states
// found so far kept in a bounded cache that is cleared when full.
//
// Source: RE2's DFA (R. Cox, "Regular Expression Matching in the Wild", 2010) and
// Rust's regex-automata `hybrid` module. The transition function is the same
// ``Determinizer`` the full DFA uses, so both give identical results.
//
// Known limits: when the cache is cleared too often (fewer than 10 bytes searched
// per state built since the last clear, after at least 3 clears), the search gives
// up and the caller falls back to the ``PikeVM``, as RE2 falls back to its NFA.

import AutomatonCore

/// A DFA determinized lazily, for patterns whose full DFA exceeds the size limits.
///
/// The automaton itself is immutable and `Sendable`; the states are built into a
/// ``LazyDFA/Cache`` that each search owns (``RegexAutomaton`` creates one per call),
/// so searches never share mutable state.
///
/// ```swift
/// let lazy = LazyDFA(nfa: try ThompsonNFA([hir]), limits: Limits(maxCacheBytes: 1 << 20))
/// let cache = lazy.makeCache()
/// ```
///
/// - Complexity: no build cost beyond the NFA; search O(n) amortized while the
///   cache holds the working set, each new state costing O(NFA size); memory is
///   bounded by `limits.maxCacheBytes`.
public struct LazyDFA: Sendable {
    /// The NFA being determinized.
    public let nfa: ThompsonNFA
    let startKind: DFAStartKind
    let byteClasses: ByteClasses
    /// The cache budget in bytes.
    public let maxCacheBytes: Int

    public init(nfa: ThompsonNFA, limits: Limits = Limits()) {
        self.init(nfa: nfa, startKind: nfa.isReversed ? .anchoredOnly : .standard, limits: limits)
    }

    init(nfa: ThompsonNFA, startKind: DFAStartKind, limits: Limits) {
        self.nfa = nfa
        self.startKind = startKind
        self.byteClasses = nfa.byteClassSet().byteClasses()
        self.maxCacheBytes = limits.maxCacheBytes
    }

    /// A fresh, empty cache for one search (or several, on one thread).
    public func makeCache() -> Cache { Cache(self) }

    /// Lazily built states and transitions. Not `Sendable`: one per search.
    public final class Cache {
        /// High bit of a state id: the state is a match state.
        static let matchBit: UInt32 = 0x8000_0000
        /// A transition not computed yet.
        static let unknown: UInt32 = 0xFFFF_FFFF

        let dfa: LazyDFA
        var det: Determinizer
        let width: Int
        /// The states built since the last clear; state i's id is `i * width` (plus matchBit).
        var keys = StateKeyTable(capacity: 1024)
        /// `keys.count * width` entries: a tagged id (index * width, plus matchBit) or unknown.
        var table: [UInt32] = []
        var starts: [UInt32]
        var memory = 0
        var bytesSinceClear = 0
        var statesAtClear = 0
        /// How many times the cache was cleared.
        public private(set) var clearCount = 0
        /// States built so far, over all clears.
        public private(set) var statesBuilt = 0

        init(_ dfa: LazyDFA) {
            self.dfa = dfa
            self.width = dfa.byteClasses.alphabetLength
            self.det = Determinizer(
                nfa: dfa.nfa, matchKind: dfa.nfa.isReversed ? .all : .leftmostFirst,
                byteClasses: dfa.byteClasses)
            self.starts = [UInt32](repeating: Cache.unknown, count: 10)
            reset()
        }

        private func reset() {
            keys.removeAll()
            table.removeAll(keepingCapacity: true)
            for i in starts.indices { starts[i] = Cache.unknown }
            // Index 0: the dead state, every transition to itself (a key no
            // determinized state has: previous 255).
            _ = keys.intern(seeds: [], previous: 255, suppressEmptyMatch: false, patterns: [])
            table.append(contentsOf: repeatElement(0, count: width))
            memory = width * 4
        }

        /// The tagged id of state `found.index`, making its row when it is new.
        private func add(_ found: (index: Int, isNew: Bool)) -> UInt32 {
            let i = found.index
            let id = UInt32(i * width) | (keys.isMatch(i) ? Cache.matchBit : 0)
            if found.isNew {
                table.append(contentsOf: repeatElement(Cache.unknown, count: width))
                // The key's bytes twice, as when each key was held by an array and a
                // dictionary: the cache's clearing rhythm stays as it was tuned.
                memory += width * 4 + 2 * ((keys.seedCount(i) + keys.patternRange(i).count) * 4 + 64)
                statesBuilt += 1
            }
            return id
        }

        /// Clears the cache when over budget; returns false when the search should give up.
        private func makeRoom(keeping current: inout UInt32) -> Bool {
            guard memory > dfa.maxCacheBytes else { return true }
            let states = keys.count
            if clearCount >= 3 && bytesSinceClear < 10 * max(statesAtClear, states) { return false }
            let index = Int(current & ~Cache.matchBit) / width
            let seeds = Array(keys.seeds(index)), patterns = keys.patterns(index)
            let previous = keys.previous(index), suppressEmptyMatch = keys.suppressEmptyMatch(index)
            clearCount += 1
            statesAtClear = states
            bytesSinceClear = 0
            reset()
            // Keep the state the search is in (the dead state is always index 0).
            if index != 0 {
                current = add(keys.intern(seeds: seeds, previous: previous,
                                          suppressEmptyMatch: suppressEmptyMatch, patterns: patterns))
            }
            return true
        }

        /// The start state (computing it if needed); nil when the search must give up.
        func start(_ context: StartContext, anchored: Bool) -> UInt32? {
            let slot = context.rawValue * 2 + (anchored ? 1 : 0)
            if starts[slot] != Cache.unknown { return starts[slot] }
            var dummy: UInt32 = 0
            if !makeRoom(keeping: &dummy) { return nil }
            let found: (index: Int, isNew: Bool)
            switch dfa.startKind {
            case .standard: found = det.start(context, anchored: anchored, in: &keys)
            case .anchoredNonEmpty: found = det.start(context, anchored: true, nonEmpty: true, in: &keys)
            case .anchoredOnly: found = det.start(context, anchored: true, in: &keys)
            }
            let id = add(found)
            starts[slot] = id
            return id
        }

        /// δ(state, symbol), computing and caching it; nil when the search must give up.
        func next(_ state: UInt32, symbol: Int) -> UInt32? {
            var from = state
            if !makeRoom(keeping: &from) { return nil }
            let to: UInt32
            if let found = det.next(Int(from & ~Cache.matchBit) / width, symbol: symbol, in: &keys) {
                to = add(found)
            } else {
                to = 0
            }
            table[Int(from & ~Cache.matchBit) + symbol] = to
            return to
        }

        /// The highest-priority pattern of a match state.
        func firstPattern(of state: UInt32) -> Int { Int(keys.firstPattern(Int(state & ~Cache.matchBit) / width)) }
        /// Whether a match state reports `pattern`.
        func reports(_ state: UInt32, pattern: Int) -> Bool {
            keys.reports(Int(state & ~Cache.matchBit) / width, pattern: UInt32(pattern))
        }
    }

    /// Outcome of a lazy search.
    enum Outcome {
        case found(MatchEnd?)
        case gaveUp
    }

    /// Forward scan of `haystack[from...]` (to the end); the last match before the
    /// dead state, as ``DenseDFA/searchForward(_:in:anchored:earliest:)``.
    func searchForward(
        _ cache: Cache, _ haystack: UnsafeBufferPointer<UInt8>, from: Int,
        anchored: Bool, earliest: Bool, steps: inout Int
    ) -> Outcome {
        guard var state = cache.start(StartContext(before: from, in: haystack), anchored: anchored) else { return .gaveUp }
        var last: MatchEnd? = nil
        let n = haystack.count
        var i = from
        while true {
            let symbol = i < n ? Int(byteClasses[haystack[i]]) : byteClasses.eoi
            var t = cache.table[Int(state & ~Cache.matchBit) &+ symbol]
            if t == Cache.unknown {
                guard let computed = cache.next(state, symbol: symbol) else { return .gaveUp }
                t = computed
            }
            state = t
            steps &+= 1
            cache.bytesSinceClear &+= 1
            if state == 0 { break }
            if state & Cache.matchBit != 0 {
                last = MatchEnd(pattern: cache.firstPattern(of: state), end: i)
                if earliest { break }
            }
            if i == n { break }
            i &+= 1
        }
        return .found(last)
    }

    /// Reverse scan from `range.upperBound` down to `range.lowerBound` (then the byte
    /// before it or end-of-input); the leftmost position where `pattern` matches.
    func searchReverse(
        _ cache: Cache, _ haystack: UnsafeBufferPointer<UInt8>, in range: Range<Int>,
        pattern: Int, steps: inout Int
    ) -> Outcome {
        var aliveBelow = false
        return searchReverse(cache, haystack, in: range, pattern: pattern, steps: &steps, aliveBelow: &aliveBelow)
    }

    /// ``searchReverse(_:_:in:pattern:steps:)`` that also says, in `aliveBelow`,
    /// whether the automaton was short of the dead state after the byte before
    /// `range.lowerBound`: a match may start before the range (see
    /// ``DenseDFA/searchReverse(_:in:anchored:earliest:pattern:steps:aliveBelow:)``).
    func searchReverse(
        _ cache: Cache, _ haystack: UnsafeBufferPointer<UInt8>, in range: Range<Int>,
        pattern: Int, steps: inout Int, aliveBelow: inout Bool
    ) -> Outcome {
        aliveBelow = false
        let context: StartContext = range.upperBound >= haystack.count
            ? .textStart : StartContext(previousByte: haystack[range.upperBound])
        guard var state = cache.start(context, anchored: true) else { return .gaveUp }
        var last: MatchEnd? = nil
        var i = range.upperBound
        while true {
            // At i, feed the byte before i (or end-of-input at 0).
            let symbol: Int
            if i > range.lowerBound || i > 0 {
                symbol = Int(byteClasses[haystack[i - 1]])
            } else {
                symbol = byteClasses.eoi
            }
            var t = cache.table[Int(state & ~Cache.matchBit) &+ symbol]
            if t == Cache.unknown {
                guard let computed = cache.next(state, symbol: symbol) else { return .gaveUp }
                t = computed
            }
            state = t
            steps &+= 1
            cache.bytesSinceClear &+= 1
            if state == 0 { break }
            if state & Cache.matchBit != 0, cache.reports(state, pattern: pattern) {
                last = MatchEnd(pattern: pattern, end: i)
            }
            if i == range.lowerBound {
                aliveBelow = i > 0
                break
            }
            i &-= 1
        }
        return .found(last)
    }
}
