// Determinizer: the one transition function shared by the full DFA (subset
// construction, DFA/SubsetConstruction.swift) and the lazy DFA
// (Hybrid/LazyDFA.swift), so both build exactly the same states.
//
// Source: the Rabin–Scott subset construction (M. Rabin, D. Scott, "Finite Automata
// and Their Decision Problems", 1959), with the two refinements of RE2 and Rust's
// regex-automata that make it leftmost-first and look-around aware:
//
// * A DFA state holds an *ordered* list of NFA states (priority order of a
//   depth-first epsilon closure that follows union alternatives in order). Under
//   leftmost-first, when the closure reaches a match state everything after it is cut,
//   so lower-priority threads (later alternatives, later starts) die.
// * Matches are delayed by one byte. A DFA state stands for a position p *after*
//   the previous byte, and holds the NFA states reached by consuming it ("seeds"),
//   not yet closed, plus what look-behind needs to know about that byte (text start,
//   `\n`, word byte, other). The closure at p is computed only when the next symbol
//   (byte or end-of-input) is known, so every assertion at p — `^ $ \A \z \b \B` on
//   both sides — is decided exactly. If the closure reaches a match, the *successor*
//   is a match state: the match ended at p, one symbol before the state was entered.
//
// Known limits: state keys are plain arrays hashed in a Dictionary; look-behind facts
// are only tracked for the assertions a pattern uses (otherwise all collapse), which
// keeps assertion-free patterns as small as without look-around support.

import AutomatonCore

/// How the closure treats match states.
enum DeterminizeMatchKind: Sendable {
    /// Forward search, leftmost-first: cut everything after the first match.
    case leftmostFirst
    /// Reverse search: keep every thread and report every pattern that matches.
    case all
}

/// A DFA state before numbering: the ordered, unclosed NFA seeds (the NFA states
/// reached by the last byte, in priority order, without duplicates), the look-behind
/// fact about the previous byte (canonical; see ``LookContext``), whether the next
/// closure ignores matches (set only on the start state of a "non-empty match anchored
/// here" search), and the patterns whose match ended one symbol before the state (empty:
/// not a match state). Keys are stored flat in a ``StateKeyTable``.

/// Look-behind and look-ahead categories, and which assertions hold between them.
enum LookContext {
    // previous: 0 text start, 1 `\n`, 2 word byte, 3 other byte.
    // next:     0 end of input, 1 `\n`, 2 word byte, 3 other byte.
    static let textStart: UInt8 = 0, newline: UInt8 = 1, word: UInt8 = 2, other: UInt8 = 3
    static let endOfInput: UInt8 = 0

    @inline(__always)
    static func category(of byte: UInt8) -> UInt8 {
        byte == 0x0A ? newline : (isASCIIWordByte(byte) ? word : other)
    }

    @inline(__always)
    static func holds(_ look: Hir.Look, previous: UInt8, next: UInt8) -> Bool {
        switch look {
        case .textStart: return previous == textStart
        case .lineStart: return previous <= newline
        case .textEnd: return next == endOfInput
        case .lineEnd: return next <= newline
        case .wordBoundary: return (previous == word) != (next == word)
        case .notWordBoundary: return (previous == word) == (next == word)
        case .wordStart: return previous != word && next == word
        case .wordEnd: return previous == word && next != word
        case .wordStartHalf: return previous != word
        case .wordEndHalf: return next != word
        }
    }

    /// Maps each previous-byte category to the coarsest one the used assertions
    /// still distinguish.
    static func canonicalization(for looks: Set<Hir.Look>) -> [UInt8] {
        let needText = looks.contains(.textStart)
        let needLine = looks.contains(.lineStart)
        let needWord = looks.contains { $0.isWordLook }
        var map: [UInt8] = [textStart, newline, word, other]
        if !needText { map[0] = needLine ? newline : other }
        if !needLine { map[1] = other; if map[0] == newline { map[0] = other } }
        if !needWord { map[2] = other }
        return map
    }

    static func category(_ context: StartContext) -> UInt8 {
        switch context {
        case .textStart: return textStart
        case .lineStart: return newline
        case .wordByte: return word
        case .otherByte: return other
        }
    }
}

/// One entry of the closure's depth-first stack: an NFA state and the iteration
/// flags of the enclosing nullable loops (see ``ThompsonNFA/State/loop(body:exit:greedy:flag:)``).
struct ClosureItem: Hashable, Sendable {
    var state: UInt32
    var flags: UInt64
}

/// The NFA flattened into parallel arrays for the determinizer's inner loops (no
/// enum payloads to copy or retain per state visit), plus each consuming state's
/// target for every byte class.
struct FlatNFA: Sendable {
    static let consumer: UInt8 = 0, union: UInt8 = 1, loop: UInt8 = 2, look: UInt8 = 3
    static let repeatBack: UInt8 = 4, match: UInt8 = 5, fail: UInt8 = 6
    static let noTarget = UInt32.max

    var kind: [UInt8] = []
    /// union: first index into `pool`; loop: body; look: next; repeatBack: loop.
    var a: [UInt32] = []
    /// union: alternative count; loop and repeatBack: exit.
    var b: [UInt32] = []
    /// loop and repeatBack: flag (-1 none); look: index in Hir.Look.allCases;
    /// match: pattern; loop: greedy in bit 16.
    var c: [Int32] = []
    var pool: [UInt32] = []
    /// consumer: row in `targets` (times the class count).
    var row: [Int32] = []
    /// `classCount` targets per consumer (noTarget when the class is not accepted).
    var targets: [UInt32] = []
    let classCount: Int

    init(_ nfa: ThompsonNFA, _ classes: ByteClasses) {
        classCount = classes.count
        let reps = classes.representatives
        let looks = Hir.Look.allCases
        for state in nfa.states {
            var k = FlatNFA.fail, x: UInt32 = 0, y: UInt32 = 0, z: Int32 = 0, r: Int32 = -1
            switch state {
            case .byteRange, .sparse:
                k = FlatNFA.consumer
                r = Int32(targets.count)
                for byte in reps {
                    var t = FlatNFA.noTarget
                    switch state {
                    case .byteRange(let range, let n): if range.contains(byte) { t = n }
                    case .sparse(let ts): for tr in ts where tr.range.contains(byte) { t = tr.next; break }
                    default: break
                    }
                    targets.append(t)
                }
            case .union(let alts):
                k = FlatNFA.union; x = UInt32(pool.count); y = UInt32(alts.count); pool += alts
            case .loop(let body, let exit, let greedy, let flag):
                k = FlatNFA.loop; x = body; y = exit; z = Int32(flag) | (greedy ? 1 << 16 : 0)
            case .look(let look, let n):
                k = FlatNFA.look; x = n; z = Int32(looks.firstIndex(of: look)!)
            case .repeatBack(let loop, let exit, let flag):
                k = FlatNFA.repeatBack; x = loop; y = exit; z = Int32(flag)
            case .match(let p):
                k = FlatNFA.match; z = Int32(p)
            case .fail:
                k = FlatNFA.fail
            }
            kind.append(k); a.append(x); b.append(y); c.append(z); row.append(r)
        }
    }
}

/// Computes DFA transitions from NFA state sets. Holds scratch space, so it is a
/// value each builder or cache owns.
struct Determinizer: Sendable {
    let nfa: ThompsonNFA
    let matchKind: DeterminizeMatchKind
    let byteClasses: ByteClasses
    /// One byte per class, in class order.
    let representatives: [UInt8]
    let canonical: [UInt8]

    private var marks: [UInt32]
    private var generation: UInt32 = 0
    private var stack: [ClosureItem] = []
    /// The state (index and table epoch) whose closures `closureConsumers` and
    /// `closurePatterns` hold, per next-symbol category where `closureValid` says so.
    private var closureState = -1
    private var closureEpoch = -1
    private var closureValid: [Bool] = [false, false, false, false]
    private var closureConsumers: [[UInt32]] = [[], [], [], []]
    private var closurePatterns: [[UInt32]] = [[], [], [], []]
    private var patterns: [UInt32] = []
    /// Visited (state, flags) pairs with some iteration flag raised.
    private var flagged: Set<ClosureItem> = []
    /// Consumers already recorded in this closure (a consumer reached with other
    /// flags behaves the same once it consumes).
    private var seen: [UInt32]
    private var consumers: [UInt32] = []
    private var nextSeeds: [UInt32] = []
    private var seedMarks: [UInt32]
    private var seedGeneration: UInt32 = 0
    /// The work done so far, in units of about 100 instructions: NFA states visited by
    /// the closures and steps, plus ``transitionWork`` per transition (its key's
    /// hashing and interning). The subset construction's budget is measured in it
    /// (``ThompsonNFA/determinized(startKind:limits:workBudget:)``).
    private(set) var work = 0
    /// The units one transition costs besides its closure and step.
    static let transitionWork = 16

    let flat: FlatNFA
    let looks = Hir.Look.allCases

    init(nfa: ThompsonNFA, matchKind: DeterminizeMatchKind, byteClasses: ByteClasses) {
        self.nfa = nfa
        self.flat = FlatNFA(nfa, byteClasses)
        self.matchKind = matchKind
        self.byteClasses = byteClasses
        self.representatives = byteClasses.representatives
        self.canonical = LookContext.canonicalization(for: nfa.looksUsed)
        self.marks = [UInt32](repeating: 0, count: nfa.stateCount)
        self.seedMarks = [UInt32](repeating: 0, count: nfa.stateCount)
        self.seen = [UInt32](repeating: 0, count: nfa.stateCount)
    }

    /// The start state for a context, interned in `table`; `nonEmpty` makes a start
    /// that ignores the empty match at the start position (anchored searches only).
    func start(_ context: StartContext, anchored: Bool, nonEmpty: Bool = false,
               in table: inout StateKeyTable) -> (index: Int, isNew: Bool) {
        table.intern(seeds: [anchored ? nfa.anchoredStart : nfa.unanchoredStart],
                     previous: canonical[Int(LookContext.category(context))],
                     suppressEmptyMatch: nonEmpty, patterns: [])
    }

    /// δ(state, symbol) where `state` indexes `table` and symbol is a class index or
    /// `byteClasses.eoi`: the target interned in `table`, or nil for the dead state.
    mutating func next(_ state: Int, symbol: Int, in table: inout StateKeyTable) -> (index: Int, isNew: Bool)? {
        let isEOI = symbol == byteClasses.eoi
        let byte: UInt8 = isEOI ? 0 : representatives[symbol]
        let nextCategory = isEOI ? LookContext.endOfInput : LookContext.category(of: byte)
        let c = Int(nextCategory)
        work &+= Self.transitionWork
        // The closure depends only on the next symbol's category: compute it at most
        // four times per state (the builder asks for every symbol of one state in a row).
        if closureState != state || closureEpoch != table.epoch {
            closureState = state
            closureEpoch = table.epoch
            for i in 0..<4 { closureValid[i] = false }
        }
        if !closureValid[c] {
            patterns.removeAll(keepingCapacity: true)
            close(state, in: table, nextCategory: nextCategory)
            closureConsumers[c].removeAll(keepingCapacity: true)
            closureConsumers[c].append(contentsOf: consumers)
            closurePatterns[c].removeAll(keepingCapacity: true)
            closurePatterns[c].append(contentsOf: patterns)
            closureValid[c] = true
        }
        if !isEOI { step(symbol, category: c) }
        if isEOI || nextSeeds.isEmpty {
            if closurePatterns[c].isEmpty { return nil }
            return table.intern(seeds: [], previous: 0, suppressEmptyMatch: false, patterns: closurePatterns[c])
        }
        return table.intern(seeds: nextSeeds, previous: canonical[Int(LookContext.category(of: byte))],
                            suppressEmptyMatch: false, patterns: closurePatterns[c])
    }

    /// The epsilon closure of the seeds at a position whose next symbol has
    /// category `nextCategory`: fills `consumers` in priority order and `patterns`.
    private mutating func close(_ state: Int, in table: StateKeyTable, nextCategory: UInt8) {
        consumers.removeAll(keepingCapacity: true)
        generation &+= 1
        if generation == 0 {
            for i in marks.indices { marks[i] = 0; seen[i] = 0 }
            generation = 1
        }
        let gen = generation
        let previous = table.previous(state)
        let suppressEmptyMatch = table.suppressEmptyMatch(state)
        flagged.removeAll(keepingCapacity: true)
        let firstSeed = table.seedStart(state)
        for w in firstSeed ..< firstSeed &+ table.seedCount(state) {
            stack.append(ClosureItem(state: table.words[w], flags: 0))
            while let item = stack.popLast() {
                work &+= 1
                let s = Int(item.state)
                let flags = item.flags
                let kind = flat.kind[s]
                if kind == FlatNFA.repeatBack {
                    // Not marked visited: a second empty iteration must reach it again.
                    let flag = flat.c[s]
                    if flag >= 0 {
                        let bit: UInt64 = 1 << UInt64(flag)
                        stack.append(flags & bit != 0
                            ? ClosureItem(state: flat.b[s], flags: flags & ~bit)
                            : ClosureItem(state: flat.a[s], flags: flags))
                    } else {
                        let loop = flat.a[s]
                        stack.append(ClosureItem(state: marks[Int(loop)] == gen ? flat.b[s] : loop, flags: flags))
                    }
                    continue
                }
                if flags == 0 {
                    if marks[s] == gen { continue }
                    marks[s] = gen
                } else {
                    if !flagged.insert(item).inserted { continue }
                }
                switch kind {
                case FlatNFA.consumer:
                    if seen[s] != gen {
                        seen[s] = gen
                        consumers.append(UInt32(s))
                    }
                case FlatNFA.union:
                    let first = Int(flat.a[s]), count = Int(flat.b[s])
                    var i = first &+ count
                    while i > first {
                        i &-= 1
                        stack.append(ClosureItem(state: flat.pool[i], flags: flags))
                    }
                case FlatNFA.loop:
                    let z = flat.c[s]
                    let bit: UInt64 = 1 << UInt64(z & 0xFFFF)
                    let enter = ClosureItem(state: flat.a[s], flags: flags | bit)
                    let leave = ClosureItem(state: flat.b[s], flags: flags & ~bit)
                    if z & (1 << 16) != 0 { stack.append(leave); stack.append(enter) } else { stack.append(enter); stack.append(leave) }
                case FlatNFA.look:
                    if LookContext.holds(looks[Int(flat.c[s])], previous: previous, next: nextCategory) {
                        stack.append(ClosureItem(state: flat.a[s], flags: flags))
                    }
                case FlatNFA.match:
                    if suppressEmptyMatch { continue }
                    let p = UInt32(flat.c[s])
                    switch matchKind {
                    case .leftmostFirst:
                        patterns.append(p)
                        stack.removeAll(keepingCapacity: true)
                        return
                    case .all:
                        if !patterns.contains(p) { patterns.append(p) }
                    }
                default:
                    continue
                }
            }
        }
        if matchKind == .all { patterns.sort() }
    }

    /// Steps every consumer of the closure for `category` over `symbol` into `nextSeeds`.
    private mutating func step(_ symbol: Int, category: Int) {
        nextSeeds.removeAll(keepingCapacity: true)
        seedGeneration &+= 1
        if seedGeneration == 0 {
            for i in seedMarks.indices { seedMarks[i] = 0 }
            seedGeneration = 1
        }
        let gen = seedGeneration
        let consumers = closureConsumers[category]
        work &+= consumers.count
        for s in consumers {
            let t = flat.targets[Int(flat.row[Int(s)]) &+ symbol]
            if t != FlatNFA.noTarget, seedMarks[Int(t)] != gen {
                seedMarks[Int(t)] = gen
                nextSeeds.append(t)
            }
        }
    }
}
