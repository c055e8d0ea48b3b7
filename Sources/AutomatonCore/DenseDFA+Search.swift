// The search loops of a dense table: one forward loop (`scanForward`) and one reverse
// loop (`scanReverse`); every search of every module that runs a DenseDFA — the core's
// searches below, the literal engines' leftmost and overlapping scans, the regex's
// forward and reverse scans — is one of these two, specialized where it is called
// (regex-automata's dfa/search.rs, RE2's InlinedSearchLoop). What varies is a small
// policy, fixed at compile time: the prefilter's type (`NoPrefilter` compiles to the
// plain loop), whether the prefilter stays on after a match (leftmost searches stop
// calling it at their first match), and what a match state does (`onMatch`: remember
// the last end, report every end, stop at the first). Each loop is one concrete loop
// over raw pointers: no allocation, no existentials, no ARC traffic per byte. Special
// states (dead and match) are numbered 0...maxMatchID, so the fast path leaves on one
// comparison; with a prefilter, the start state is a second stop (aho-corasick's
// automaton.rs): the loop asks the prefilter only there.

extension DenseDFA {
    /// The fast path of the forward loop: steps `state` over `h[i..<end]` until it
    /// enters a special state (dead or match: `state <= maxSpecial`) or the range
    /// ends. Returns `true` when it stopped on a special state, with `i` just past the
    /// byte that entered it.
    ///
    /// One table load and one comparison per byte, unrolled four times so the loop
    /// condition is checked once per four bytes; no bounds checks, no reference
    /// counting (the caller passes raw pointers).
    ///
    /// - Precondition: `0 <= i <= end <= h`'s length; `state` a valid pre-multiplied id;
    ///   `t` and `classes` this automaton's table and class map.
    // PERF: Benchmarks/scripts/dfa_loop.c (the same loop in C) and
    // Benchmarks/scripts/literal_throughput.py 'match 10 words'.
    @inlinable @inline(__always)
    package static func stepUntilSpecial(
        _ t: UnsafePointer<StateID>, _ classes: UnsafePointer<UInt8>, _ h: UnsafePointer<UInt8>,
        state: inout StateID, i: inout Int, end: Int, maxSpecial: StateID
    ) -> Bool {
        var s = state
        var k = i
        // SAFETY (all loads): k + 3 < end inside the unrolled loop and k < end in the
        // tail, so haystack reads are in range; every table entry is a valid row start
        // and every class is < stride, so table reads are in range.
        while k &+ 4 <= end {
            let s0 = t[Int(s) &+ Int(classes[Int(h[k])])]
            if s0 <= maxSpecial { state = s0; i = k &+ 1; return true }
            let s1 = t[Int(s0) &+ Int(classes[Int(h[k &+ 1])])]
            if s1 <= maxSpecial { state = s1; i = k &+ 2; return true }
            let s2 = t[Int(s1) &+ Int(classes[Int(h[k &+ 2])])]
            if s2 <= maxSpecial { state = s2; i = k &+ 3; return true }
            let s3 = t[Int(s2) &+ Int(classes[Int(h[k &+ 3])])]
            k &+= 4
            if s3 <= maxSpecial { state = s3; i = k; return true }
            s = s3
        }
        while k < end {
            s = t[Int(s) &+ Int(classes[Int(h[k])])]
            k &+= 1
            if s <= maxSpecial { state = s; i = k; return true }
        }
        state = s
        i = k
        return false
    }

    /// ``stepUntilSpecial(_:_:_:state:i:end:maxSpecial:)`` with a second stop: the
    /// state `restart` (the start state, where a prefilter is asked for the next
    /// candidate). Two comparisons per byte, unrolled the same way.
    @inlinable @inline(__always)
    package static func stepUntilSpecialOrRestart(
        _ t: UnsafePointer<StateID>, _ classes: UnsafePointer<UInt8>, _ h: UnsafePointer<UInt8>,
        state: inout StateID, i: inout Int, end: Int, maxSpecial: StateID, restart: StateID
    ) -> Bool {
        var s = state
        var k = i
        // SAFETY: as in stepUntilSpecial.
        while k &+ 2 <= end {
            let s0 = t[Int(s) &+ Int(classes[Int(h[k])])]
            if s0 <= maxSpecial || s0 == restart { state = s0; i = k &+ 1; return true }
            let s1 = t[Int(s0) &+ Int(classes[Int(h[k &+ 1])])]
            k &+= 2
            if s1 <= maxSpecial || s1 == restart { state = s1; i = k; return true }
            s = s1
        }
        while k < end {
            s = t[Int(s) &+ Int(classes[Int(h[k])])]
            k &+= 1
            if s <= maxSpecial || s == restart { state = s; i = k; return true }
        }
        state = s
        i = k
        return false
    }

    /// The forward loop: steps `state` over `haystack[range]`, calling `onMatch` with
    /// each match state entered and the position just past the byte that entered it;
    /// `onMatch` returns `false` to stop.
    ///
    /// With a prefilter (and while ``PrefilterEffectiveness`` keeps it on), the loop
    /// asks it for the next candidate whenever it is in the state it started in — the
    /// caller passes a prefilter only when that state means "no match under way" (the
    /// one unanchored start state). With `leftmost`, the first match turns the
    /// prefilter off for the rest of the scan (a leftmost search is looking for where
    /// that match ends, not for another start).
    ///
    /// - Returns: `true` when the loop stopped early (the dead state, `onMatch`, or a
    ///   prefilter that found no candidate); `false` when it consumed the whole range,
    ///   leaving in `state` the state after its last byte (the caller feeds what comes
    ///   next: the byte after the range or end-of-input).
    /// - Precondition: `range` lies within `haystack` (the caller checked).
    /// - Complexity: O(range.count): each byte is stepped at most once, and prefilter
    ///   calls only move forward. `steps` grows by the number of bytes stepped.
    @inlinable @inline(__always)
    package func scanForward<P: SearchPrefilter>(
        _ haystack: UnsafeBufferPointer<UInt8>, in range: Range<Int>, state: inout StateID,
        prefilter: P?, effectiveness: inout PrefilterEffectiveness, leftmost: Bool, steps: inout Int,
        onMatch: (_ state: StateID, _ end: Int) -> Bool
    ) -> Bool {
        // The prefilter is unwrapped once and then borrowed by the loop: a copy per
        // call would retain and release the kernel's tables each time (PERF:
        // callgrind, 'free|win|winner|cash|prize' on 8 MiB: 188 K instructions of
        // value-witness copies).
        if P.self != NoPrefilter.self, let prefilter, !effectiveness.isOff {
            return scanForwardLoop(haystack, in: range, state: &state, prefilter: prefilter, restartAt: state,
                                   effectiveness: &effectiveness, leftmost: leftmost, steps: &steps, onMatch: onMatch)
        }
        return scanForwardLoop(haystack, in: range, state: &state, prefilter: NoPrefilter(), restartAt: StateID.max,
                               effectiveness: &effectiveness, leftmost: leftmost, steps: &steps, onMatch: onMatch)
    }

    /// The body of ``scanForward(_:in:state:prefilter:effectiveness:leftmost:steps:onMatch:)``:
    /// `restartAt` is the state at which `prefilter` is asked (`StateID.max`: never).
    @inlinable @inline(__always)
    package func scanForwardLoop<P: SearchPrefilter>(
        _ haystack: UnsafeBufferPointer<UInt8>, in range: Range<Int>, state: inout StateID,
        prefilter: P, restartAt: StateID, effectiveness: inout PrefilterEffectiveness, leftmost: Bool,
        steps: inout Int, onMatch: (_ state: StateID, _ end: Int) -> Bool
    ) -> Bool {
        let maxSpecial = maxMatchID
        let end = range.upperBound
        var i = range.lowerBound
        var jumped = 0
        // The state the loop leaves on to ask the prefilter; never a state id (ids are
        // below the table size) when there is none.
        var restart = restartAt
        let minimumSkip = PrefilterEffectiveness.minimumAverageSkip(longest: prefilter.longestLiteral)
        let stopped: Bool = table.withUnsafeBufferPointer { t in
            byteClasses.map.withUnsafeBufferPointer { classes in
                guard let h = haystack.baseAddress else { return false }
                let tp = t.baseAddress!, cp = classes.baseAddress!
                while true {
                    if P.self != NoPrefilter.self, state == restart {
                        // Back in the start state with nothing under way: no match
                        // starts before the next candidate.
                        let next = prefilter.find(haystack, from: i, end: end)
                        effectiveness.record(from: i, to: next, minimumAverageSkip: minimumSkip)
                        if effectiveness.isOff { restart = StateID.max }
                        jumped &+= next &- i
                        i = next
                        if i >= end { return true }
                    }
                    // SAFETY: range lies within the haystack; see stepUntilSpecial.
                    let hit = P.self != NoPrefilter.self && restart != StateID.max
                        ? Self.stepUntilSpecialOrRestart(tp, cp, h, state: &state, i: &i, end: end,
                                                         maxSpecial: maxSpecial, restart: restart)
                        : Self.stepUntilSpecial(tp, cp, h, state: &state, i: &i, end: end, maxSpecial: maxSpecial)
                    if !hit { return false }
                    if state > maxSpecial { continue }  // the restart state
                    if state == 0 { return true }
                    if leftmost { restart = StateID.max }
                    if !onMatch(state, i) { return true }
                }
            }
        }
        steps &+= i &- range.lowerBound &- jumped
        return stopped
    }

    /// The reverse loop: steps `state` over `haystack[range]` from its last byte down
    /// to its first, calling `onMatch` with each match state entered and the offset of
    /// the byte that entered it; `onMatch` returns `false` to stop.
    ///
    /// - Returns: `true` when the loop stopped early (the dead state or `onMatch`);
    ///   `false` when it consumed the whole range, with the state after its first
    ///   byte in `state`.
    /// - Precondition: `range` lies within `haystack` (the caller checked).
    /// - Complexity: O(range.count); `steps` grows by the number of bytes stepped.
    @inlinable @inline(__always)
    package func scanReverse(
        _ haystack: UnsafeBufferPointer<UInt8>, in range: Range<Int>, state: inout StateID,
        steps: inout Int, onMatch: (_ state: StateID, _ at: Int) -> Bool
    ) -> Bool {
        let maxSpecial = maxMatchID
        var i = range.upperBound
        let start = range.lowerBound
        let stopped: Bool = table.withUnsafeBufferPointer { t in
            byteClasses.map.withUnsafeBufferPointer { classes in
                while i > start {
                    i &-= 1
                    // SAFETY: start <= i < haystack.count; see stepUntilSpecial.
                    state = t[Int(state) &+ Int(classes[Int(haystack[i])])]
                    if state <= maxSpecial {
                        if state == 0 || !onMatch(state, i) { return true }
                    }
                }
                return false
            }
        }
        steps &+= range.upperBound &- i
        return stopped
    }

    /// Scans `haystack[range]` forward and returns the end of a match.
    ///
    /// - `earliest: true` stops at the first match state (the shortest end that proves
    ///   a match): for `isMatch` and filtering.
    /// - `earliest: false` keeps going until the dead state or the end of the range
    ///   and returns the last match seen: with a leftmost-first or leftmost-longest
    ///   automaton this is the end of the leftmost match.
    ///
    /// When the range ends before the haystack does, the byte after it (not
    /// end-of-input) is fed to a ``MatchTiming/delayedByOne`` automaton, so look-ahead
    /// sees the real context.
    ///
    /// - Precondition: `range` lies within `haystack` (checked once, before the loop).
    /// - Complexity: O(range.count).
    @inlinable
    public func searchForward(
        _ haystack: UnsafeBufferPointer<UInt8>, in range: Range<Int>,
        anchored: Bool = false, earliest: Bool = false
    ) -> MatchEnd? {
        var effectiveness = PrefilterEffectiveness()
        var steps = 0
        return searchForward(haystack, in: range, anchored: anchored, earliest: earliest,
                             prefilter: NoPrefilter?.none, effectiveness: &effectiveness, steps: &steps)
    }

    /// ``searchForward(_:in:anchored:earliest:)`` with a prefilter (unanchored scans
    /// only, of an automaton whose unanchored start state is the same in every start
    /// context and means "no match under way"), its effectiveness carried from one
    /// scan of a search to the next, and a count of the transitions taken.
    @inlinable @inline(__always)
    package func searchForward<P: SearchPrefilter>(
        _ haystack: UnsafeBufferPointer<UInt8>, in range: Range<Int>, anchored: Bool, earliest: Bool,
        prefilter: P?, effectiveness: inout PrefilterEffectiveness, steps: inout Int
    ) -> MatchEnd? {
        // The loops read the haystack without bounds checks in release builds.
        precondition(range.lowerBound >= 0 && range.upperBound <= haystack.count, "search range outside the haystack")
        var state = startState(in: haystack, at: range.lowerBound, anchored: anchored)
        var last: MatchEnd? = nil
        let immediate = matchTiming == .immediate
        if immediate, isMatchState(state) {
            last = MatchEnd(pattern: firstPattern(of: state), end: range.lowerBound)
            if earliest { return last }
        }
        // A prefilter only from a start state that is not a match already.
        let stopped = scanForward(haystack, in: range, state: &state, prefilter: anchored || last != nil ? nil : prefilter,
                                  effectiveness: &effectiveness, leftmost: true, steps: &steps) { s, i in
            last = MatchEnd(pattern: firstPattern(of: s), end: immediate ? i : i &- 1)
            return !earliest
        }
        if stopped || immediate { return last }
        let symbol = range.upperBound < haystack.count
            ? Int(byteClasses[haystack[range.upperBound]]) : byteClasses.eoi
        state = table[Int(state) &+ symbol]
        steps &+= 1
        if isMatchState(state) { last = MatchEnd(pattern: firstPattern(of: state), end: range.upperBound) }
        return last
    }

    /// Scans `haystack[range]` backward, from `range.upperBound` down, and returns the
    /// leftmost match *start* (as ``MatchEnd/end``) seen before the dead state — the
    /// companion of ``searchForward(_:in:anchored:earliest:)`` for an automaton built
    /// over reversed patterns.
    ///
    /// The start context is taken from the byte *after* the range (or text start at
    /// the end of the haystack), and past the range's left edge the byte before it
    /// (or end-of-input at offset 0) is fed.
    ///
    /// - Precondition: `range` lies within `haystack` (checked once, before the loop).
    /// - Complexity: O(range.count).
    @inlinable
    public func searchReverse(
        _ haystack: UnsafeBufferPointer<UInt8>, in range: Range<Int>,
        anchored: Bool = true, earliest: Bool = false
    ) -> MatchEnd? {
        var steps = 0
        return searchReverse(haystack, in: range, anchored: anchored, earliest: earliest, pattern: nil, steps: &steps)
    }

    /// ``searchReverse(_:in:anchored:earliest:)`` counting the transitions taken, and,
    /// with `pattern`, looking only at match states that report it (the start of one
    /// pattern's match in a set).
    @inlinable @inline(__always)
    package func searchReverse(
        _ haystack: UnsafeBufferPointer<UInt8>, in range: Range<Int>, anchored: Bool, earliest: Bool,
        pattern: PatternID?, steps: inout Int
    ) -> MatchEnd? {
        var aliveBelow = false
        return searchReverse(haystack, in: range, anchored: anchored, earliest: earliest, pattern: pattern,
                             steps: &steps, aliveBelow: &aliveBelow)
    }

    /// ``searchReverse(_:in:anchored:earliest:pattern:steps:)`` that also says, in
    /// `aliveBelow`, whether the automaton was still short of the dead state after the
    /// range's first byte (and the byte before it): a match may start before
    /// `range.lowerBound`. A search that bounds its reverse scans to stay linear (the
    /// reverse-suffix guard) gives way when it is.
    @inlinable @inline(__always)
    package func searchReverse(
        _ haystack: UnsafeBufferPointer<UInt8>, in range: Range<Int>, anchored: Bool, earliest: Bool,
        pattern: PatternID?, steps: inout Int, aliveBelow: inout Bool
    ) -> MatchEnd? {
        aliveBelow = false
        // The loops read the haystack without bounds checks in release builds.
        precondition(range.lowerBound >= 0 && range.upperBound <= haystack.count, "search range outside the haystack")
        let context: StartContext = range.upperBound >= haystack.count
            ? .textStart : StartContext(previousByte: haystack[range.upperBound])
        var state = startState(context, anchored: anchored)
        var last: MatchEnd? = nil
        let immediate = matchTiming == .immediate
        let single = patternCount == 1
        @inline(__always) func reports(_ s: StateID) -> PatternID? {
            guard let pattern, !single else { return firstPattern(of: s) }
            return patterns(of: s).contains(UInt32(pattern)) ? pattern : nil
        }
        if immediate, isMatchState(state), let p = reports(state) {
            last = MatchEnd(pattern: p, end: range.upperBound)
            if earliest { return last }
        }
        let stopped = scanReverse(haystack, in: range, state: &state, steps: &steps) { s, i in
            guard let p = reports(s) else { return true }
            last = MatchEnd(pattern: p, end: immediate ? i : i &+ 1)
            return !earliest
        }
        if stopped { return last }
        if immediate {
            aliveBelow = true
            return last
        }
        let symbol = range.lowerBound > 0
            ? Int(byteClasses[haystack[range.lowerBound - 1]]) : byteClasses.eoi
        state = table[Int(state) &+ symbol]
        steps &+= 1
        aliveBelow = state != 0
        if isMatchState(state), let p = reports(state) { last = MatchEnd(pattern: p, end: range.lowerBound) }
        return last
    }

    /// Calls `body` for every position where the automaton is in a match state,
    /// with the end offset and every pattern the state reports (overlapping
    /// semantics: with an unanchored automaton this is every occurrence).
    /// Stops at the dead state, or when `body` returns `false`.
    ///
    /// - Precondition: `range` lies within `haystack` (checked once, before the loop).
    /// - Complexity: O(range.count + matches × patterns per match).
    @inlinable
    public func forEachMatchEnd(
        _ haystack: UnsafeBufferPointer<UInt8>, in range: Range<Int>, anchored: Bool = false,
        _ body: (_ end: Int, _ patterns: UnsafeBufferPointer<UInt32>) -> Bool
    ) {
        var effectiveness = PrefilterEffectiveness()
        forEachMatchEnd(haystack, in: range, anchored: anchored, prefilter: NoPrefilter?.none,
                        effectiveness: &effectiveness, body)
    }

    /// ``forEachMatchEnd(_:in:anchored:_:)`` with a prefilter (unanchored scans of an
    /// automaton whose start state means "no match under way").
    @inlinable @inline(__always)
    package func forEachMatchEnd<P: SearchPrefilter>(
        _ haystack: UnsafeBufferPointer<UInt8>, in range: Range<Int>, anchored: Bool,
        prefilter: P?, effectiveness: inout PrefilterEffectiveness,
        _ body: (_ end: Int, _ patterns: UnsafeBufferPointer<UInt32>) -> Bool
    ) {
        // The loops read the haystack without bounds checks in release builds.
        precondition(range.lowerBound >= 0 && range.upperBound <= haystack.count, "search range outside the haystack")
        // The pattern lists are handed over as pointers into the table, not as
        // ArraySlices: a slice retains the shared list per match, and with --threads
        // the workers' retains and releases of that one reference count bounced its
        // cache line between cores (47 % of the cycles of `filter --threads 2`).
        patternOffsets.withUnsafeBufferPointer { offsets in
            patternList.withUnsafeBufferPointer { list in
                @inline(__always) func patterns(of state: StateID) -> UnsafeBufferPointer<UInt32> {
                    guard isMatchState(state) else { return UnsafeBufferPointer(start: nil, count: 0) }
                    let k = Int(state >> UInt32(strideShift)) &- 1
                    return UnsafeBufferPointer(rebasing: list[Int(offsets[k])..<Int(offsets[k &+ 1])])
                }
                var state = startState(in: haystack, at: range.lowerBound, anchored: anchored)
                let immediate = matchTiming == .immediate
                if immediate, isMatchState(state) {
                    if !body(range.lowerBound, patterns(of: state)) { return }
                }
                var steps = 0
                let stopped = scanForward(haystack, in: range, state: &state, prefilter: anchored ? nil : prefilter,
                                          effectiveness: &effectiveness, leftmost: false, steps: &steps) { s, i in
                    body(immediate ? i : i &- 1, patterns(of: s))
                }
                if stopped || immediate { return }
                let symbol = range.upperBound < haystack.count
                    ? Int(byteClasses[haystack[range.upperBound]]) : byteClasses.eoi
                state = table[Int(state) &+ symbol]
                if isMatchState(state) { _ = body(range.upperBound, patterns(of: state)) }
            }
        }
    }
}

// MARK: - Convenience over common haystack types

extension DenseDFA {
    /// `true` when the automaton matches anywhere in `haystack`.
    ///
    /// ```swift
    /// dfa.isMatch(in: "some text")
    /// ```
    /// - Complexity: O(n); stops at the first match.
    public func isMatch(in haystack: UnsafeBufferPointer<UInt8>) -> Bool {
        searchForward(haystack, in: 0..<haystack.count, earliest: true) != nil
    }

    /// `true` when the automaton matches anywhere in the bytes.
    public func isMatch(in haystack: [UInt8]) -> Bool {
        haystack.withUnsafeBufferPointer { isMatch(in: $0) }
    }

    /// `true` when the automaton matches anywhere in the string's UTF-8.
    public func isMatch(in haystack: String) -> Bool {
        withUTF8(haystack) { isMatch(in: $0) }
    }

    /// `true` when the automaton matches anywhere in raw memory.
    public func isMatch(in haystack: UnsafeRawBufferPointer) -> Bool {
        isMatch(in: haystack.bindMemory(to: UInt8.self))
    }

    /// The end of the earliest match: the first position at which a match is known.
    public func earliestMatchEnd(in haystack: [UInt8]) -> MatchEnd? {
        haystack.withUnsafeBufferPointer { searchForward($0, in: 0..<$0.count, earliest: true) }
    }

    /// The end of the earliest match in the string's UTF-8.
    public func earliestMatchEnd(in haystack: String) -> MatchEnd? {
        withUTF8(haystack) { searchForward($0, in: 0..<$0.count, earliest: true) }
    }

    /// Every (end, pattern) at which the automaton is in a match state, in order of
    /// end, then pattern priority.
    public func matchEnds(in haystack: [UInt8]) -> [MatchEnd] {
        haystack.withUnsafeBufferPointer { buffer in
            var result: [MatchEnd] = []
            forEachMatchEnd(buffer, in: 0..<buffer.count) { end, patterns in
                for p in patterns { result.append(MatchEnd(pattern: Int(p), end: end)) }
                return true
            }
            return result
        }
    }

    /// Every (end, pattern) in the string's UTF-8.
    public func matchEnds(in haystack: String) -> [MatchEnd] {
        matchEnds(in: Array(haystack.utf8))
    }
}
