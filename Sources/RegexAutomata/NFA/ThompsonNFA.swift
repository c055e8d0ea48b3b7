// ThompsonNFA: a nondeterministic automaton over bytes whose epsilon transitions are
// *ordered*, so it carries leftmost-first (Perl/PCRE) priority, built from a Hir by
// Thompson's construction.
//
// Source: K. Thompson, "Programming Techniques: Regular expression search
// algorithm", CACM 11(6), 1968; R. Cox, "Regular Expression Matching Can Be Simple
// And Fast" (2007) and "Regular Expression Matching: the Virtual Machine Approach"
// (2009); the state kinds follow Rust's regex-automata `nfa::thompson`.
//
// Known limits: bounded repetitions are expanded (`x{1,1000}` holds 1000 copies of
// `x`), so the NFA size is checked against `Limits.maxStates`.

import AutomatonCore

/// A Thompson NFA over bytes with ordered alternatives (leftmost-first priority),
/// zero-width look-around assertions and one match state per pattern.
///
/// Build one from ``Hir`` values with ``ThompsonNFA/init(_:reverse:limits:)``, then
/// determinize it (``ThompsonNFA/determinized(limits:)``) or run it directly with
/// ``PikeVM``.
///
/// ```swift
/// let nfa = try ThompsonNFA([.concat([.literal([0x61]), .repetition(.literal([0x62]), min: 0, max: nil, greedy: true)])])
/// nfa.stateCount   // a handful of states for `ab*`
/// ```
///
/// - Complexity: building is O(size of the Hir after expanding bounded repetitions).
public struct ThompsonNFA: Sendable {
    /// Index of a state in ``states``.
    public typealias StateID = UInt32

    /// One byte range and the state it leads to.
    public struct Transition: Sendable, Hashable {
        public var range: ClosedRange<UInt8>
        public var next: StateID
    }

    /// The kinds of NFA states.
    public enum State: Sendable, Hashable {
        /// Consumes one byte in `range`.
        case byteRange(ClosedRange<UInt8>, next: StateID)
        /// Consumes one byte in one of the (sorted, disjoint) ranges.
        case sparse([Transition])
        /// Epsilon transitions, tried in order (earlier = higher priority).
        case union([StateID])
        /// An epsilon transition that holds only where the assertion does.
        case look(Hir.Look, next: StateID)
        /// The head of an unbounded repetition whose body can match the empty string:
        /// epsilon to `body` and `exit` (body first when `greedy`). Taking `body`
        /// raises bit `flag` of the closure's iteration flags ("the current iteration
        /// of this loop began at this position"); taking `exit` lowers it.
        case loop(body: StateID, exit: StateID, greedy: Bool, flag: Int)
        /// The end of one iteration of a repetition whose body can match the empty
        /// string. When the iteration consumed nothing (bit `flag` still raised) it
        /// continues with `exit`, else it goes back to `loop`. This is PCRE's rule:
        /// "whenever an iteration of such a group matches no characters, matching
        /// moves on to the next item". With `flag == -1` (more than 64 such loops in
        /// one regex) the rule is approximated: an empty iteration is recognized by
        /// `loop` having been entered earlier in the same closure.
        case repeatBack(loop: StateID, exit: StateID, flag: Int)
        /// Pattern `PatternID` has matched.
        case match(PatternID)
        /// Never matches.
        case fail
    }

    /// All states; ids index this array.
    public let states: [State]
    /// The start of an anchored search: a union of the patterns' starts, in pattern order.
    public let anchoredStart: StateID
    /// The start of an unanchored search: a lazy `(?s-u:.)*?` loop in front of
    /// ``anchoredStart`` (the loop is the lowest-priority alternative).
    public let unanchoredStart: StateID
    /// Number of patterns (pattern ids are `0..<patternCount`).
    public let patternCount: Int
    /// `true` when built from the reversed patterns (for finding match starts).
    public let isReversed: Bool
    /// The assertions used by any state (after swapping, for a reversed NFA).
    public let looksUsed: Set<Hir.Look>

    /// Number of states.
    public var stateCount: Int { states.count }

    /// Compiles `patterns` into one NFA; pattern *k* reports id *k*.
    ///
    /// With `reverse: true` the NFA matches the reversed language: concatenations and
    /// UTF-8 sequences run backward and look-around is mirrored (`textStart` ↔
    /// `textEnd`, `lineStart` ↔ `lineEnd`; word boundaries stay).
    ///
    /// - Throws: ``AutomatonError`` `.tooManyStates` when the NFA would exceed
    ///   `limits.maxStates`.
    /// - Complexity: O(expanded Hir size).
    public init(_ patterns: [Hir], reverse: Bool = false, limits: Limits = Limits()) throws(AutomatonError) {
        var compiler = ThompsonCompiler(reverse: reverse, maxStates: limits.maxStates)
        var starts: [StateID] = []
        for (k, hir) in patterns.enumerated() {
            let match = try compiler.add(.match(k))
            starts.append(try compiler.compile(hir, next: match))
        }
        let anchored = try compiler.add(.union(starts))
        // Unanchored prefix: L = union(anchored, anyByte → L), lazy.
        let loop = try compiler.add(.fail)
        let anyByte = try compiler.add(.byteRange(0...255, next: loop))
        compiler.states[Int(loop)] = .union([anchored, anyByte])
        self.states = compiler.states
        self.anchoredStart = anchored
        self.unanchoredStart = loop
        self.patternCount = patterns.count
        self.isReversed = reverse
        self.looksUsed = compiler.looks
    }

    /// Every byte range a transition distinguishes, plus the bytes look-around needs
    /// to tell apart (`\n` for line anchors, the word bytes for `\b`).
    public func byteClassSet() -> ByteClassSet {
        var set = ByteClassSet()
        for state in states {
            switch state {
            case .byteRange(let r, _): set.add(r)
            case .sparse(let ts): for t in ts { set.add(t.range) }
            default: break
            }
        }
        if looksUsed.contains(.lineStart) || looksUsed.contains(.lineEnd) { set.add(0x0A) }
        if looksUsed.contains(where: \.isWordLook) {
            set.add(0x30...0x39); set.add(0x41...0x5A); set.add(0x5F); set.add(0x61...0x7A)
        }
        return set
    }
}

/// Hir → ThompsonNFA, in continuation-passing style: each construct is compiled
/// knowing the state that follows it, so no patching is needed except for loops.
struct ThompsonCompiler {
    var states: [ThompsonNFA.State] = []
    var looks: Set<Hir.Look> = []
    /// Next iteration-flag bit for a loop with a nullable body.
    var nextFlag = 0
    let reverse: Bool
    let maxStates: Int

    init(reverse: Bool, maxStates: Int) {
        self.reverse = reverse
        self.maxStates = maxStates
    }

    mutating func add(_ state: ThompsonNFA.State) throws(AutomatonError) -> ThompsonNFA.StateID {
        if states.count >= maxStates || states.count >= Int(UInt32.max - 1) {
            throw AutomatonError(.tooManyStates(limit: maxStates))
        }
        states.append(state)
        return ThompsonNFA.StateID(states.count - 1)
    }

    mutating func compile(_ hir: Hir, next: ThompsonNFA.StateID) throws(AutomatonError) -> ThompsonNFA.StateID {
        switch hir {
        case .empty:
            return next
        case .literal(let bytes):
            var cur = next
            for b in (reverse ? bytes : bytes.reversed()) { cur = try add(.byteRange(b...b, next: cur)) }
            return cur
        case .byteClass(let ranges):
            return try compileRanges(ranges, next: next)
        case .scalarClass(let ranges):
            return try compileScalarClass(ranges, next: next)
        case .look(let look):
            let l = reverse ? look.mirrored : look
            looks.insert(l)
            return try add(.look(l, next: next))
        case .concat(let items):
            var cur = next
            for item in (reverse ? items : items.reversed()) { cur = try compile(item, next: cur) }
            return cur
        case .alternation(let items):
            if items.isEmpty { return try add(.fail) }
            var alts: [ThompsonNFA.StateID] = []
            for item in items { alts.append(try compile(item, next: next)) }
            return try add(.union(alts))
        case .repetition(let sub, let minCount, let maxCount, let greedy):
            var cur = next
            if let maxCount {
                if maxCount < minCount { return try add(.fail) }
                // x{0,k} = (x(x(…)?)?)?, nested so that priority stays leftmost-first.
                for _ in 0..<(maxCount - minCount) {
                    let body = try compile(sub, next: cur)
                    cur = try add(.union(greedy ? [body, next] : [next, body]))
                }
            } else if sub.minimumLength > 0 {
                // The body always consumes: a plain Thompson loop.
                let loop = try add(.fail)
                let body = try compile(sub, next: loop)
                states[Int(loop)] = .union(greedy ? [body, next] : [next, body])
                cur = loop
            } else {
                let flag = nextFlag < 64 ? nextFlag : -1
                nextFlag += 1
                let loop = try add(.fail)
                let back = try add(.repeatBack(loop: loop, exit: next, flag: flag))
                let body = try compile(sub, next: back)
                states[Int(loop)] = flag >= 0
                    ? .loop(body: body, exit: next, greedy: greedy, flag: flag)
                    : .union(greedy ? [body, next] : [next, body])
                cur = loop
            }
            for _ in 0..<minCount { cur = try compile(sub, next: cur) }
            return cur
        }
    }

    /// A scalar class as a trie of its UTF-8 byte-range sequences (read backward when
    /// `reverse`): sequences share equal leading ranges (prefixes), and identical subtrees
    /// become one state (suffixes), as Rust's `Utf8Compiler` and RE2 do. `\p{L}` is a few
    /// hundred states this way instead of a union of a thousand chains, which keeps
    /// determinization fast: after the lead byte the NFA is in one state, not hundreds.
    mutating func compileScalarClass(_ ranges: [ClosedRange<UInt32>], next: ThompsonNFA.StateID) throws(AutomatonError) -> ThompsonNFA.StateID {
        // The trie: node 0 is the root; an edge's child -1 is the end of a sequence.
        var edges: [[(range: ClosedRange<UInt8>, child: Int)]] = [[]]
        for r in ranges {
            for seq in utf8Sequences(for: r) {
                let bytes = reverse ? seq.ranges.reversed() : seq.ranges
                var node = 0
                for (k, br) in bytes.enumerated() {
                    let last = k == bytes.count - 1
                    if let e = edges[node].firstIndex(where: { $0.range == br && ($0.child == -1) == last }) {
                        node = edges[node][e].child
                        continue
                    }
                    if last {
                        edges[node].append((br, -1))
                    } else {
                        edges.append([])
                        edges[node].append((br, edges.count - 1))
                        node = edges.count - 1
                    }
                }
            }
        }
        if edges[0].isEmpty { return try add(.fail) }
        var shared: [[UInt32]: ThompsonNFA.StateID] = [:]
        func emit(_ node: Int, _ c: inout ThompsonCompiler) throws(AutomatonError) -> ThompsonNFA.StateID {
            var transitions: [ThompsonNFA.Transition] = []
            for (range, child) in edges[node] {
                transitions.append(ThompsonNFA.Transition(range: range, next: child == -1 ? next : try emit(child, &c)))
            }
            transitions.sort { $0.range.lowerBound < $1.range.lowerBound }
            let key = transitions.flatMap { [UInt32($0.range.lowerBound), UInt32($0.range.upperBound), $0.next] }
            if let known = shared[key] { return known }
            let state: ThompsonNFA.StateID
            if transitions.count == 1 {
                state = try c.add(.byteRange(transitions[0].range, next: transitions[0].next))
            } else if zip(transitions, transitions.dropFirst()).allSatisfy({ $0.range.upperBound < $1.range.lowerBound }) {
                state = try c.add(.sparse(transitions))
            } else {
                // Overlapping ranges (reading backward, `[80-BF]` and `[A0-BF]` after the same
                // last byte): one alternative each; they match disjoint scalars, so order is moot.
                var alternatives: [ThompsonNFA.StateID] = []
                for t in transitions { alternatives.append(try c.add(.byteRange(t.range, next: t.next))) }
                state = try c.add(.union(alternatives))
            }
            shared[key] = state
            return state
        }
        return try emit(0, &self)
    }

    mutating func compileRanges(_ ranges: [ClosedRange<UInt8>], next: ThompsonNFA.StateID) throws(AutomatonError) -> ThompsonNFA.StateID {
        let sorted = normalize(ranges)
        if sorted.isEmpty { return try add(.fail) }
        if sorted.count == 1 { return try add(.byteRange(sorted[0], next: next)) }
        return try add(.sparse(sorted.map { ThompsonNFA.Transition(range: $0, next: next) }))
    }

    /// Sorts and merges overlapping or adjacent ranges.
    func normalize(_ ranges: [ClosedRange<UInt8>]) -> [ClosedRange<UInt8>] {
        let sorted = ranges.sorted { $0.lowerBound < $1.lowerBound }
        var out: [ClosedRange<UInt8>] = []
        for r in sorted {
            if let last = out.last, Int(r.lowerBound) <= Int(last.upperBound) + 1 {
                out[out.count - 1] = last.lowerBound...max(last.upperBound, r.upperBound)
            } else {
                out.append(r)
            }
        }
        return out
    }
}

extension Hir.Look {
    /// The assertion as seen by a search running backward.
    public var mirrored: Hir.Look {
        switch self {
        case .textStart: return .textEnd
        case .textEnd: return .textStart
        case .lineStart: return .lineEnd
        case .lineEnd: return .lineStart
        case .wordBoundary, .notWordBoundary: return self
        case .wordStart: return .wordEnd
        case .wordEnd: return .wordStart
        case .wordStartHalf: return .wordEndHalf
        case .wordEndHalf: return .wordStartHalf
        }
    }
}

extension Hir {
    /// The fewest bytes any match consumes (0 when the Hir can match the empty string).
    public var minimumLength: Int {
        switch self {
        case .empty, .look: return 0
        case .literal(let b): return b.count
        case .byteClass, .scalarClass: return 1
        case .concat(let items): return items.reduce(0) { $0 + $1.minimumLength }
        case .alternation(let items): return items.map(\.minimumLength).min() ?? 0
        case .repetition(let sub, let minCount, _, _): return minCount * sub.minimumLength
        }
    }
}
