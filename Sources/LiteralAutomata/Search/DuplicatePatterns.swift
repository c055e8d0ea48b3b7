// Equal patterns in one literal list: the automaton holds each distinct pattern once,
// under the id of its first occurrence (its representative), and a search that reports
// every occurrence (overlapping) reports the equal ones with it.
//
// Why: a state's match list holds the patterns that end there, and under overlapping
// matching every state inherits the lists of its failure states. Every duplicate of a
// word was copied into each state whose suffix is that word, and every duplicate of
// the empty word into every state: 155 empty lines in a 100,000-word list made
// 27 million match-list entries (329 MB and 7.5 s to build `filter -F -f`, issue 28).
// With one id per distinct pattern a state's list is as long as the number of distinct
// words ending there, and the empty word is one entry per state; the others are listed
// once here, in `next`.
//
// Under the leftmost kinds a duplicate is never reported (the earlier id wins every
// tie), so the engine keeps this table for overlapping automata only.

import AutomatonCore

/// The groups of equal patterns of a literal list (after ASCII case folding when the
/// automaton folds case), each a chain of increasing ids starting at its representative.
///
/// - Complexity: built in O(total pattern bytes) (one hash per pattern); memory 4 bytes
///   per pattern. Reporting a state's k distinct patterns with m ids in all costs
///   O(m × k) when some have duplicates, O(k) otherwise.
struct DuplicatePatterns: Sendable, Equatable {
    /// `next[p]`: the next id with pattern `p`'s bytes (always greater than `p`), or
    /// ``none``. Every id has at most one predecessor; ids without one are the
    /// representatives, the only ids the automaton reports.
    let next: [UInt32]

    /// The end of a chain.
    static let none = UInt32.max

    init(next: [UInt32]) { self.next = next }

    /// The groups of `patterns`, or nil when no two are equal.
    init?(_ patterns: [[UInt8]], asciiCaseInsensitive: Bool) {
        var next = [UInt32](repeating: Self.none, count: patterns.count)
        var last: [[UInt8]: UInt32] = [:]
        last.reserveCapacity(patterns.count)
        var any = false
        for (id, p) in patterns.enumerated() {
            let key = asciiCaseInsensitive ? asciiLowercased(p) : p
            if let previous = last.updateValue(UInt32(id), forKey: key) {
                next[Int(previous)] = UInt32(id)
                any = true
            }
        }
        guard any else { return nil }
        self.next = next
    }

    /// `true` for each id that repeats an earlier pattern (it is left out of the automaton).
    var isRepeat: [Bool] {
        var repeatFlags = [Bool](repeating: false, count: next.count)
        for n in next where n != Self.none { repeatFlags[Int(n)] = true }
        return repeatFlags
    }

    /// Calls `body` with every id of the groups of `representatives` (a state's match
    /// list), in increasing order; returns `false` as soon as `body` does.
    ///
    /// The representatives are the smallest ids of their groups, and the groups are
    /// disjoint chains of increasing ids, so this is a k-way merge of the chains.
    @inline(__always)
    func forEachID<C: Collection>(of representatives: C, _ body: (UInt32) -> Bool) -> Bool where C.Element == UInt32 {
        return next.withUnsafeBufferPointer { next in
            var chained = false
            for p in representatives where next[Int(p)] != Self.none { chained = true; break }
            if !chained {
                for p in representatives where !body(p) { return false }
                return true
            }
            return withUnsafeTemporaryAllocation(of: UInt32.self, capacity: representatives.count) { cursor in
                var live = 0
                for p in representatives { cursor[live] = p; live &+= 1 }
                while live > 0 {
                    var k = 0
                    var j = 1
                    while j < live { if cursor[j] < cursor[k] { k = j }; j &+= 1 }
                    let id = cursor[k]
                    if !body(id) { return false }
                    // SAFETY: every id in a match list and every chain link is below
                    // next.count (checked at build and load).
                    let following = next[Int(id)]
                    if following == Self.none { live &-= 1; cursor[k] = cursor[live] } else { cursor[k] = following }
                }
                return true
            }
        }
    }

    /// Checks a loaded table against the pattern lengths: every link goes to a larger
    /// id below the pattern count, to a pattern of the same length, and no id has two
    /// predecessors. Returns why not, or nil.
    static func problem(in next: [UInt32], lengths: [Int]) -> String? {
        guard next.count == lengths.count else { return "\(next.count) duplicate links for \(lengths.count) patterns" }
        var hasPredecessor = [Bool](repeating: false, count: next.count)
        for (id, n) in next.enumerated() where n != none {
            guard Int(n) > id, Int(n) < next.count else { return "pattern \(id) links to pattern \(n)" }
            guard lengths[Int(n)] == lengths[id] else { return "patterns \(id) and \(n) are linked but differ in length" }
            guard !hasPredecessor[Int(n)] else { return "pattern \(n) is linked twice" }
            hasPredecessor[Int(n)] = true
        }
        return nil
    }
}
