// ScalarRangeSet+CaseFolding: closes a set of scalars under Unicode simple case folding
// (CaseFolding.txt C + S), as PCRE2 does for caseless matching in UTF mode.

extension ScalarRangeSet {
    /// Adds every scalar that simply case-folds together with a member (`é` brings `É`,
    /// `σ` brings `Σ` and `ς`, `k` brings `K` and U+212A KELVIN SIGN). The table is
    /// Generated/CaseFolding.swift; there is no `ß` → `ss` (that is full folding).
    mutating func addSimpleCaseFolds() {
        var extra: [ClosedRange<UInt32>] = []
        let table = caseFoldingScalars
        for r in ranges {
            // First table entry >= r.lowerBound (binary search), then walk the range.
            var low = 0, high = table.count
            while low < high {
                let mid = (low + high) / 2
                if table[mid] < r.lowerBound { low = mid + 1 } else { high = mid }
            }
            var i = low
            while i < table.count, table[i] <= r.upperBound {
                var next = caseFoldingNext[i]
                while next != table[i] {
                    if !r.contains(next) { extra.append(next...next) }
                    next = Self.nextInOrbit(next)
                }
                i += 1
            }
        }
        guard !extra.isEmpty else { return }
        for r in extra { insert(r) }
        normalize()
    }

    /// The scalar after `scalar` in its case-folding orbit (`scalar` itself when alone).
    static func nextInOrbit(_ scalar: UInt32) -> UInt32 {
        let table = caseFoldingScalars
        var low = 0, high = table.count
        while low < high {
            let mid = (low + high) / 2
            if table[mid] < scalar { low = mid + 1 } else { high = mid }
        }
        return low < table.count && table[low] == scalar ? caseFoldingNext[low] : scalar
    }
}

/// The scalars that case-fold together with one scalar (Unicode simple case folding,
/// as the regex's `i` flag applies it): what a literal search needs to match a word
/// as `(?i)` would without building a DFA for it.
package enum CaseFoldOrbit {
    /// `scalar` and every scalar in its orbit, `scalar` first (`k` → `k`, `K`,
    /// U+212A KELVIN SIGN; `é` → `é`, `É`; `1` → `1`).
    package static func members(of scalar: UInt32) -> [UInt32] {
        var orbit = [scalar]
        var next = ScalarRangeSet.nextInOrbit(scalar)
        while next != scalar {
            orbit.append(next)
            next = ScalarRangeSet.nextInOrbit(next)
        }
        return orbit
    }
}
