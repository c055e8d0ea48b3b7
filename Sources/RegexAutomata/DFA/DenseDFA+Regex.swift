// The two scan loops a regex needs on a core DenseDFA built with delayed matching:
// the forward scan for the leftmost-first match end, and the reverse scan for the
// start of a given pattern's match. Same loops as DenseDFA+Search in the core, plus
// a step counter (for the linear-time tests), a pattern filter in reverse, and in
// forward the prefix prefilter (regex-automata's scheme, dfa/search.rs): when the
// unanchored scan is back in its start state no match is under way, so the scan jumps
// to the prefilter's next candidate. Each byte is still stepped at most once, so a
// scan stays O(n) whatever the candidates; a prefilter that jumps too little is
// turned off for the rest of the scan (PrefilterRun).

import AutomatonCore
import LiteralAutomata

extension DenseDFA {
    /// Forward scan of `haystack[from...]` to the end (then end-of-input); returns the
    /// last match before the dead state. Adds the number of transitions to `steps`.
    ///
    /// With `prefilter` (unanchored scans of a DFA with one unanchored start state,
    /// see ``RegexPrefilter``) the scan skips from its start state to the next
    /// candidate; the result is the same.
    @inlinable
    func regexSearchForward(
        _ haystack: UnsafeBufferPointer<UInt8>, from: Int, anchored: Bool, earliest: Bool,
        steps: inout Int
    ) -> MatchEnd? {
        var run = PrefilterRun()
        return regexSearchForward(haystack, from: from, anchored: anchored, earliest: earliest,
                                  prefilter: nil, run: &run, steps: &steps)
    }

    /// The forward scan with a prefix prefilter; `run` carries its on/off judgement
    /// from one scan of a search to the next.
    @inlinable
    func regexSearchForward(
        _ haystack: UnsafeBufferPointer<UInt8>, from: Int, anchored: Bool, earliest: Bool,
        prefilter: RegexPrefilter?, run: inout PrefilterRun, steps: inout Int
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
                var stepped = 0
                // The state the loop leaves on to ask the prefilter; never a state id
                // (ids are below the table size) when there is no prefilter.
                var prefilterStart = StateID.max
                if let prefilter, !anchored, !run.isOff {
                    prefilterStart = start
                    guard let c = prefilter.prefixes.find(in: haystack, from: i) else { return (nil, 0) }
                    run.record(from: i, to: c, longest: prefilter.prefixes.longestPrefix)
                    i = c
                }
                while i < n {
                    // SAFETY: i < n = haystack.count; state is a valid row start and a
                    // class is below the stride, so the index is inside the table.
                    state = t[Int(state) &+ Int(classes[Int(haystack[i])])]
                    i &+= 1
                    stepped &+= 1
                    if state <= maxSpecial || state == prefilterStart {
                        if state == prefilterStart && last == nil {
                            // Back in the start state with nothing under way: no match
                            // starts before the next candidate.
                            // SAFETY (prefilter!): prefilterStart is a state only with one.
                            guard let c = prefilter.unsafelyUnwrapped.prefixes.find(in: haystack, from: i)
                            else { return (last, stepped) }
                            run.record(from: i, to: c, longest: prefilter.unsafelyUnwrapped.prefixes.longestPrefix)
                            if run.isOff { prefilterStart = StateID.max }
                            i = c
                            continue
                        }
                        if state == 0 { return (last, stepped) }
                        last = MatchEnd(pattern: firstPattern(of: state), end: i &- 1)
                        if earliest { return (last, stepped) }
                    }
                }
                state = t[Int(state) &+ eoi]
                if state != 0 && state <= maxSpecial { last = MatchEnd(pattern: firstPattern(of: state), end: n) }
                return (last, stepped &+ 1)
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
