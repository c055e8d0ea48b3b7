// ScalarRangeSet: a set of code points (or bytes) kept as sorted, disjoint, non-adjacent
// closed ranges; the working form of a character class while it is parsed.

/// A set of code points (scalars in UTF-8 mode, byte values in bytes mode) as sorted,
/// disjoint, non-adjacent ranges.
struct ScalarRangeSet: Sendable, Hashable {
    /// Sorted by lower bound, disjoint and non-adjacent once `normalize()` has run.
    private(set) var ranges: [ClosedRange<UInt32>] = []

    init() {}
    init(_ ranges: [ClosedRange<UInt32>]) {
        self.ranges = ranges
        normalize()
    }

    mutating func insert(_ range: ClosedRange<UInt32>) {
        ranges.append(range)
    }

    mutating func insert(contentsOf other: ScalarRangeSet) {
        ranges.append(contentsOf: other.ranges)
    }

    /// Sorts and merges overlapping or adjacent ranges.
    mutating func normalize() {
        guard ranges.count > 1 else { return }
        ranges.sort { $0.lowerBound < $1.lowerBound }
        var merged: [ClosedRange<UInt32>] = [ranges[0]]
        for r in ranges.dropFirst() {
            let last = merged[merged.count - 1]
            if r.lowerBound <= last.upperBound || r.lowerBound == last.upperBound + 1 {
                merged[merged.count - 1] = last.lowerBound...max(last.upperBound, r.upperBound)
            } else {
                merged.append(r)
            }
        }
        ranges = merged
    }

    /// The complement within `0...maxValue`, also leaving out `excluded` (the surrogates
    /// in UTF-8 mode).
    func inverted(maxValue: UInt32, excluding excluded: ClosedRange<UInt32>? = nil) -> ScalarRangeSet {
        var base = self
        if let excluded { base.insert(excluded) }
        base.normalize()
        var out: [ClosedRange<UInt32>] = []
        var next: UInt32 = 0
        var done = false
        for r in base.ranges where !done {
            if r.lowerBound > next { out.append(next...(r.lowerBound - 1)) }
            if r.upperBound >= maxValue { done = true } else { next = r.upperBound + 1 }
        }
        if !done { out.append(next...maxValue) }
        return ScalarRangeSet(out)
    }

    /// Adds the other ASCII case of every ASCII letter in the set.
    mutating func addASCIICaseFolds() {
        var extra: [ClosedRange<UInt32>] = []
        for r in ranges {
            // a-z → A-Z
            let lo = max(r.lowerBound, 0x61), hi = min(r.upperBound, 0x7A)
            if lo <= hi { extra.append((lo - 0x20)...(hi - 0x20)) }
            let lo2 = max(r.lowerBound, 0x41), hi2 = min(r.upperBound, 0x5A)
            if lo2 <= hi2 { extra.append((lo2 + 0x20)...(hi2 + 0x20)) }
        }
        ranges.append(contentsOf: extra)
        normalize()
    }

    /// `true` when every member is below 0x80.
    var isASCII: Bool { (ranges.last?.upperBound ?? 0) < 0x80 }

    var byteRanges: [ClosedRange<UInt8>] {
        ranges.compactMap { r in
            guard r.lowerBound <= 0xFF else { return nil }
            return UInt8(r.lowerBound)...UInt8(min(r.upperBound, 0xFF))
        }
    }
}
