// One literal (grep -F with one pattern, a regex that is one literal): the rare-byte
// prefilter (memchr on the pattern's rarest byte, or the SIMD pair scan, verified)
// while its candidates are sparse, and KMP's overlapping automaton — the core's
// forward loop — as the worst-case-linear fallback; then the selection of leftmost,
// non-overlapping, whole-word matches.

import AutomatonCore

/// A class: engines hold it in enums whose every `switch` would copy a struct of
/// tables field by field (PERF: `match -c the`, 12 % of instructions in memcpy).
///
/// One literal: KMP's overlapping automaton plus the selection of leftmost,
/// non-overlapping, whole-word matches. (With a single pattern, leftmost-first and
/// leftmost-longest coincide, and occurrences arrive in start order.)
package final class SingleLiteralSearcher: Sendable {
    package let kmp: KMP
    package let dfa: DenseDFA
    let length: Int
    let wholeWord: Bool
    package let leftmost: Bool
    /// `memchr` on the pattern's rarest byte plus verification; nil for the empty
    /// pattern or when prefilters are off. KMP stays the worst-case-linear fallback.
    let rareByte: RareBytePrefilter?

    /// A searcher for `pattern`; `leftmost` selects non-overlapping matches (either
    /// leftmost kind: with one pattern they coincide), `prefilter` the rare-byte scan.
    package init(_ pattern: [UInt8], asciiCaseInsensitive: Bool, wholeWord: Bool, leftmost: Bool,
                 prefilter: Bool, limits: Limits) throws(AutomatonError) {
        kmp = try KMP(pattern, matchKind: .overlapping, asciiCaseInsensitive: asciiCaseInsensitive,
                      wholeWord: false, prefilter: false, limits: limits)
        dfa = kmp.denseDFA
        length = pattern.count
        self.wholeWord = wholeWord
        self.leftmost = leftmost
        rareByte = prefilter && !pattern.isEmpty
            ? RareBytePrefilter(pattern, asciiCaseInsensitive: asciiCaseInsensitive) : nil
    }

    /// The prefilter kernel ("rare-byte memmem"), or nil when KMP steps every byte (for
    /// the search strategy's name).
    package var prefilterKernel: String? { rareByte == nil ? nil : "rare-byte memmem" }

    package func appendMatches(in haystack: UnsafeBufferPointer<UInt8>, to out: inout [Match]) {
        forEachMatch(in: haystack, from: 0) { out.append($0); return true }
    }

    /// Calls `body` for each selected match starting at or after `from`, in order;
    /// `body` returns false to stop.
    package func forEachMatch(in haystack: UnsafeBufferPointer<UInt8>, from start0: Int, _ body: (Match) -> Bool) {
        var nextAllowed = start0
        var stopped = false
        let length = self.length, wholeWord = self.wholeWord, leftmost = self.leftmost
        // Selection over occurrences in start order: whole words, then leftmost
        // non-overlapping.
        func offer(_ start: Int) {
            let end = start &+ length
            if wholeWord, !(isASCIIWordBoundary(haystack, at: start) && isASCIIWordBoundary(haystack, at: end)) { return }
            if leftmost {
                if start < nextAllowed { return }
                nextAllowed = end
            }
            if !body(Match(pattern: 0, start: start, end: end)) { stopped = true }
        }
        var from = start0
        if let rareByte {
            // PERF: Benchmarks/scripts/literal_throughput.py 'match 1 words'.
            var budget = RareBytePrefilter.CandidateBudget(from: start0)
            scan: while true {
                switch rareByte.step(in: haystack, from: from, budget: &budget) {
                case .exhausted:
                    return
                case .gaveUp(let at):
                    // Candidates too frequent: KMP finishes in O(n).
                    from = at
                    break scan
                case .found(let start):
                    offer(start)
                    if stopped { return }
                    from = start &+ 1
                    if leftmost && nextAllowed > from { from = nextAllowed }
                    // Occurrences themselves more often than one per 16 bytes: KMP.
                    if budget.exceeded(at: from) { break scan }
                }
            }
        }
        dfa.forEachMatchEnd(haystack, in: from..<haystack.count) { end, _ in
            offer(end - length)
            return !stopped
        }
    }

    /// grep's line question for a literal that is not a whole word: calls `body` with the
    /// first occurrence in each record of `h` (records end with `delimiter`, which the
    /// literal does not contain) from `start` on, skipping the rest of a record after
    /// its occurrence. Returns nil when done (or `body` stopped), or, when candidates
    /// came too often for the pair scan, the position from which the caller searches on
    /// with ``forEachMatch(in:from:_:)`` (KMP: linear time).
    package func forEachRecordWithOccurrence(
        in h: UnsafeBufferPointer<UInt8>, from start: Int, delimiter byte: UInt8, _ body: (Match) -> Bool
    ) -> Int? {
        guard !wholeWord, let rareByte else { return start }
        var from = start
        while from < h.count {
            // A fresh budget per gap between records with an occurrence: only failed
            // candidates in one gap count towards giving up.
            var budget = RareBytePrefilter.CandidateBudget(from: from)
            switch rareByte.step(in: h, from: from, budget: &budget) {
            case .exhausted:
                return nil
            case .gaveUp(let at):
                return at
            case .found(let s):
                if !body(Match(pattern: 0, start: s, end: s &+ length)) { return nil }
                guard let next = Memchr.find(byte, in: h, from: s &+ length) else { return nil }
                from = next &+ 1
            }
        }
        return nil
    }
}
