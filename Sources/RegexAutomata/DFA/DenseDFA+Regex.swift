// The two scan loops a regex needs on a core DenseDFA built with delayed matching:
// the forward scan for the leftmost-first match end, and the reverse scan for the
// start of a given pattern's match. Same loops as DenseDFA+Search in the core, plus
// a step counter (for the linear-time tests) and a pattern filter in reverse.

import AutomatonCore

extension DenseDFA {
    /// Forward scan of `haystack[from...]` to the end (then end-of-input); returns the
    /// last match before the dead state. Adds the number of transitions to `steps`.
    @inlinable
    func regexSearchForward(
        _ haystack: UnsafeBufferPointer<UInt8>, from: Int, anchored: Bool, earliest: Bool,
        steps: inout Int
    ) -> MatchEnd? {
        let start = startState(in: haystack, at: from, anchored: anchored)
        let maxSpecial = maxMatchID
        let n = haystack.count
        let eoi = byteClasses.eoi
        let (last, taken): (MatchEnd?, Int) = withUnsafeTable { t in
            withUnsafeClassMap { classes in
                var state = start
                var last: MatchEnd? = nil
                var i = from
                while i < n {
                    // SAFETY: i < n = haystack.count; state is a valid row start and a
                    // class is below the stride, so the index is inside the table.
                    state = t[Int(state) &+ Int(classes[Int(haystack[i])])]
                    i &+= 1
                    if state <= maxSpecial {
                        if state == 0 { return (last, i &- from) }
                        last = MatchEnd(pattern: firstPattern(of: state), end: i &- 1)
                        if earliest { return (last, i &- from) }
                    }
                }
                state = t[Int(state) &+ eoi]
                if state != 0 && state <= maxSpecial { last = MatchEnd(pattern: firstPattern(of: state), end: n) }
                return (last, i &- from &+ 1)
            }
        }
        steps &+= taken
        return last
    }

    /// Reverse scan from `range.upperBound` down to `range.lowerBound` (then the
    /// byte before it, or end-of-input at 0); returns the leftmost position at which
    /// a match state reporting `pattern` was entered.
    @inlinable
    func regexSearchReverse(
        _ haystack: UnsafeBufferPointer<UInt8>, in range: Range<Int>, pattern: Int, steps: inout Int
    ) -> Int? {
        let context: StartContext = range.upperBound >= haystack.count
            ? .textStart : StartContext(previousByte: haystack[range.upperBound])
        let start = startState(context, anchored: true)
        let maxSpecial = maxMatchID
        let eoi = byteClasses.eoi
        let single = patternCount == 1
        let (last, taken): (Int?, Int) = withUnsafeTable { t in
            withUnsafeClassMap { classes in
                var state = start
                var last: Int? = nil
                var i = range.upperBound
                while i > 0 {
                    // SAFETY: 0 < i <= haystack.count; see regexSearchForward.
                    state = t[Int(state) &+ Int(classes[Int(haystack[i &- 1])])]
                    if state <= maxSpecial {
                        if state == 0 { return (last, range.upperBound &- i &+ 1) }
                        if single || patterns(of: state).contains(UInt32(pattern)) { last = i }
                    }
                    if i == range.lowerBound { return (last, range.upperBound &- i &+ 1) }
                    i &-= 1
                }
                state = t[Int(state) &+ eoi]
                if state != 0 && state <= maxSpecial && (single || patterns(of: state).contains(UInt32(pattern))) {
                    last = 0
                }
                return (last, range.upperBound &+ 1)
            }
        }
        steps &+= taken
        return last
    }
}
