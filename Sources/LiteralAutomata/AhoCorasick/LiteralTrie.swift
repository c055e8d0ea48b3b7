// Aho–Corasick construction: trie → failure links → match lists.
//
// Source: A. V. Aho and M. J. Corasick, "Efficient string matching: an aid to
// bibliographic search", CACM 18(6), 1975. The leftmost variants follow the
// construction of the Rust `aho-corasick` crate (A. Gallant): under leftmost-first a
// pattern whose proper prefix is an earlier pattern is never inserted (it can never
// win), and the failure link of every match state is the dead state, so that once a
// match is seen the automaton only continues while a match at the same or an earlier
// start is still possible; the search then reports the last match seen before dead.
//
// The trie is built over byte classes (see LiteralByteClasses), so case-insensitive
// matching is folded into the alphabet.
//
// Known limits: empty patterns are never inserted into a leftmost trie (the search
// layer handles them with PCRE2's empty-match rules); the trie has no anchored
// variant, so the automata built from it are for unanchored search only.

import AutomatonCore

/// A trie with failure links over byte classes: the noncontiguous NFA every literal
/// representation is derived from. Built once, then converted.
struct LiteralTrie {
    static let dead: UInt32 = 0
    static let root: UInt32 = 1

    /// Whether match states cut their failure links (leftmost) or inherit the
    /// matches of their failure state (overlapping).
    enum Shape: UInt8 { case overlapping = 0, leftmost = 1 }

    let classes: ByteClasses
    let shape: Shape
    /// Children per state, sorted by class after `finish()`.
    var edges: [[(cls: UInt8, next: UInt32)]] = [[], []]
    /// Failure link per state; the dead state's and root's are dead.
    var fail: [UInt32] = [0, 0]
    /// Patterns reported per state after `finish()`: the state's own patterns, plus
    /// (overlapping) those of its failure state, sorted by id, without duplicates; or
    /// (leftmost) its own patterns if it has any, else those of its failure state.
    var matches: [[UInt32]] = [[], []]
    /// States in breadth-first order (root first), filled by `finish()`.
    var bfsOrder: [UInt32] = []

    var stateCount: Int { edges.count }

    init(classes: ByteClasses, shape: Shape) {
        self.classes = classes
        self.shape = shape
    }

    func child(_ s: UInt32, _ c: UInt8) -> UInt32? {
        for e in edges[Int(s)] where e.cls == c { return e.next }
        return nil
    }

    /// Inserts the patterns (pattern id = index). Under leftmost shapes empty
    /// patterns must already be removed (pass nil for them).
    mutating func insert(_ patterns: [[UInt8]?], leftmostFirst: Bool, limits: Limits) throws(AutomatonError) {
        for (pid, pattern) in patterns.enumerated() {
            guard let pattern else { continue }
            var s = Self.root
            var skip = false
            for b in pattern {
                if leftmostFirst && !matches[Int(s)].isEmpty { skip = true; break }
                let c = classes[b]
                if let n = child(s, c) {
                    s = n
                } else {
                    let n = UInt32(edges.count)
                    edges.append([])
                    fail.append(0)
                    matches.append([])
                    edges[Int(s)].append((c, n))
                    s = n
                    if edges.count > limits.maxStates {
                        throw AutomatonError(.tooManyStates(limit: limits.maxStates))
                    }
                }
            }
            if !skip { matches[Int(s)].append(UInt32(pid)) }
        }
    }

    /// δ over the trie with the root's implicit self-loop; nil when the state has no
    /// child on `c` and is not the root.
    private func follow(_ s: UInt32, _ c: UInt8) -> UInt32? {
        if s == Self.dead { return Self.dead }
        if let n = child(s, c) { return n }
        return s == Self.root ? Self.root : nil
    }

    /// Computes failure links and final match lists, breadth first.
    mutating func finish() {
        for i in edges.indices { edges[i].sort { $0.cls < $1.cls } }
        let leftmost = shape == .leftmost
        var queue: [UInt32] = [Self.root]
        queue.reserveCapacity(edges.count)
        var head = 0
        fail[Int(Self.root)] = Self.dead
        while head < queue.count {
            let s = queue[head]
            head += 1
            // Final match list of s: its failure state was dequeued earlier (it is
            // shallower), so its list is already final.
            if s != Self.root {
                let f = Int(fail[Int(s)])
                if leftmost {
                    if matches[Int(s)].isEmpty { matches[Int(s)] = matches[f] }
                } else if matches[Int(s)].isEmpty {
                    // Shares the failure state's list (no copy): with an empty pattern
                    // every state reports it, and a list each was 174,000 small arrays
                    // (7.6 MB) for a 100,000-word list.
                    matches[Int(s)] = matches[f]
                } else if !matches[f].isEmpty {
                    var merged = matches[Int(s)] + matches[f]
                    merged.sort()
                    var out: [UInt32] = []
                    out.reserveCapacity(merged.count)
                    for p in merged where out.last != p { out.append(p) }
                    matches[Int(s)] = out
                }
            } else if !leftmost {
                matches[Int(s)].sort()
            }
            for (c, n) in edges[Int(s)] {
                queue.append(n)
                if leftmost && !matches[Int(n)].isEmpty {
                    fail[Int(n)] = Self.dead
                    continue
                }
                if s == Self.root {
                    fail[Int(n)] = Self.root
                    continue
                }
                var f = fail[Int(s)]
                while true {
                    if let t = follow(f, c) { f = t; break }
                    f = fail[Int(f)]
                }
                fail[Int(n)] = f
            }
        }
        bfsOrder = queue
    }
}
