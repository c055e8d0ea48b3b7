import AutomatonCore
import TestSupport

/// Helpers the AutomatonCore tests share: random automata over {a, b, c}, an
/// exhaustive language comparison, and Moore's naive minimization as a reference.
enum DFATestHelpers {
    /// Classes: below a, a, b, c, above c (5 classes, 6 symbols with end-of-input).
    static let abcClasses: ByteClasses = {
        var set = ByteClassSet()
        for byte in "abc".utf8 { set.add(byte) }
        return set.byteClasses()
    }()

    /// A random DFA over `abcClasses` with `states` states besides the dead one,
    /// pattern lists drawn from a small pool (so equivalent states are common), random
    /// start states, and random transitions on a, b, c and end-of-input. Bytes other
    /// than a, b, c lead to the dead state unless `wildBytes` is set, so the strings
    /// over {a, b, c} decide the language.
    static func randomDFA(
        states: Int, patternCount: Int, timing: DenseDFA.MatchTiming, wildBytes: Bool = false,
        using rng: inout SeededGenerator
    ) throws -> DenseDFA {
        let pool: [[PatternID]] = [[], [], [], [0]] + (patternCount > 1 ? [[1], [1, 0], [0, 1]] : [])
            + (patternCount > 2 ? [[2], [2, 0, 1]] : [])
        var b = DenseDFABuilder(byteClasses: abcClasses, patternCount: patternCount)
        for _ in 0..<states { b.addState(patterns: pool.randomElement(using: &rng)!) }
        let total = b.stateCount
        for s in 1..<total {
            for c in 0..<abcClasses.alphabetLength {
                let isABCorEOI = (1...3).contains(c) || c == abcClasses.eoi
                if !isABCorEOI, !wildBytes { continue }
                // Lean toward live targets; sometimes dead.
                let t = Int.random(in: 0..<(total + 1), using: &rng) % total
                b.setTransition(from: s, class: c, to: t)
            }
        }
        for ctx in StartContext.allCases {
            for anchored in [false, true] {
                b.setStart(Int.random(in: 0..<total, using: &rng), context: ctx, anchored: anchored)
            }
        }
        return try b.build(matchTiming: timing, limits: .unlimited)
    }

    /// `base` blown up: every live state gets `copies` copies, and each transition goes
    /// to a random copy of its target. The language is unchanged, so the minimal
    /// automaton is the same size as `base`'s.
    static func duplicated(_ base: DenseDFA, copies: Int, using rng: inout SeededGenerator) throws -> DenseDFA {
        let k = base.byteClasses.alphabetLength
        var b = DenseDFABuilder(byteClasses: base.byteClasses, patternCount: base.patternCount)
        // copy j of live state i (1...) has index 1 + (i-1)*copies + j
        func copy(_ i: Int, _ j: Int) -> Int { i == 0 ? 0 : 1 + (i - 1) * copies + j }
        for i in 1..<base.stateCount {
            let reported = base.patterns(of: base.id(ofIndex: i)).map { Int($0) }
            for _ in 0..<copies { b.addState(patterns: reported) }
        }
        for i in 1..<base.stateCount {
            for j in 0..<copies {
                for c in 0..<k {
                    let t = base.index(of: base.next(base.id(ofIndex: i), class: c))
                    b.setTransition(from: copy(i, j), class: c, to: copy(t, Int.random(in: 0..<copies, using: &rng)))
                }
            }
        }
        for ctx in StartContext.allCases {
            for anchored in [false, true] {
                let s = base.index(of: base.startState(ctx, anchored: anchored))
                b.setStart(copy(s, Int.random(in: 0..<copies, using: &rng)), context: ctx, anchored: anchored)
            }
        }
        return try b.build(matchTiming: base.matchTiming, limits: .unlimited)
    }

    /// Every string over `alphabet` of length ≤ `maxLength`, from every start state:
    /// the first difference in the pattern list reported after the string, or after
    /// the string followed by end-of-input, or nil when the automata agree.
    static func firstDifference(
        _ x: DenseDFA, _ y: DenseDFA, alphabet: [UInt8] = Array("abc".utf8), maxLength: Int = 8
    ) -> String? {
        if x.matchTiming != y.matchTiming { return "match timings differ" }
        if x.patternCount != y.patternCount { return "pattern counts differ" }
        var path: [UInt8] = []
        func walk(_ s: DenseDFA.StateID, _ t: DenseDFA.StateID) -> String? {
            let name = "\"" + String(decoding: path, as: UTF8.self) + "\""
            if Array(x.patterns(of: s)) != Array(y.patterns(of: t)) {
                return "after \(name): \(Array(x.patterns(of: s))) vs \(Array(y.patterns(of: t)))"
            }
            let se = x.nextEOI(s), te = y.nextEOI(t)
            if Array(x.patterns(of: se)) != Array(y.patterns(of: te)) {
                return "after \(name)+EOI: \(Array(x.patterns(of: se))) vs \(Array(y.patterns(of: te)))"
            }
            guard path.count < maxLength else { return nil }
            for byte in alphabet {
                path.append(byte)
                defer { path.removeLast() }
                if let d = walk(x.next(s, byte), y.next(t, byte)) { return d }
            }
            return nil
        }
        for ctx in StartContext.allCases {
            for anchored in [false, true] {
                if let d = walk(x.startState(ctx, anchored: anchored), y.startState(ctx, anchored: anchored)) {
                    return "start \(ctx) anchored=\(anchored): \(d)"
                }
            }
        }
        return nil
    }

    /// Moore's algorithm (naive refinement to a fixpoint) over the reachable states:
    /// the number of states of the minimal automaton, dead state included.
    static func mooreMinimalStateCount(_ dfa: DenseDFA) -> Int {
        let k = dfa.byteClasses.alphabetLength
        var reachable: Set<Int> = [0]
        var stack: [Int] = []
        for ctx in StartContext.allCases {
            for anchored in [false, true] {
                let s = dfa.index(of: dfa.startState(ctx, anchored: anchored))
                if reachable.insert(s).inserted { stack.append(s) }
            }
        }
        while let s = stack.popLast() {
            for c in 0..<k {
                let t = dfa.index(of: dfa.next(dfa.id(ofIndex: s), class: c))
                if reachable.insert(t).inserted { stack.append(t) }
            }
        }
        let states = reachable.sorted()
        var block: [Int: Int] = [:]
        var ids: [[UInt32]: Int] = [:]
        for s in states {
            let key = Array(dfa.patterns(of: dfa.id(ofIndex: s)))
            if ids[key] == nil { ids[key] = ids.count }
            block[s] = ids[key]!
        }
        var count = ids.count
        while true {
            var signatures: [[Int]: Int] = [:]
            var next: [Int: Int] = [:]
            for s in states {
                var signature = [block[s]!]
                for c in 0..<k { signature.append(block[dfa.index(of: dfa.next(dfa.id(ofIndex: s), class: c))]!) }
                if signatures[signature] == nil { signatures[signature] = signatures.count }
                next[s] = signatures[signature]!
            }
            block = next
            if signatures.count == count { return count }
            count = signatures.count
        }
    }
}
