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
/// - Complexity: built in O(total pattern bytes) (one hash per pattern); memory 12 bytes
///   per pattern. Reporting a state's k distinct patterns with m ids in all costs
///   O(m × k) when some have duplicates, O(k) otherwise.
struct DuplicatePatterns: Sendable, Equatable {
    /// `next[p]`: the next id with pattern `p`'s bytes (always greater than `p`), or
    /// ``none``. Every id has at most one predecessor; ids without one are the
    /// representatives, the only ids the automaton reports. (The saved form.)
    let next: [UInt32]
    /// The same groups laid out for reporting: the ids of each group of two or more,
    /// in order, back to back; `groupStart[r]..<groupEnd[r]` is representative `r`'s
    /// group (empty for an id without duplicates). Contiguous, because a state may
    /// report a group of hundreds (every empty line of a word list) at every byte: the
    /// chain in `next` took 60 % more time there than a list held per state.
    private let members: [UInt32]
    private let groupStart: [UInt32]
    private let groupEnd: [UInt32]

    /// The end of a chain.
    static let none = UInt32.max

    init(next: [UInt32]) {
        self.next = next
        var members: [UInt32] = []
        var groupStart = [UInt32](repeating: 0, count: next.count)
        var groupEnd = groupStart
        var isRepeat = [Bool](repeating: false, count: next.count)
        for n in next where n != Self.none { isRepeat[Int(n)] = true }
        for r in next.indices where !isRepeat[r] && next[r] != Self.none {
            groupStart[r] = UInt32(members.count)
            var id = UInt32(r)
            while id != Self.none { members.append(id); id = next[Int(id)] }
            groupEnd[r] = UInt32(members.count)
        }
        self.members = members
        self.groupStart = groupStart
        self.groupEnd = groupEnd
    }

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
        self.init(next: next)
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
    /// The representatives are the smallest ids of their groups and the groups are
    /// disjoint, so this is a k-way merge of the groups (a representative without
    /// duplicates is a group of one).
    @inline(__always)
    func forEachID<C: Collection>(of representatives: C, _ body: (UInt32) -> Bool) -> Bool where C.Element == UInt32 {
        members.withUnsafeBufferPointer { members in
            groupStart.withUnsafeBufferPointer { groupStart in
                groupEnd.withUnsafeBufferPointer { groupEnd in
                    // SAFETY: every id in a match list is below the pattern count (checked
                    // at build and load), the size of groupStart and groupEnd.
                    var grouped = 0
                    for p in representatives where groupEnd[Int(p)] != groupStart[Int(p)] { grouped &+= 1 }
                    if grouped == 0 {
                        for p in representatives where !body(p) { return false }
                        return true
                    }
                    if representatives.count == 1, let p = representatives.first {
                        for id in members[Int(groupStart[Int(p)])..<Int(groupEnd[Int(p)])] where !body(id) { return false }
                        return true
                    }
                    // Cursors: the next id of each group, and where the rest of it lies.
                    let k = representatives.count
                    return withUnsafeTemporaryAllocation(of: UInt32.self, capacity: 3 * k) { cursor in
                        var live = 0
                        for p in representatives {
                            let start = groupStart[Int(p)], end = groupEnd[Int(p)]
                            cursor[3 * live] = p
                            cursor[3 * live + 1] = start == end ? 0 : start + 1
                            cursor[3 * live + 2] = end
                            live &+= 1
                        }
                        while live > 0 {
                            var best = 0
                            var j = 1
                            while j < live { if cursor[3 * j] < cursor[3 * best] { best = j }; j &+= 1 }
                            if !body(cursor[3 * best]) { return false }
                            let position = cursor[3 * best + 1]
                            if position < cursor[3 * best + 2] {
                                cursor[3 * best] = members[Int(position)]
                                cursor[3 * best + 1] = position + 1
                            } else {
                                live &-= 1
                                for f in 0..<3 { cursor[3 * best + f] = cursor[3 * live + f] }
                            }
                        }
                        return true
                    }
                }
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
