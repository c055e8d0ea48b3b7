// Subset construction: ThompsonNFA → DenseDFA, exploring every reachable state of
// the shared ``Determinizer`` breadth-first.
//
// Source: M. Rabin, D. Scott, "Finite Automata and Their Decision Problems" (1959);
// leftmost-first ordering and delayed look-around after Rust's regex-automata
// (`dfa::determinize`). See DFA/Determinizer.swift for the state model.
//
// Known limits: the number of states can be exponential in the NFA size
// (`(a|b)*a(a|b){20}` needs 2^21); `Limits` stops the construction early with a typed
// error, and ``RegexCompiler`` then falls back to the lazy DFA.

import AutomatonCore

/// Which start states a determinized automaton gets.
enum DFAStartKind: Sendable {
    /// Unanchored starts run the unanchored NFA start, anchored ones the anchored start.
    case standard
    /// Every start is anchored and ignores an empty match at the start position: the
    /// global loop's "non-empty match anchored at p" retry.
    case anchoredNonEmpty
    /// Every start is anchored (reverse automata are only ever run anchored).
    case anchoredOnly
}

extension ThompsonNFA {
    /// The full DFA of this NFA, with ``DenseDFA/MatchTiming/delayedByOne``.
    ///
    /// A forward NFA gives a leftmost-first automaton: run it with
    /// `searchForward(earliest: false)` to get the end of the leftmost-first match.
    /// A reversed NFA gives an anchored automaton that reports every match; run it with
    /// `searchReverse(anchored: true, earliest: false)` from a match end to get the
    /// leftmost start.
    ///
    /// ```swift
    /// let nfa = try ThompsonNFA([.literal(Array("abc".utf8))])
    /// let dfa = try nfa.determinized()
    /// dfa.isMatch(in: "xxabc")  // true
    /// ```
    ///
    /// - Throws: ``AutomatonError`` when the automaton exceeds `limits`.
    /// - Complexity: build O(states × byte classes × NFA size) time, states × stride × 4
    ///   bytes; search O(n).
    public func determinized(limits: Limits = Limits()) throws(AutomatonError) -> DenseDFA {
        try determinized(startKind: isReversed ? .anchoredOnly : .standard, limits: limits)
    }

    /// The subset construction from `startKind`'s start states. With a `workBudget`
    /// (``Determinizer/work`` units) the construction gives up with
    /// ``AutomatonError/Kind/tooManyStates(limit:)`` once it has spent the budget,
    /// however few states it has: a pattern the full DFA cannot hold is then known
    /// early, not after building up to `limits.maxStates` states.
    func determinized(startKind: DFAStartKind, limits: Limits, workBudget: Int = .max) throws(AutomatonError) -> DenseDFA {
        let classes = byteClassSet().byteClasses()
        var det = Determinizer(nfa: self, matchKind: isReversed ? .all : .leftmostFirst, byteClasses: classes)
        var builder = DenseDFABuilder(byteClasses: classes, patternCount: patternCount)
        var ids: [DFAStateKey: Int] = [:]
        var queue: [DFAStateKey] = []
        var head = 0
        // Bytes of state keys held by `ids` and `queue`: working memory of the
        // construction, counted against maxTableBytes like the table itself. Without it
        // a long periodic literal (`abc` × 3000: 9,000 states holding up to 3,000 NFA
        // states each) stays within maxStates yet takes minutes and hundreds of MB.
        var keyBytes = 0

        func intern(_ key: DFAStateKey?, _ builder: inout DenseDFABuilder) throws(AutomatonError) -> Int {
            guard let key else { return DenseDFABuilder.dead }
            if let id = ids[key] { return id }
            let id = builder.addState(patterns: key.patterns.map { Int($0) })
            ids[key] = id
            queue.append(key)
            keyBytes &+= (key.seeds.count &+ key.patterns.count) &* 4 &+ 64
            if keyBytes > limits.maxTableBytes { throw AutomatonError(.tableTooLarge(limit: limits.maxTableBytes)) }
            if builder.stateCount > limits.maxStates || builder.stateCount % 64 == 0 {
                try builder.checkSize(against: limits)
            }
            return id
        }

        for context in StartContext.allCases {
            for anchored in [false, true] {
                let key: DFAStateKey
                switch startKind {
                case .standard: key = det.startKey(context, anchored: anchored)
                case .anchoredNonEmpty: key = det.startKey(context, anchored: true, nonEmpty: true)
                case .anchoredOnly: key = det.startKey(context, anchored: true)
                }
                builder.setStart(try intern(key, &builder), context: context, anchored: anchored)
            }
        }
        while head < queue.count {
            let key = queue[head]
            let from = ids[key]!
            head += 1
            for symbol in 0..<classes.alphabetLength {
                let to = try intern(det.next(key, symbol: symbol), &builder)
                if to != DenseDFABuilder.dead { builder.setTransition(from: from, class: symbol, to: to) }
            }
            if det.work > workBudget { throw AutomatonError(.tooManyStates(limit: limits.maxStates)) }
        }
        return try builder.build(matchTiming: .delayedByOne, limits: limits)
    }
}
