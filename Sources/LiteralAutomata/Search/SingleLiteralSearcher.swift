// One literal (grep -F with one pattern, a regex that is one literal): the rare-byte
// prefilter (memchr on the pattern's rarest byte, or the SIMD pair scan, verified)
// while its candidates are sparse, and KMP's overlapping automaton — the core's
// forward loop — as the worst-case-linear fallback; then the selection of leftmost,
// non-overlapping, whole-word matches.

import AutomatonCore

/// One literal: KMP's overlapping automaton plus the selection of leftmost,
/// non-overlapping, whole-word matches. (With a single pattern, leftmost-first and
/// leftmost-longest coincide, and occurrences arrive in start order.)
package struct SingleLiteralSearcher: Sendable {
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
            var candidates = 0
            var tooMany = false
            while let start = rareByte.nextOccurrence(in: haystack, from: from, candidates: &candidates) {
                offer(start)
                if stopped { return }
                from = start &+ 1
                if leftmost && nextAllowed > from { from = nextAllowed }
                // Candidates more often than one per 16 bytes: verification would
                // dominate (and is O(n·m) at worst), so let KMP finish in O(n).
                if candidates > 64 && candidates &* 16 > from &- start0 { tooMany = true; break }
            }
            if !tooMany { return }
        }
        dfa.forEachMatchEnd(haystack, in: from..<haystack.count) { end, _ in
            offer(end - length)
            return !stopped
        }
    }
}
