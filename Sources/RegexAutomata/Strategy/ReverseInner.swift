// The reverse-inner strategy (reverse suffix when the literal ends the pattern), after
// regex-automata's `meta` strategies: a regex `P L S` whose literal L is rarer than its
// prefixes is searched by finding L (memmem/memchr), running the reverse DFA of P
// anchored at L back to where the match may start, then the forward DFA anchored
// there to the match's end. `https?://[a-z0-9.-]+` looks for "://", not for "htt";
// `[a-q][^u-z]{13}x` for "x", where the unanchored forward DFA (10,000+ states)
// thrashes its lazy cache.
//
// Chosen only where it is exact, by one rule on the pattern: L's first byte c occurs
// in no byte P or S can match, nor again in L. Then every match holds exactly one c,
// at L, so:
// - a match that holds the occurrence of L at p starts where a P-match ending at p
//   starts, the leftmost of which the reverse scan finds;
// - no match spans an occurrence of L it does not use (it would hold two c), so no
//   match starts before the first occurrence that has a P-match, and a P-match never
//   reaches back past the previous occurrence: the reverse scans stop there (the
//   quadratic guard regex-automata keeps with `min_start` holds by construction).
// When the forward scan anchored at the start fails (S does not follow), a match may
// still start later with the same L; the search hands the rest to the plain forward
// scan and stops using this strategy (regex-automata's retry on the core engine),
// so a pathological haystack costs one scan more, never a quadratic one.

import AutomatonCore
import LiteralAutomata

/// A compile-time choice: the inner literal a regex is searched by, and the reverse
/// automaton of the part before it.
///
/// ```swift
/// let regex = try RegexCompiler().compile("https?://[a-z0-9.-]+")
/// regex.reverseInner?.literal   // "://"
/// ```
public struct ReverseInner: Sendable {
    /// The literal every match holds once.
    public let literal: [UInt8]
    /// `true` when nothing follows the literal (reverse suffix).
    public let isSuffix: Bool
    /// The kernel that finds the literal (memmem or memchr).
    let finder: PrefixPrefilter
    /// The anchored reverse automaton of the part before the literal.
    let prefix: Prefix

    enum Prefix: Sendable {
        case dense(DenseDFA)
        case lazy(LazyDFA)
    }

    /// The kernel that finds the literal, for the strategy's name.
    public var kernel: String { finder.kernel }

    /// The strategy for the single pattern `hir`, or nil when no literal fits the rule
    /// or is rare enough: a byte rarer than ``rareRank`` (memmem or memchr skip far on
    /// it), or, when the forward scan has no prefix prefilter to jump with
    /// (`prefixKernel` nil), rarer than ``rareWithoutPrefilterRank``. A prefix
    /// prefilter on memmem is as good already.
    init?(_ hir: Hir, prefixKernel: String?, limits: Limits, workBudget: Int) {
        if prefixKernel == "memmem" { return nil }
        let threshold = prefixKernel == nil ? Self.rareWithoutPrefilterRank : Self.rareRank
        guard let split = Self.splits(hir).first(where: { Self.rarity($0.literal) < threshold }),
              let finder = PrefixPrefilter(prefixes: [split.literal], asciiCaseInsensitive: false),
              finder.kernel != "teddy"
        else { return nil }
        let reverse: ThompsonNFA
        do { reverse = try ThompsonNFA([split.prefix], reverse: true, limits: limits) } catch { return nil }
        if let dense = try? reverse.determinized(startKind: .anchoredOnly, limits: limits, workBudget: workBudget) {
            prefix = .dense(dense.minimized())
        } else {
            prefix = .lazy(LazyDFA(nfa: reverse, startKind: .anchoredOnly, limits: limits))
        }
        self.literal = split.literal
        self.isSuffix = split.isSuffix
        self.finder = finder
    }

    /// Bytes ranked below this (RareBytePrefilter's English rank, 0 = rarest) are rare:
    /// `:` `@` `%` digits, capitals like `Q` `V`.
    static let rareRank = 200
    /// Without a prefix prefilter the forward DFA steps every byte, so a literal that
    /// stops memchr every few hundred bytes still pays: `x` (204), `j` (209), `q`, `z`.
    // PERF: callgrind, 8 MiB subtitles, `match --count-matches '[a-q][^u-z]{13}x'`:
    // the lazy forward DFA thrashed and fell back to the PikeVM, 10.5 G instructions.
    static let rareWithoutPrefilterRank = 210

    /// The rank of the literal's rarest byte.
    static func rarity(_ literal: [UInt8]) -> Int {
        literal.map { RareBytePrefilter.rank(of: $0) }.min() ?? Int.max
    }

    /// Every way to read `hir` as prefix, literal, rest by the rule: the literal a
    /// top-level element (adjacent literals merged) after a non-empty prefix, whose
    /// first byte occurs nowhere else in a match. Rarest literal first, then longest.
    static func splits(_ hir: Hir) -> [(prefix: Hir, literal: [UInt8], isSuffix: Bool)] {
        var parts: [Hir] = []
        func flatten(_ h: Hir) {
            if case .concat(let items) = h { items.forEach(flatten) } else { parts.append(h) }
        }
        flatten(hir)
        // Merge runs of literals.
        var merged: [Hir] = []
        for part in parts {
            if case .literal(let b) = part, case .literal(let a)? = merged.last {
                merged[merged.count - 1] = .literal(a + b)
            } else {
                merged.append(part)
            }
        }
        var found: [(prefix: Hir, literal: [UInt8], isSuffix: Bool)] = []
        for (i, part) in merged.enumerated() where i > 0 {
            guard case .literal(let l) = part, let c = l.first, !l.dropFirst().contains(c) else { continue }
            let prefix = Hir.concat(Array(merged[..<i])), rest = Hir.concat(Array(merged[(i + 1)...]))
            if prefix.bytesAndLooks.bytes[Int(c)] || rest.bytesAndLooks.bytes[Int(c)] { continue }
            found.append((prefix, l, i == merged.count - 1))
        }
        return found.sorted { a, b in
            let (ra, rb) = (rarity(a.literal), rarity(b.literal))
            return ra != rb ? ra < rb : a.literal.count > b.literal.count
        }
    }

    /// Outcome of one search.
    enum Outcome {
        /// The leftmost-first match, or none in the rest of the haystack.
        case found(Match?)
        /// No match starts before `from`; the caller searches on with its forward scan.
        case retry(from: Int)
    }

    /// The leftmost-first match starting at or after `from`, with `forwardAnchored`
    /// the forward scan anchored at a start (the end of the longest-priority match, or
    /// nil when none starts there). `reverseCache` is the lazy prefix automaton's cache.
    func find(_ h: UnsafeBufferPointer<UInt8>, from: Int, reverseCache: inout LazyDFA.Cache?, steps: inout Int,
              forwardAnchored: (Int) -> MatchEnd??) -> Outcome {
        var at = from
        var floor = from
        let n = h.count
        let length = literal.count
        while at < n, let p = finder.find(in: h, from: at) {
            // The finder's candidates may be supersets (memchr on the first byte).
            if p + length > n { return .found(nil) }
            if !literal.withUnsafeBufferPointer({ l in (0..<length).allSatisfy { h[p + $0] == l[$0] } }) {
                at = p + 1
                continue
            }
            let start: Int?
            switch prefix {
            case .dense(let dfa):
                start = dfa.searchReverse(h, in: floor..<p, anchored: true, earliest: false, pattern: nil, steps: &steps)?.end
            case .lazy(let lazy):
                let cache = reverseCache ?? lazy.makeCache()
                reverseCache = cache
                switch lazy.searchReverse(cache, h, in: floor..<p, pattern: 0, steps: &steps) {
                case .found(let s): start = s?.end
                case .gaveUp: return .retry(from: floor)
                }
            }
            guard let start else {
                // No match uses this occurrence, and none spans it.
                at = p + 1
                floor = p + 1
                continue
            }
            switch forwardAnchored(start) {
            case .some(.some(let end)): return .found(Match(pattern: end.pattern, start: start, end: end.end))
            case .some(.none): return .retry(from: start + 1)
            case .none: return .retry(from: start)
            }
        }
        return .found(nil)
    }
}
