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
//
// A second rule makes `[A-Z][a-z]+ing` exact, whose literal's `i` the prefix can
// match: the bytes F the pattern's first byte can be occur nowhere after it in a
// match (a capital starts it, and only lowercase letters follow). Then every match
// holds one byte of F, at its start, so the leftmost P-start s the reverse scan finds
// from the first occurrence of L that has one is the leftmost match start: an
// earlier-starting match would have to end at a later L and so hold s, a byte of F,
// inside it. Here a P-match may reach back past earlier occurrences ("singing"), so
// the reverse scans are bounded as regex-automata's `min_start` bounds them: a scan
// may reach back below the previous occurrence by at most the distance it advanced
// (each byte is scanned at most twice, so the search stays linear); a scan still
// alive at that bound gives this one search to the plain forward scan, as
// regex-automata's quadratic guard gives it to the core engine. A start whose forward
// scan fails (`[A-Z][a-z]+ing\b` on "Kingdom") is the only P-start of its occurrence,
// so the search goes on after it without giving way.

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
    /// Which rule makes the search exact.
    public let exactness: Exactness
    /// The kernel that finds the literal (memmem or memchr).
    let finder: PrefixPrefilter
    /// The anchored reverse automaton of the part before the literal.
    let prefix: Prefix

    enum Prefix: Sendable {
        case dense(DenseDFA)
        case lazy(LazyDFA)
    }

    /// Why no match is missed (the file's comment has the argument for each).
    public enum Exactness: Sendable, Equatable {
        /// The literal's first byte occurs nowhere else in a match: the reverse scans
        /// never reach back past the previous occurrence.
        case uniqueLiteral
        /// The pattern's first byte occurs nowhere after it in a match: the reverse
        /// scans are bounded, and a scan that reaches its bound gives way.
        case uniqueStart
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
        guard let split = Self.splits(hir).first(where: { Self.isRare($0.literal, threshold: threshold) }),
              let finder = PrefixPrefilter(prefixes: [split.literal], asciiCaseInsensitive: false),
              finder.kernel != "teddy" || split.literal.count >= Self.teddyExactLength
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
        self.exactness = split.exactness
        self.finder = finder
    }

    /// Teddy fingerprints this many bytes: a literal this long is found exactly, one
    /// candidate per occurrence (a shorter one stops on every byte pair it shares).
    static let teddyExactLength = 3

    /// Whether `literal` is worth finding first: its rarest byte ranks below
    /// `threshold`, or it is ``teddyExactLength`` bytes or longer (three English
    /// letters in a row, "ing", are still rarer than any one of them).
    // PERF: callgrind, whole process, `match --count-matches '[A-Z][a-z]+ing'`, 32 MiB of
    // subtitles: 261.5 M instructions on the dense DFA, 127.4 M from "ing" by Teddy
    // (rg 250.8 M); `\byou\b` from "you" 353.5 M (357.9 M, rg 588.8 M).
    static func isRare(_ literal: [UInt8], threshold: Int) -> Bool {
        rarity(literal) < threshold || literal.count >= teddyExactLength
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

    /// One way to read a pattern as prefix, literal, rest.
    typealias Split = (prefix: Hir, literal: [UInt8], isSuffix: Bool, exactness: Exactness)

    /// Every way to read `hir` as prefix, literal, rest by the rules: the literal a
    /// top-level element (adjacent literals merged) after a non-empty prefix, whose
    /// first byte occurs nowhere else in a match (``Exactness/uniqueLiteral``), or
    /// any such literal when the pattern's first byte occurs nowhere after it
    /// (``Exactness/uniqueStart``). The first rule first, then rarest literal, then
    /// longest.
    static func splits(_ hir: Hir) -> [Split] {
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
        let uniqueStart = Self.startIsUnique(merged)
        var found: [Split] = []
        for (i, part) in merged.enumerated() where i > 0 {
            guard case .literal(let l) = part, let c = l.first else { continue }
            let prefix = Hir.concat(Array(merged[..<i])), rest = Hir.concat(Array(merged[(i + 1)...]))
            let unique = !l.dropFirst().contains(c)
                && !prefix.bytesAndLooks.bytes[Int(c)] && !rest.bytesAndLooks.bytes[Int(c)]
            if unique {
                found.append((prefix, l, i == merged.count - 1, .uniqueLiteral))
            } else if uniqueStart {
                found.append((prefix, l, i == merged.count - 1, .uniqueStart))
            }
        }
        return found.sorted { a, b in
            if a.exactness != b.exactness { return a.exactness == .uniqueLiteral }
            let (ra, rb) = (rarity(a.literal), rarity(b.literal))
            return ra != rb ? ra < rb : a.literal.count > b.literal.count
        }
    }

    /// Whether the bytes the first byte of a match can be occur nowhere after it, for
    /// the top-level elements `parts` (looks before the first byte skipped): the
    /// first element one byte wide (a byte class, an ASCII class, or a literal's first
    /// byte).
    static func startIsUnique(_ parts: [Hir]) -> Bool {
        guard let first = parts.firstIndex(where: { if case .look = $0 { return false } else { return true } })
        else { return false }
        var starts = [Bool](repeating: false, count: 256)
        var after = Array(parts[(first + 1)...])
        switch parts[first] {
        case .literal(let l):
            guard let c = l.first else { return false }
            starts[Int(c)] = true
            after.insert(.literal(Array(l.dropFirst())), at: 0)
        case .byteClass(let ranges):
            for r in ranges { for b in r { starts[Int(b)] = true } }
        case .scalarClass(let ranges):
            guard ranges.allSatisfy({ $0.upperBound < 0x80 }) else { return false }
            for r in ranges { for b in r { starts[Int(b)] = true } }
        default:
            return false
        }
        let rest = Hir.concat(after).bytesAndLooks.bytes
        return !(0..<256).contains { starts[$0] && rest[$0] }
    }

    /// Outcome of one search.
    enum Outcome {
        /// The leftmost-first match, or none in the rest of the haystack.
        case found(Match?)
        /// No match starts before `from`; the caller searches on with its forward scan.
        case retry(from: Int)
        /// A reverse scan reached its bound (``Exactness/uniqueStart``): the caller
        /// finds this one match with its forward scan from `from`, and may use this
        /// strategy again for the next.
        case fallback(from: Int)
    }

    /// The leftmost-first match starting at or after `from`, with `forwardAnchored`
    /// the forward scan anchored at a start (the end of the longest-priority match, or
    /// nil when none starts there). `reverseCache` is the lazy prefix automaton's cache.
    func find(_ h: UnsafeBufferPointer<UInt8>, from: Int, reverseCache: inout LazyDFA.Cache?, steps: inout Int,
              forwardAnchored: (Int) -> MatchEnd??) -> Outcome {
        var at = from
        var floor = from
        // uniqueStart: no match starts before `origin`; `previous` is the last
        // occurrence no match uses.
        var origin = from
        var previous = from
        let bounded = exactness == .uniqueStart
        let n = h.count
        let length = literal.count
        while at < n, let p = finder.find(in: h, from: at) {
            // The finder's candidates may be supersets (memchr on the first byte).
            if p + length > n { return .found(nil) }
            if !literal.withUnsafeBufferPointer({ l in (0..<length).allSatisfy { h[p + $0] == l[$0] } }) {
                at = p + 1
                continue
            }
            if bounded {
                // Back below the previous occurrence by at most the distance advanced.
                floor = Swift.max(origin, previous &- (p &- previous))
            }
            let start: Int?
            var aliveBelow = false
            switch prefix {
            case .dense(let dfa):
                start = dfa.searchReverse(h, in: floor..<p, anchored: true, earliest: false, pattern: nil,
                                          steps: &steps, aliveBelow: &aliveBelow)?.end
            case .lazy(let lazy):
                let cache = reverseCache ?? lazy.makeCache()
                reverseCache = cache
                switch lazy.searchReverse(cache, h, in: floor..<p, pattern: 0, steps: &steps, aliveBelow: &aliveBelow) {
                case .found(let s): start = s?.end
                case .gaveUp: return .retry(from: bounded ? origin : floor)
                }
            }
            if bounded, aliveBelow, floor > origin { return .fallback(from: origin) }
            guard let start else {
                // No match uses this occurrence; under uniqueLiteral none spans it.
                at = p + 1
                if bounded { previous = p } else { floor = p + 1 }
                continue
            }
            switch forwardAnchored(start) {
            case .some(.some(let end)): return .found(Match(pattern: end.pattern, start: start, end: end.end))
            case .some(.none):
                guard bounded else { return .retry(from: start + 1) }
                // `start` is the one P-start for this occurrence (no byte of F follows
                // it in a match) and no match starts there: no match uses this
                // occurrence, none starts up to `start`. The forward scans that fail
                // so never overlap: the next start is a byte of F, which none reads.
                origin = start + 1
                previous = p
                at = p + 1
            case .none: return .retry(from: start)
            }
        }
        return .found(nil)
    }
}
