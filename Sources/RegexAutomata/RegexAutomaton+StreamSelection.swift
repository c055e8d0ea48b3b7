// Whether a haystack that arrives in pieces holds a match, with the forward DFA's state
// carried from one piece to the next: a line longer than any buffer (a 100 MB line
// with the match at its end) is judged whole in the memory of one piece. The answer
// is ``RegexAutomaton/isMatch(in:)-(UnsafeBufferPointer<UInt8>)`` of the pieces joined.

import AutomatonCore

extension RegexAutomaton {
    /// A forward scan over a haystack fed in pieces: ``feed(_:)`` each piece in order,
    /// then ``finish()`` says whether the whole haystack holds a match.
    ///
    /// ```swift
    /// var selection = try RegexCompiler().compile("a.*z$").streamSelection()
    /// selection.feed(Array("xa".utf8)); selection.feed(Array("bcz".utf8))
    /// selection.finish()   // true
    /// ```
    ///
    /// The haystack starts at the first piece (text start) and ends after the last
    /// (end of input), so `^`, `$`, `\A`, `\z` and `\b` see the joined haystack's
    /// edges, never a piece's. The scan stops looking once a match is certain or the
    /// DFA is dead; ``feed(_:)`` then only returns.
    ///
    /// - Complexity: O(bytes fed); memory is the DFA's (for the lazy engine, its cache
    ///   of at most `Limits.maxCacheBytes`).
    public struct StreamSelection {
        private enum Scan {
            case dense(DenseDFA, state: DenseDFA.StateID)
            case lazy(LazyDFA, LazyDFA.Cache, state: UInt32)
        }
        private var scan: Scan
        /// A match was seen: the answer is yes whatever follows.
        public private(set) var matched = false
        /// The DFA died before a match: the answer is no whatever follows.
        private var dead = false
        /// The lazy DFA's cache was cleared too often (``LazyDFA``'s give-up rule): the
        /// scan cannot go on, and ``finish()`` returns nil.
        public private(set) var gaveUp = false

        init(_ regex: RegexAutomaton) {
            switch regex.engine {
            case .dense(let forward, _):
                let start = forward.startState(.textStart, anchored: false)
                scan = .dense(forward, state: start)
                // A match state at the start: the empty match, reported at once only
                // by immediate automata (regex automata report it one step late).
                if forward.matchTiming == .immediate, forward.isMatchState(start) { matched = true }
            case .lazy(let forward, _):
                let cache = forward.makeCache()
                if let start = cache.start(.textStart, anchored: false) {
                    scan = .lazy(forward, cache, state: start)
                } else {
                    scan = .lazy(forward, cache, state: 0)
                    gaveUp = true
                }
            }
        }

        /// Scans the next piece of the haystack.
        public mutating func feed(_ piece: UnsafeBufferPointer<UInt8>) {
            guard !matched, !dead, !gaveUp, !piece.isEmpty else { return }
            switch scan {
            case .dense(let forward, var state):
                var effectiveness = PrefilterEffectiveness()
                var steps = 0
                var found = false
                let stopped = forward.scanForward(piece, in: 0..<piece.count, state: &state, prefilter: NoPrefilter?.none,
                                                  effectiveness: &effectiveness, leftmost: true, steps: &steps) { _, _ in
                    found = true
                    return false
                }
                if found { matched = true } else if stopped { dead = true }
                scan = .dense(forward, state: state)
            case .lazy(let forward, let cache, var state):
                let classes = forward.byteClasses
                for byte in piece {
                    let symbol = Int(classes[byte])
                    var next = cache.table[Int(state & ~LazyDFA.Cache.matchBit) &+ symbol]
                    if next == LazyDFA.Cache.unknown {
                        guard let computed = cache.next(state, symbol: symbol) else { gaveUp = true; break }
                        next = computed
                    }
                    state = next
                    cache.bytesSinceClear &+= 1
                    if state == 0 { dead = true; break }
                    if state & LazyDFA.Cache.matchBit != 0 { matched = true; break }
                }
                scan = .lazy(forward, cache, state: state)
            }
        }

        /// Scans the next piece of the haystack.
        public mutating func feed(_ piece: [UInt8]) {
            piece.withUnsafeBufferPointer { feed($0) }
        }

        /// Ends the haystack: whether it holds a match, or nil when the lazy DFA gave up
        /// (``gaveUp``).
        public mutating func finish() -> Bool? {
            if matched { return true }
            if gaveUp { return nil }
            if dead { return false }
            switch scan {
            case .dense(let forward, let state):
                matched = forward.isMatchState(forward.nextEOI(state))
            case .lazy(let forward, let cache, let state):
                let symbol = forward.byteClasses.eoi
                var next = cache.table[Int(state & ~LazyDFA.Cache.matchBit) &+ symbol]
                if next == LazyDFA.Cache.unknown {
                    guard let computed = cache.next(state, symbol: symbol) else { gaveUp = true; return nil }
                    next = computed
                }
                matched = next != 0 && next & LazyDFA.Cache.matchBit != 0
            }
            return matched
        }
    }

    /// A scan that judges a haystack fed in pieces (``StreamSelection``).
    public func streamSelection() -> StreamSelection { StreamSelection(self) }
}
