// The search loops every matcher shares. Each is one concrete loop over an
// UnsafeBufferPointer: no allocation, no existentials, no ARC traffic per byte.
// Special states (dead and match) are numbered 0...maxMatchID, so the fast path
// leaves on one comparison.

extension DenseDFA {
    /// The fast path of every forward loop: steps `state` over `h[i..<end]` until it
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
        // The loops below read the haystack without bounds checks in release builds.
        precondition(range.lowerBound >= 0 && range.upperBound <= haystack.count, "search range outside the haystack")
        var state = startState(in: haystack, at: range.lowerBound, anchored: anchored)
        var last: MatchEnd? = nil
        let immediate = matchTiming == .immediate
        if immediate, isMatchState(state) {
            last = MatchEnd(pattern: firstPattern(of: state), end: range.lowerBound)
            if earliest { return last }
        }
        let maxSpecial = maxMatchID
        let found: MatchEnd?? = table.withUnsafeBufferPointer { t in
            byteClasses.map.withUnsafeBufferPointer { classes in
                guard let h = haystack.baseAddress else { return nil }
                var i = range.lowerBound
                let end = range.upperBound
                // SAFETY: range lies within the haystack (checked above); see stepUntilSpecial.
                while Self.stepUntilSpecial(t.baseAddress!, classes.baseAddress!, h, state: &state, i: &i,
                                            end: end, maxSpecial: maxSpecial) {
                    if state == 0 { return .some(last) }
                    last = MatchEnd(pattern: firstPattern(of: state), end: immediate ? i : i &- 1)
                    if earliest { return .some(last) }
                }
                return nil
            }
        }
        if let done = found { return done }
        if !immediate {
            let symbol = range.upperBound < haystack.count
                ? Int(byteClasses[haystack[range.upperBound]]) : byteClasses.eoi
            state = table[Int(state) &+ symbol]
            if isMatchState(state) { last = MatchEnd(pattern: firstPattern(of: state), end: range.upperBound) }
        }
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
        // The loops below read the haystack without bounds checks in release builds.
        precondition(range.lowerBound >= 0 && range.upperBound <= haystack.count, "search range outside the haystack")
        let context: StartContext = range.upperBound >= haystack.count
            ? .textStart : StartContext(previousByte: haystack[range.upperBound])
        var state = startState(context, anchored: anchored)
        var last: MatchEnd? = nil
        let immediate = matchTiming == .immediate
        if immediate, isMatchState(state) {
            last = MatchEnd(pattern: firstPattern(of: state), end: range.upperBound)
            if earliest { return last }
        }
        let maxSpecial = maxMatchID
        let found: MatchEnd?? = table.withUnsafeBufferPointer { t in
            byteClasses.map.withUnsafeBufferPointer { classes in
                var i = range.upperBound
                let start = range.lowerBound
                while i > start {
                    i &-= 1
                    // SAFETY: start <= i < haystack.count; see searchForward.
                    state = t[Int(state) &+ Int(classes[Int(haystack[i])])]
                    if state <= maxSpecial {
                        if state == 0 { return .some(last) }
                        last = MatchEnd(pattern: firstPattern(of: state), end: immediate ? i : i &+ 1)
                        if earliest { return .some(last) }
                    }
                }
                return nil
            }
        }
        if let done = found { return done }
        if !immediate {
            let symbol = range.lowerBound > 0
                ? Int(byteClasses[haystack[range.lowerBound - 1]]) : byteClasses.eoi
            state = table[Int(state) &+ symbol]
            if isMatchState(state) { last = MatchEnd(pattern: firstPattern(of: state), end: range.lowerBound) }
        }
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
        _ body: (_ end: Int, _ patterns: ArraySlice<UInt32>) -> Bool
    ) {
        // The loops below read the haystack without bounds checks in release builds.
        precondition(range.lowerBound >= 0 && range.upperBound <= haystack.count, "search range outside the haystack")
        var state = startState(in: haystack, at: range.lowerBound, anchored: anchored)
        let immediate = matchTiming == .immediate
        if immediate, isMatchState(state) {
            if !body(range.lowerBound, patterns(of: state)) { return }
        }
        let maxSpecial = maxMatchID
        let stopped: Bool = table.withUnsafeBufferPointer { t in
            byteClasses.map.withUnsafeBufferPointer { classes in
                guard let h = haystack.baseAddress else { return false }
                var i = range.lowerBound
                let end = range.upperBound
                // SAFETY: see searchForward.
                while Self.stepUntilSpecial(t.baseAddress!, classes.baseAddress!, h, state: &state, i: &i,
                                            end: end, maxSpecial: maxSpecial) {
                    if state == 0 { return true }
                    if !body(immediate ? i : i &- 1, patterns(of: state)) { return true }
                }
                return false
            }
        }
        if stopped || immediate { return }
        let symbol = range.upperBound < haystack.count
            ? Int(byteClasses[haystack[range.upperBound]]) : byteClasses.eoi
        state = table[Int(state) &+ symbol]
        if isMatchState(state) { _ = body(range.upperBound, patterns(of: state)) }
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
