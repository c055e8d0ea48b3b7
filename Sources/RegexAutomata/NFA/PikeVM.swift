// PikeVM: simulates a ThompsonNFA directly, one position at a time, keeping the
// threads in priority order so the result is the leftmost-first match (with its
// start, which the DFAs need a reverse scan for).
//
// Source: R. Cox, "Regular Expression Matching: the Virtual Machine Approach"
// (2009), after Rob Pike's implementation in sam; K. Thompson, CACM 1968.
//
// It is the reference the DFAs are tested against, and the lazy DFA's fallback when
// its cache thrashes. It decides look-around exactly like the determinizer (the
// closure at position p sees the byte before p and the byte at p), but it is written
// separately so the two can check each other.
//
// Known limits: O(n × NFA size) time; allocates its thread lists per search.

import AutomatonCore

/// A Thompson-NFA simulator with leftmost-first priority.
///
/// ```swift
/// let nfa = try ThompsonNFA([.repetition(.literal([0x61]), min: 1, max: nil, greedy: true)])
/// let vm = PikeVM(nfa: nfa)
/// Array("baa".utf8).withUnsafeBufferPointer { vm.search($0, from: 0) }  // 0:[1,3)
/// ```
///
/// - Complexity: no build cost beyond the NFA; search O(n × NFA states) time,
///   O(NFA states) memory.
public struct PikeVM: Sendable {
    /// The NFA being simulated (a forward NFA).
    public let nfa: ThompsonNFA

    public init(nfa: ThompsonNFA) { self.nfa = nfa }

    private struct Thread { var state: UInt32; var start: Int }
    private struct Item { var thread: Thread; var flags: UInt64 }
    private struct FlagKey: Hashable { var state: UInt32; var flags: UInt64 }

    /// The leftmost-first match in `haystack[from...]`.
    ///
    /// - Parameters:
    ///   - anchored: the match must start at `from`.
    ///   - nonEmpty: an empty match at `from` does not count (PCRE2's
    ///     `NOTEMPTY_ATSTART`); with `anchored`, this is the global loop's retry.
    public func search(
        _ haystack: UnsafeBufferPointer<UInt8>, from: Int, anchored: Bool = false, nonEmpty: Bool = false
    ) -> Match? {
        let n = haystack.count
        var seeds: [Thread] = []
        var next: [Thread] = []
        var consumers: [Thread] = []
        var visited = [Int](repeating: -1, count: nfa.stateCount)
        var seeded = [Int](repeating: -1, count: nfa.stateCount)
        var stack: [Item] = []
        var flagged: Set<FlagKey> = []
        var consumed = [Int](repeating: -1, count: nfa.stateCount)
        var best: Match? = nil
        var p = from
        while true {
            if best == nil && (!anchored || p == from) {
                seeds.append(Thread(state: nfa.anchoredStart, start: p))
            }
            let previous: UInt8 = p == 0 ? LookContext.textStart : LookContext.category(of: haystack[p - 1])
            let nextCategory: UInt8 = p == n ? LookContext.endOfInput : LookContext.category(of: haystack[p])
            consumers.removeAll(keepingCapacity: true)
            flagged.removeAll(keepingCapacity: true)
            closure: for seed in seeds {
                stack.append(Item(thread: seed, flags: 0))
                while let item = stack.popLast() {
                    let t = item.thread
                    let flags = item.flags
                    let s = Int(t.state)
                    if case .repeatBack(let loop, let exit, let flag) = nfa.states[s] {
                        if flag >= 0 {
                            let bit: UInt64 = 1 << UInt64(flag)
                            stack.append(flags & bit != 0
                                ? Item(thread: Thread(state: exit, start: t.start), flags: flags & ~bit)
                                : Item(thread: Thread(state: loop, start: t.start), flags: flags))
                        } else {
                            stack.append(Item(thread: Thread(state: visited[Int(loop)] == p ? exit : loop, start: t.start), flags: flags))
                        }
                        continue
                    }
                    if flags == 0 {
                        if visited[s] == p { continue }
                        visited[s] = p
                    } else if !flagged.insert(FlagKey(state: t.state, flags: flags)).inserted {
                        continue
                    }
                    switch nfa.states[s] {
                    case .byteRange, .sparse:
                        if consumed[s] != p {
                            consumed[s] = p
                            consumers.append(t)
                        }
                    case .union(let alternatives):
                        for a in alternatives.reversed() { stack.append(Item(thread: Thread(state: a, start: t.start), flags: flags)) }
                    case .loop(let body, let exit, let greedy, let flag):
                        let bit: UInt64 = 1 << UInt64(flag)
                        let enter = Item(thread: Thread(state: body, start: t.start), flags: flags | bit)
                        let leave = Item(thread: Thread(state: exit, start: t.start), flags: flags & ~bit)
                        if greedy { stack.append(leave); stack.append(enter) } else { stack.append(enter); stack.append(leave) }
                    case .look(let look, let nextState):
                        if LookContext.holds(look, previous: previous, next: nextCategory) {
                            stack.append(Item(thread: Thread(state: nextState, start: t.start), flags: flags))
                        }
                    case .repeatBack:
                        continue
                    case .match(let pattern):
                        if nonEmpty && t.start == from && p == from { continue }
                        best = Match(pattern: pattern, start: t.start, end: p)
                        stack.removeAll(keepingCapacity: true)
                        break closure
                    case .fail:
                        continue
                    }
                }
            }
            if p == n { break }
            let byte = haystack[p]
            next.removeAll(keepingCapacity: true)
            for t in consumers {
                var target: UInt32? = nil
                switch nfa.states[Int(t.state)] {
                case .byteRange(let r, let ns): if r.contains(byte) { target = ns }
                case .sparse(let ts): for tr in ts where tr.range.contains(byte) { target = tr.next; break }
                default: break
                }
                if let target, seeded[Int(target)] != p {
                    seeded[Int(target)] = p
                    next.append(Thread(state: target, start: t.start))
                }
            }
            swap(&seeds, &next)
            p += 1
            if seeds.isEmpty && (best != nil || anchored) { break }
        }
        return best
    }

    /// Every match, by PCRE2's global loop (see ``RegexAutomaton/matches(in:)``).
    public func matches(in haystack: UnsafeBufferPointer<UInt8>, utf8: Bool) -> [Match] {
        GlobalLoop.run(haystack, utf8: utf8) { pos, retry in
            retry ? search(haystack, from: pos, anchored: true, nonEmpty: true) : search(haystack, from: pos)
        }
    }
}

/// PCRE2's global loop, shared by every engine: after an empty match at p, look for
/// a non-empty match anchored at p; if there is none, step one scalar (UTF-8 mode)
/// or one byte and search again. In UTF-8 mode an empty match inside a scalar (at a
/// continuation byte) is skipped, as PCRE2 never starts a match there.
enum GlobalLoop {
    /// - Parameter find: `(position, retry)` → the leftmost-first match from
    ///   `position`, or with `retry` the non-empty match anchored at `position`.
    static func run(
        _ haystack: UnsafeBufferPointer<UInt8>, utf8: Bool,
        limit: Int = .max, from: Int = 0,
        _ find: (Int, Bool) -> Match?
    ) -> [Match] {
        let n = haystack.count
        var result: [Match] = []
        var pos = from
        var retry = false
        while pos <= n && result.count < limit {
            if retry {
                if let m = find(pos, true) {
                    result.append(m)
                    pos = m.end
                    retry = false
                    continue
                }
                if pos >= n { break }
                pos = nextBoundary(after: pos, in: haystack, utf8: utf8)
                retry = false
            }
            guard var m = find(pos, false) else { break }
            while utf8, m.isEmpty, !isBoundary(m.start, in: haystack) {
                // PCRE2 in UTF mode never starts inside a scalar: search again after it.
                let q = nextBoundary(after: m.start, in: haystack, utf8: true)
                guard let again = find(q, false) else { return result }
                m = again
            }
            result.append(m)
            pos = m.end
            retry = m.isEmpty
        }
        return result
    }

    @inline(__always)
    static func isBoundary(_ q: Int, in haystack: UnsafeBufferPointer<UInt8>) -> Bool {
        q == 0 || q >= haystack.count || haystack[q] & 0xC0 != 0x80
    }

    @inline(__always)
    static func nextBoundary(after q: Int, in haystack: UnsafeBufferPointer<UInt8>, utf8: Bool) -> Int {
        var p = q + 1
        if utf8 { while p < haystack.count && haystack[p] & 0xC0 == 0x80 { p += 1 } }
        return p
    }
}
