// The line-candidate strategy (GNU grep's kwset + dfa, ripgrep's fast line search):
// for a line-oriented question — which lines hold a match (grep's -c, -l, -q, -v and
// plain lines) — find the next occurrence of a literal every match must contain (a
// prefix, an inner literal or a suffix; ``LiteralSet/required(of:)``) with a SIMD
// prefilter, widen it to its line, and run the forward DFA on that line only. Anchors
// and word boundaries are the DFA's to check on the line, so `^#`, `Holmes$`,
// `-w Holmes`, `\bmatch\b` and `-x 'Yes.'` keep their prefilter. A line that holds no
// match is skipped whole: the literal search resumes after it.
//
// Sound because every match contains one of the literals, and a match never crosses a
// line (line records: the caller checks `\n` cannot be in a match). Linear: every line
// is verified at most once, and the literal search only moves forward.

import AutomatonCore
import LiteralAutomata

/// Where the lines that may hold a match of a regex are: a required literal set and
/// the kernel that finds it.
///
/// ```swift
/// let hir = try RegexSyntax.parse("[A-Z][a-z]+ing", options: .init())
/// let lines = LineCandidates(hirs: [hir])!
/// lines.literals.literals   // ["ing"]
/// ```
package struct LineCandidates: Sendable {
    enum Finder: Sendable {
        /// One literal: the packed-pair memmem (exact occurrences).
        case single(RareBytePrefilter)
        /// Several: memchr, memmem on a common prefix, or Teddy (candidate positions).
        case prefixes(PrefixPrefilter)
    }

    /// The required literals.
    package let literals: LiteralSet
    let finder: Finder
    /// The regex is exactly its one literal, anchored at the line's start, end or both
    /// (`^#`, `Holmes$`, `^Yes\.$`): a line is decided at the occurrence itself, by the
    /// bytes next to it, with no DFA and no search for the line's edges — GNU grep's
    /// "\n#" and "Holmes\n" (PERF: perf_grep.py '^#', 'Holmes$').
    package let edges: LiteralEdges?

    /// Where a regex that is one literal must sit in its line.
    package struct LiteralEdges: Sendable, Equatable {
        package var atStart: Bool
        package var atEnd: Bool

        /// The edges of `hir` when it is `literal`, alone or between line anchors.
        static func of(_ hir: Hir, literal: [UInt8]) -> LiteralEdges? {
            var parts: [Hir]
            if case .concat(let items) = hir { parts = items } else { parts = [hir] }
            var edges = LiteralEdges(atStart: false, atEnd: false)
            if let first = parts.first, case .look(let look) = first, look == .lineStart || look == .textStart {
                edges.atStart = true
                parts.removeFirst()
            }
            if let last = parts.last, case .look(let look) = last, look == .lineEnd || look == .textEnd {
                edges.atEnd = true
                parts.removeLast()
            }
            guard edges.atStart || edges.atEnd, !parts.isEmpty else { return nil }
            var bytes: [UInt8] = []
            for part in parts {
                guard case .literal(let b) = part else { return nil }
                bytes += b
            }
            return bytes == literal ? edges : nil
        }
    }

    /// The strategy for `hirs` (one regex list as compiled), or nil when some pattern
    /// has no bounded required set or no kernel fits it.
    package init?(hirs: [Hir], level: SIMDLevel = .best) {
        guard let set = LiteralSet.required(ofAny: hirs) else { return nil }
        // A literal made only of bytes that are everywhere finds a candidate every few
        // bytes: the DFA alone is faster then.
        if set.literals.allSatisfy({ lit in lit.count == 1 && RareBytePrefilter.rank(of: lit[0]) >= 240 }) { return nil }
        literals = set
        if set.literals.count == 1 && set.literals[0].count >= 2 {
            finder = .single(RareBytePrefilter(set.literals[0], asciiCaseInsensitive: set.isASCIICaseInsensitive,
                                               level: level))
        } else if let p = PrefixPrefilter(prefixes: set.literals, asciiCaseInsensitive: set.isASCIICaseInsensitive,
                                          level: level) {
            finder = .prefixes(p)
        } else {
            return nil
        }
        edges = hirs.count == 1 && set.literals.count == 1 && !set.isASCIICaseInsensitive
            ? LiteralEdges.of(hirs[0], literal: set.literals[0]) : nil
    }

    /// Where the next literal occurrence (or candidate) at or after `from` starts, or nil.
    @inline(__always)
    func next(in region: UnsafeBufferPointer<UInt8>, from: Int) -> Int? {
        switch finder {
        case .single(let p): return p.nextOccurrence(in: region, from: from)
        case .prefixes(let p): return p.find(in: region, from: from)
        }
    }

    /// Calls `body` with the end of a match in each line of `region` that holds one (an
    /// offset in `region`), in order; `body` returns false to stop. `matchEnd` decides a
    /// candidate line, given alone (its edges are the line's: `^`, `$` and word
    /// boundaries read the same there as in the block): the end of a match in it, or nil.
    /// `region` holds whole lines ending with `delimiter` (the last possibly without
    /// it); no match can hold the delimiter.
    ///
    /// - Complexity: O(region bytes) plus `matchEnd` once per candidate line.
    package func forEachMatchingLine(
        in region: UnsafeBufferPointer<UInt8>, delimiter byte: UInt8,
        matchEnd: (UnsafeBufferPointer<UInt8>) -> Int?, _ body: (Int) -> Bool
    ) {
        let n = region.count
        var from = 0
        while from < n, let hit = next(in: region, from: from) {
            let lineStart = Self.lastIndex(of: byte, in: region, from: from, before: hit).map { $0 + 1 } ?? from
            let lineEnd = Memchr.find(byte, in: region, from: hit) ?? n
            if let end = matchEnd(UnsafeBufferPointer(rebasing: region[lineStart..<lineEnd])) {
                if !body(lineStart + end) { return }
            }
            from = lineEnd + 1
        }
    }

    /// ``forEachMatchingLine(in:delimiter:matchEnd:_:)`` deciding lines with `regex`'s
    /// forward DFA (earliest match end, no reverse scan), or with the bytes next to
    /// the literal when the regex is only the literal between line anchors (``edges``).
    package func forEachMatchingLine(
        in region: UnsafeBufferPointer<UInt8>, delimiter byte: UInt8, regex: RegexAutomaton,
        cursor: inout RegexAutomaton.MatchCursor, _ body: (Int) -> Bool
    ) {
        if let edges {
            forEachLineWithLiteral(at: edges, in: region, delimiter: byte, body)
            return
        }
        forEachMatchingLine(in: region, delimiter: byte, matchEnd: { line in
            regex.earliestMatchEnd(in: line, from: 0, cursor: &cursor)
        }, body)
    }

    /// The lines of `region` where the one literal sits at `edges`: each occurrence is
    /// checked in place (the byte before it is the delimiter or the region's start, the
    /// byte after it the delimiter or the region's end). A line has at most one
    /// occurrence at its start and one at its end, so no line is reported twice and no
    /// line end is searched for. `body` gets the match's end.
    func forEachLineWithLiteral(
        at edges: LiteralEdges, in region: UnsafeBufferPointer<UInt8>, delimiter byte: UInt8, _ body: (Int) -> Bool
    ) {
        let literal = literals.literals[0]
        let n = region.count, k = literal.count
        var from = 0
        while from < n, let hit = next(in: region, from: from) {
            let end = hit + k
            guard end <= n else { return }
            // The prefix kernels report candidates; the pair kernel exact occurrences.
            var same = true
            if case .prefixes = finder {
                var i = 0
                while i < k { if region[hit + i] != literal[i] { same = false; break }; i += 1 }
            }
            if same, !edges.atStart || hit == 0 || region[hit - 1] == byte,
               !edges.atEnd || end == n || region[end] == byte {
                if !body(end) { return }
            }
            from = hit + 1
        }
    }

    /// The last index in `from..<before` holding `byte`, or nil (the start of a
    /// candidate's line: lines are short, so a backward byte loop).
    @inline(__always)
    static func lastIndex(of byte: UInt8, in h: UnsafeBufferPointer<UInt8>, from: Int, before: Int) -> Int? {
        var i = before
        while i > from {
            i &-= 1
            if h[i] == byte { return i }
        }
        return nil
    }
}
