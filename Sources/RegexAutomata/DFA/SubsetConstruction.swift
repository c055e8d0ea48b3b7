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
        // State i of `table` is state `builderID[i]` of the builder; the table's order
        // is the breadth-first queue (`head` is the next state to expand).
        var table = StateKeyTable()
        var builderID: [Int] = []
        var head = 0

        func intern(_ found: (index: Int, isNew: Bool)?, _ builder: inout DenseDFABuilder) throws(AutomatonError) -> Int {
            guard let found else { return DenseDFABuilder.dead }
            if !found.isNew { return builderID[found.index] }
            let id = builder.addState(patterns: table.patterns(found.index).map { Int($0) })
            builderID.append(id)
            // The keys are working memory of the construction, counted against
            // maxTableBytes like the table itself. Without it a long periodic literal
            // (`abc` × 3000: 9,000 states holding up to 3,000 NFA states each) stays
            // within maxStates yet takes minutes and hundreds of MB.
            if table.storageBytes > limits.maxTableBytes { throw AutomatonError(.tableTooLarge(limit: limits.maxTableBytes)) }
            if builder.stateCount > limits.maxStates || builder.stateCount % 64 == 0 {
                try builder.checkSize(against: limits)
            }
            return id
        }

        for context in StartContext.allCases {
            for anchored in [false, true] {
                let found: (index: Int, isNew: Bool)
                switch startKind {
                case .standard: found = det.start(context, anchored: anchored, in: &table)
                case .anchoredNonEmpty: found = det.start(context, anchored: true, nonEmpty: true, in: &table)
                case .anchoredOnly: found = det.start(context, anchored: true, in: &table)
                }
                builder.setStart(try intern(found, &builder), context: context, anchored: anchored)
            }
        }
        while head < table.count {
            let state = head
            let from = builderID[state]
            head += 1
            for symbol in 0..<classes.alphabetLength {
                let to = try intern(det.next(state, symbol: symbol, in: &table), &builder)
                if to != DenseDFABuilder.dead { builder.setTransition(from: from, class: symbol, to: to) }
            }
            if det.work > workBudget { throw AutomatonError(.tooManyStates(limit: limits.maxStates)) }
        }
        return try builder.build(matchTiming: .delayedByOne, limits: limits)
    }
}
