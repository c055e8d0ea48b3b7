// Required literals: a set of literals at least one of which occurs in every match,
// anywhere in it — a prefix, an inner literal or a suffix (GNU grep's "must" strings,
// regex-automata's reverse-inner literals). A line-oriented search finds them with a
// SIMD prefilter, widens each hit to its line and runs the DFA on that line only, so a
// pattern with no useful prefix (`[A-Z][a-z]+ing`, `^#`, `\bmatch\b`, `-x 'Yes.'`)
// still skips most of its input.
//
// Why it is sound: for a concatenation x0 x1 … xn, every match has a part that matches
// xk xk+1 … xn, which starts with one of that suffix concatenation's prefixes
// (``LiteralSet/prefixes(of:)``, which answers nil whenever such a part can be empty
// or can start with too many bytes). A repetition with at least one copy contains a
// match of its body. Zero-width assertions are skipped by the prefix walk, so anchors
// and word boundaries never stop extraction; the DFA checks them on the line.

import AutomatonCore
import LiteralAutomata

extension LiteralSet {
    /// The cheapest set of literals one of which every match of `hir` contains, or nil
    /// when every candidate set is unbounded (a match can be empty, or made only of
    /// large classes). The set says nothing about where in the match the literal is.
    ///
    /// ```swift
    /// let hir = try RegexSyntax.parse("[A-Z][a-z]+ing", options: .init())
    /// LiteralSet.required(of: hir)?.literals   // ["ing"]
    /// ```
    ///
    /// - Complexity: O(concatenation length² × prefix extraction).
    public static func required(of hir: Hir) -> LiteralSet? {
        var best: (set: LiteralSet, cost: Double)? = nil
        func consider(_ set: LiteralSet?) {
            guard let set, !set.literals.isEmpty, set.literals.allSatisfy({ !$0.isEmpty }) else { return }
            let c = cost(of: set)
            if best == nil || c < best!.cost { best = (set, c) }
        }
        func walk(_ hir: Hir, depth: Int) {
            guard depth < 8 else { return }
            switch hir {
            case .concat(let items):
                for k in items.indices {
                    consider(prefixes(of: k == 0 ? hir : .concat(Array(items[k...]))))
                    walk(items[k], depth: depth + 1)
                }
            case .repetition(let sub, let min, _, _) where min >= 1:
                walk(sub, depth: depth + 1)
                consider(prefixes(of: hir))
            default:
                consider(prefixes(of: hir))
            }
        }
        walk(hir, depth: 0)
        return best?.set
    }

    /// The required set common to several patterns (a match of any of them contains
    /// one of its literals): the union of each pattern's set, or nil when one has none,
    /// they disagree on case folding, or the union grows past ``maxLiterals``.
    public static func required(ofAny hirs: [Hir]) -> LiteralSet? {
        var literals: [[UInt8]] = []
        var seen = Set<[UInt8]>()
        var folded: Bool? = nil
        for hir in hirs {
            guard let set = required(of: hir) else { return nil }
            if let folded, folded != set.isASCIICaseInsensitive { return nil }
            folded = set.isASCIICaseInsensitive
            for lit in set.literals where seen.insert(lit).inserted { literals.append(lit) }
            if literals.count > maxLiterals { return nil }
        }
        guard let folded, !literals.isEmpty else { return nil }
        return LiteralSet(literals: literals, isExact: false, isASCIICaseInsensitive: folded)
    }

    /// How often a search for the set is expected to stop, relative: each literal costs
    /// by its rarest byte (English text ranks, both cases counted when folded), a
    /// one-byte literal four times more than a longer one with the same byte.
    static func cost(of set: LiteralSet) -> Double {
        var total = 0.0
        for lit in set.literals {
            var rarest = 255.0
            for b in lit {
                var rank = Double(RareBytePrefilter.rank(of: b))
                if set.isASCIICaseInsensitive && isASCIILetter(b) {
                    rank = max(rank, Double(RareBytePrefilter.rank(of: b & ~0x20)), Double(RareBytePrefilter.rank(of: b | 0x20)))
                }
                rarest = min(rarest, rank)
            }
            total += Double.pow2(rarest / 24) * (lit.count == 1 ? 4 : 1) / Double(min(lit.count, 4))
        }
        return total
    }
}

private extension Double {
    static func pow2(_ x: Double) -> Double {
        var r = 1.0
        var e = x
        while e >= 1 { r *= 2; e -= 1 }
        return r * (1 + e * 0.6931471805599453)
    }
}
