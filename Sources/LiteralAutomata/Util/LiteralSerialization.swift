// Save/load for literal automata (KMP and Aho-Corasick, both representations).
//
// A versioned little-endian envelope around the automaton: the dense DFA is stored in
// the core's own format (DenseDFA.serialized(), validated by DenseDFA(deserializing:)),
// the compact NFA in the layout below. Every field is checked on load — sizes against
// the bytes present before anything is allocated, every state index, class and
// pattern id against its range, and the failure links for termination (each must
// lead to a strictly shallower trie state) — so a corrupt file is a typed
// AutomatonError, never a crash or a search that does not terminate.
//
// Envelope, version 3: the payload of a SavedContainer (magic "TRNSTLIT", version,
// length, CRC-32C: a truncated file or any changed byte is refused before a field is
// read), then (integers are UInt32 LE unless noted): match kind (u8), flags (u8: 1 case-insensitive,
//   2 whole word, 4 prefilter, 8 duplicate links), representation (u8: 0 dense, 1 compact), shape (u8:
//   0 overlapping, 1 leftmost), pattern count P, P pattern lengths, with flag 8 P
//   duplicate links (DuplicatePatterns.next: the next id with the same pattern, or
//   0xFFFFFFFF; overlapping automata only), depth count D, D state depths, payload
//   length, payload. Flag 8 came after version 3's first files, which list every
//   duplicate in the match lists and load as they are.
// Depths (dense only; D = 0 for compact): each state's distance in bytes from the
// nearest start state, 0xFFFFFFFF for a state no search reaches. The loader checks
// them in one sequential pass over the table instead of walking it breadth-first
// (a walk visits rows in cache-hostile order: 0.55 ms of a 1.34 ms load of the
// built-in list): starts are 0 and no transition gains more than one (end of input
// none), so each stored depth is at most the true distance, and a pattern a state
// reports may be no longer than its depth. Versions 1 (no depths) and 2 (no
// container) are refused with the version error.
// Compact payload: 256-byte class map, class count C, state count S, root row (C),
//   edge starts (S + 1), edge classes (E bytes), edge targets (E), failure links (S),
//   match starts (S + 1), match list (M).

import AutomatonCore

enum LiteralSerialization {
    static let magic: [UInt8] = Array("TRNSTLIT".utf8)
    static let version: UInt32 = 3
    /// The stored depth of a state no search reaches.
    static let unreachable = UInt32.max

    static func serialize(_ e: LiteralEngine) -> [UInt8] {
        var w = Writer()
        w.u8(e.matchKind.rawValue)
        w.u8((e.asciiCaseInsensitive ? 1 : 0) | (e.wholeWord ? 2 : 0) | (e.prefilterEnabled ? 4 : 0)
             | (e.duplicates != nil ? 8 : 0))
        let payload: [UInt8]
        switch e.storage {
        case .dense(let dfa):
            w.u8(LiteralRepresentation.dense.rawValue)
            payload = dfa.serialized()
        case .compact(let nfa):
            w.u8(LiteralRepresentation.compact.rawValue)
            payload = serializeCompact(nfa)
        }
        w.u8(e.shape.rawValue)
        w.u32(UInt32(e.lengths.count))
        for l in e.lengths { w.u32(UInt32(l)) }
        if let duplicates = e.duplicates { for n in duplicates.next { w.u32(n) } }
        if case .dense(let dfa) = e.storage {
            let depths = depths(of: dfa)
            w.u32(UInt32(depths.count))
            for d in depths { w.u32(d) }
        } else {
            w.u32(0)
        }
        w.u32(UInt32(payload.count))
        w.bytes(payload)
        return SavedContainer.seal(w.out, magic: magic, version: version)
    }

    static func serializeCompact(_ n: CompactNFA) -> [UInt8] {
        var w = Writer()
        w.bytes(n.byteClasses.classMap)
        w.u32(UInt32(n.byteClasses.count))
        w.u32(UInt32(n.stateCount))
        for x in n.rootRow { w.u32(x) }
        for x in n.edgeStart { w.u32(x) }
        w.bytes(n.edgeClass)
        for x in n.edgeNext { w.u32(x) }
        for x in n.fail { w.u32(x) }
        for x in n.matchStart { w.u32(x) }
        for x in n.matchList { w.u32(x) }
        return w.out
    }

    static func corrupt(_ why: String) -> AutomatonError { AutomatonError(.corrupt(why)) }

    /// The engine saved in `file`; with `checksumCovered` (a file nested in one whose
    /// checksum the caller verified) no checksum is computed, otherwise exactly one:
    /// the nested DFA's container is covered by this one's.
    static func deserialize(_ file: ArraySlice<UInt8>, checksumCovered: Bool = false) throws(AutomatonError) -> LiteralEngine {
        let bytes = try SavedContainer.open(file, magic: magic, version: version, checksumCovered: checksumCovered)
        var r = Reader(bytes)
        guard let kind = MatchKind(rawValue: try r.u8()) else { throw corrupt("unknown match kind") }
        let flags = try r.u8()
        guard flags & ~15 == 0 else { throw corrupt("unknown option flags \(flags)") }
        guard let representation = LiteralRepresentation(rawValue: try r.u8()) else {
            throw corrupt("unknown representation")
        }
        guard let shape = LiteralTrie.Shape(rawValue: try r.u8()) else { throw corrupt("unknown automaton shape") }
        let patternCount = Int(try r.u32())
        try r.need(patternCount * 4)
        var lengths: [Int] = []
        lengths.reserveCapacity(patternCount)
        for _ in 0..<patternCount {
            let l = try r.u32()
            guard l <= Int32.max else { throw corrupt("pattern length \(l) is too large") }
            lengths.append(Int(l))
        }
        var duplicates: DuplicatePatterns? = nil
        if flags & 8 != 0 {
            guard kind == .overlapping else { throw corrupt("duplicate links in a leftmost automaton") }
            let next = try r.u32s(patternCount)
            if let problem = DuplicatePatterns.problem(in: next, lengths: lengths) { throw corrupt(problem) }
            duplicates = DuplicatePatterns(next: next)
        }
        let depthCount = Int(try r.u32())
        try r.need(depthCount * 4)
        var depths: [UInt32] = []
        depths.reserveCapacity(depthCount)
        for _ in 0..<depthCount { depths.append(try r.u32()) }
        let ci = flags & 1 != 0, ww = flags & 2 != 0, pf = flags & 4 != 0
        guard shape == LiteralEngine.shape(for: kind, wholeWord: ww, hasEmpty: lengths.contains(0)) else {
            throw corrupt("the automaton shape does not fit the match kind and options")
        }
        let payloadLength = Int(try r.u32())
        try r.need(payloadLength)
        guard r.position + payloadLength == bytes.count else {
            throw corrupt("\(bytes.count - r.position - payloadLength) trailing bytes")
        }
        let payloadStart = r.position
        let storage: LiteralStorage
        var maxLength: Int?
        switch representation {
        case .dense:
            // Straight from the file's bytes: the DFA loader copies the table once.
            let loaded = bytes.withUnsafeBytes { raw in
                Result { () throws(AutomatonError) -> DenseDFA in
                    try DenseDFA(deserializing: UnsafeRawBufferPointer(rebasing: raw[payloadStart...]), checksumCovered: true)
                }
            }
            let dfa = try loaded.get()
            guard dfa.matchTiming == .immediate else { throw corrupt("a literal DFA must use immediate match timing") }
            guard dfa.patternCount == patternCount else { throw corrupt("the DFA's pattern count differs from the header's") }
            guard depths.count == dfa.stateCount else {
                throw corrupt("\(depths.count) state depths for \(dfa.stateCount) states")
            }
            maxLength = try checkLengths(lengths, depths: depths, against: dfa)
            storage = .dense(dfa)
        case .compact:
            guard depths.isEmpty else { throw corrupt("state depths given for a compact automaton") }
            storage = .compact(try deserializeCompact(Array(bytes[(bytes.startIndex + payloadStart)...]), lengths: lengths))
        }
        return LiteralEngine(matchKind: kind, asciiCaseInsensitive: ci, wholeWord: ww, lengths: lengths,
                             shape: shape, storage: storage, duplicates: duplicates, prefilterEnabled: pf,
                             maxLength: maxLength)
    }

    /// Each state's distance in bytes from the nearest start state (``unreachable``
    /// for states no search reaches): what ``serialize(_:)`` stores for the loader.
    /// End of input is an edge that consumes no byte, so the walk goes level by level
    /// (a 0-1 breadth-first search): all states at `level` bytes, closed under end of
    /// input, before any at `level + 1`.
    ///
    /// - Complexity: O(reachable states × classes).
    static func depths(of dfa: DenseDFA) -> [UInt32] {
        let classes = dfa.byteClasses.count, eoi = dfa.byteClasses.eoi
        var depth = [UInt32](repeating: unreachable, count: dfa.stateCount)
        func next(_ s: Int, _ symbol: Int) -> Int { dfa.index(of: dfa.next(dfa.id(ofIndex: s), class: symbol)) }
        var current: [Int] = []
        for context in StartContext.allCases {
            for anchored in [false, true] {
                let s = dfa.index(of: dfa.startState(context, anchored: anchored))
                if depth[s] == unreachable { depth[s] = 0; current.append(s) }
            }
        }
        var level: UInt32 = 0
        while !current.isEmpty {
            var k = 0
            while k < current.count {
                let t = next(current[k], eoi)
                if depth[t] == unreachable { depth[t] = level; current.append(t) }
                k += 1
            }
            var following: [Int] = []
            for s in current {
                for c in 0..<classes {
                    let t = next(s, c)
                    if depth[t] == unreachable { depth[t] = level + 1; following.append(t) }
                }
            }
            current = following
            level += 1
        }
        return depth
    }

    /// Checks a loaded DFA's stored `depths` and that every pattern a match state
    /// reports fits in the bytes consumed to reach it: a declared length longer than
    /// the distance from a start state would put match starts before the search
    /// position (before the haystack), and a huge one would make the leftmost selector
    /// and the stream carry allocate that much.
    ///
    /// The depths are trusted only after one sequential pass over the table shows
    /// they are lower bounds of the true distances: every start state is at depth 0
    /// and no byte transition gains more than one (end of input none). Along any path
    /// from a start the depth then grows by at most one per byte, so a state's depth
    /// never exceeds its distance; a state marked unreachable has no such path.
    ///
    /// - Returns: the longest pattern a state not marked unreachable reports (the
    ///   engine's `maxLength`), at most the state count.
    /// - Complexity: O(states × classes), one pass in memory order over the table.
    static func checkLengths(_ lengths: [Int], depths: [UInt32], against dfa: DenseDFA) throws(AutomatonError) -> Int {
        let stateCount = dfa.stateCount, shift = dfa.strideShift
        let classes = dfa.byteClasses.count, eoi = dfa.byteClasses.eoi
        for context in StartContext.allCases {
            for anchored in [false, true] where depths[dfa.index(of: dfa.startState(context, anchored: anchored))] != 0 {
                throw corrupt("a start state's stored depth is not 0")
            }
        }
        // One flag for the whole pass (no branch per entry); a failing table is not
        // worth naming the entry of, the file is corrupt either way.
        let consistent = depths.withUnsafeBufferPointer { depth in
            dfa.withUnsafeTable { table -> Bool in
                var bad: UInt32 = 0
                let depth = depth.baseAddress!
                for s in 0..<stateCount {
                    let row = table.baseAddress! + (s << shift)
                    let here = depth[s]
                    // An unreachable source (0xFFFFFFFF) allows anything: the step saturates.
                    let step = here &+ (here == unreachable ? 0 : 1)
                    for c in 0..<classes {
                        // Entries were checked by the DFA loader: multiples of the stride
                        // below the table's end, so every index is a state.
                        bad |= depth[Int(truncatingIfNeeded: row[c] >> UInt32(shift))] > step ? 1 : 0
                    }
                    bad |= depth[Int(truncatingIfNeeded: row[eoi] >> UInt32(shift))] > here ? 1 : 0
                }
                return bad == 0
            }
        }
        guard consistent else { throw corrupt("the stored state depths do not fit the transitions") }
        // Match states are the indices 1...matchStateCount.
        var longest = 0
        for s in stride(from: 1, through: dfa.matchStateCount, by: 1) where depths[s] != unreachable {
            let reached = Int(depths[s])
            for p in dfa.patterns(of: dfa.id(ofIndex: s)) {
                let length = lengths[Int(p)]
                if length > reached || length > stateCount {
                    throw corrupt("pattern \(p) has length \(length) but is reported \(reached) bytes after the start")
                }
                longest = max(longest, length)
            }
        }
        return longest
    }

    static func deserializeCompact(_ bytes: [UInt8], lengths: [Int]) throws(AutomatonError) -> CompactNFA {
        let patternCount = lengths.count
        var r = Reader(bytes)
        try r.need(256 + 8)
        let map = Array(bytes[0..<256])
        r.position = 256
        guard let classes = ByteClasses(map: map) else { throw corrupt("malformed byte class map") }
        guard Int(try r.u32()) == classes.count else { throw corrupt("class count differs from the class map") }
        let n = Int(try r.u32())
        guard n >= 2 else { throw corrupt("a compact NFA needs the dead state and the root") }
        try r.need(classes.count * 4 + (n + 1) * 4)
        let rootRow = try r.u32s(classes.count)
        let edgeStart = try r.u32s(n + 1)
        let e = Int(edgeStart[n])
        try r.need(e * 5 + n * 4 + (n + 1) * 4)
        let edgeClass = Array(bytes[r.position..<(r.position + e)])
        r.position += e
        let edgeNext = try r.u32s(e)
        let fail = try r.u32s(n)
        let matchStart = try r.u32s(n + 1)
        let m = Int(matchStart[n])
        try r.need(m * 4)
        let matchList = try r.u32s(m)
        guard r.position == bytes.count else { throw corrupt("trailing bytes after the compact NFA") }

        // Ranges.
        guard edgeStart[0] == 0, matchStart[0] == 0 else { throw corrupt("offset tables must start at 0") }
        // Offsets first (they bound every index below).
        for s in 0..<n {
            guard edgeStart[s] <= edgeStart[s + 1] else { throw corrupt("edge offsets decrease at state \(s)") }
            guard matchStart[s] <= matchStart[s + 1] else { throw corrupt("match offsets decrease at state \(s)") }
        }
        for s in 0..<n {
            guard Int(fail[s]) < n else { throw corrupt("failure link of state \(s) is out of range") }
            var previous = -1
            for i in Int(edgeStart[s])..<Int(edgeStart[s + 1]) {
                guard Int(edgeClass[i]) < classes.count, Int(edgeClass[i]) > previous else {
                    throw corrupt("edge classes of state \(s) are out of range or unsorted")
                }
                previous = Int(edgeClass[i])
                guard edgeNext[i] >= 2, Int(edgeNext[i]) < n else { throw corrupt("edge target of state \(s) is out of range") }
            }
        }
        for x in rootRow where Int(x) >= n { throw corrupt("root row entry \(x) is out of range") }
        for p in matchList where Int(p) >= patternCount { throw corrupt("pattern id \(p) is out of range") }
        guard edgeStart[1] == 0, matchStart[1] == 0 else { throw corrupt("the dead state has edges or matches") }
        guard fail[0] == 0, fail[1] == 0 else { throw corrupt("the dead state and the root must fail to dead") }
        // The edges form a tree rooted at state 1 covering every state, and every
        // failure link leads to a strictly shallower state: then δ terminates.
        var depth = [Int](repeating: -1, count: n)
        depth[1] = 0
        var queue = [1], head = 0
        while head < queue.count {
            let s = queue[head]; head += 1
            for i in Int(edgeStart[s])..<Int(edgeStart[s + 1]) {
                let t = Int(edgeNext[i])
                guard depth[t] < 0 else { throw corrupt("state \(t) has two parents in the trie") }
                depth[t] = depth[s] + 1
                queue.append(t)
            }
        }
        guard queue.count == n - 1 else { throw corrupt("\(n - 1 - queue.count) states are unreachable from the root") }
        for s in 2..<max(2, n) where fail[s] != 0 && depth[Int(fail[s])] >= depth[s] {
            throw corrupt("failure link of state \(s) does not lead to a shallower state")
        }
        // A pattern reported at a state is a suffix of the trie path to it (see checkLengths).
        for s in 1..<n {
            for i in Int(matchStart[s])..<Int(matchStart[s + 1]) where lengths[Int(matchList[i])] > depth[s] {
                throw corrupt("pattern \(matchList[i]) has length \(lengths[Int(matchList[i])]) but is reported at trie depth \(depth[s])")
            }
        }
        // The root row is exactly the root's edges, and the root elsewhere (as the
        // builder writes it): an entry jumping to a deeper state would let one byte
        // reach a state whose patterns start before the haystack.
        var expectedRootRow = [UInt32](repeating: 1, count: classes.count)
        for i in Int(edgeStart[1])..<Int(edgeStart[2]) { expectedRootRow[Int(edgeClass[i])] = edgeNext[i] }
        guard rootRow == expectedRootRow else { throw corrupt("the root row disagrees with the root's edges") }
        return CompactNFA(byteClasses: classes, stateCount: n, patternCount: patternCount, rootRow: rootRow,
                          edgeStart: edgeStart, edgeClass: edgeClass, edgeNext: edgeNext, fail: fail,
                          matchStart: matchStart, matchList: matchList)
    }

    struct Writer {
        var out: [UInt8] = []
        mutating func u8(_ v: UInt8) { out.append(v) }
        mutating func u32(_ v: UInt32) {
            out.append(UInt8(truncatingIfNeeded: v)); out.append(UInt8(truncatingIfNeeded: v >> 8))
            out.append(UInt8(truncatingIfNeeded: v >> 16)); out.append(UInt8(truncatingIfNeeded: v >> 24))
        }
        mutating func bytes(_ b: [UInt8]) { out.append(contentsOf: b) }
    }

    /// Reads little-endian fields from a file's bytes (an array or a slice of a
    /// larger file, positions counted from the slice's start), checking each length.
    struct Reader {
        let bytes: ArraySlice<UInt8>
        var position = 0
        init(_ bytes: ArraySlice<UInt8>) { self.bytes = bytes }
        init(_ bytes: [UInt8]) { self.bytes = bytes[...] }
        func need(_ count: Int) throws(AutomatonError) {
            let (end, overflow) = position.addingReportingOverflow(count)
            if overflow || count < 0 || end > bytes.count {
                throw AutomatonError(.truncated(needed: overflow ? Int.max : end, available: bytes.count))
            }
        }
        mutating func u8() throws(AutomatonError) -> UInt8 {
            try need(1)
            defer { position += 1 }
            return bytes[bytes.startIndex + position]
        }
        mutating func u32() throws(AutomatonError) -> UInt32 {
            try need(4)
            defer { position += 4 }
            let at = bytes.startIndex + position
            return UInt32(bytes[at]) | UInt32(bytes[at + 1]) << 8
                | UInt32(bytes[at + 2]) << 16 | UInt32(bytes[at + 3]) << 24
        }
        mutating func u32s(_ count: Int) throws(AutomatonError) -> [UInt32] {
            try need(count * 4)
            var out = [UInt32](repeating: 0, count: count)
            for i in 0..<count { out[i] = try u32() }
            return out
        }
    }
}

extension AhoCorasick {
    /// The automaton (either representation) in Turnstile's versioned binary format.
    ///
    /// ```swift
    /// let saved = ac.serialized()
    /// let loaded = try AhoCorasick(deserializing: saved)
    /// loaded.matches(in: "text") == ac.matches(in: "text")   // true
    /// ```
    /// - Complexity: O(automaton size).
    public func serialized() -> [UInt8] { LiteralSerialization.serialize(engine) }

    /// Loads an automaton saved by ``serialized()``, validating every field.
    ///
    /// - Throws: ``AutomatonError``: `.notAnAutomaton`, `.unsupportedVersion`,
    ///   `.truncated`, `.checksumMismatch` (any changed byte) or `.corrupt` (naming the
    ///   failed check, for a hand-made file with a valid checksum). Never crashes.
    /// - Complexity: O(file size) to load; search costs are unchanged.
    public init(deserializing bytes: [UInt8]) throws(AutomatonError) {
        self.init(engine: try LiteralSerialization.deserialize(bytes[...]))
    }

    /// Loads an automaton from part of a larger file (a saved rule set) without
    /// copying it out first; with `checksumCovered` the caller has verified the larger
    /// file's checksum, so these bytes are not checksummed again.
    package init(deserializing bytes: ArraySlice<UInt8>, checksumCovered: Bool = false) throws(AutomatonError) {
        self.init(engine: try LiteralSerialization.deserialize(bytes, checksumCovered: checksumCovered))
    }
}

extension KMP {
    static let serializationMagic: [UInt8] = Array("TRNSTKMP".utf8)

    /// The automaton in Turnstile's versioned binary format: a ``SavedContainer``
    /// ("TRNSTKMP", version 2) holding the pattern's length, the pattern, then the
    /// envelope of ``AhoCorasick/serialized()``.
    ///
    /// ```swift
    /// let kmp = try KMP("needle")
    /// let again = try KMP(deserializing: kmp.serialized())
    /// ```
    /// - Complexity: O(pattern length × byte classes).
    public func serialized() -> [UInt8] {
        var w = LiteralSerialization.Writer()
        w.u32(UInt32(pattern.count))
        w.bytes(pattern)
        w.bytes(LiteralSerialization.serialize(engine))
        return SavedContainer.seal(w.out, magic: Self.serializationMagic, version: Self.serializationVersion)
    }

    /// The format version of ``serialized()`` (version 1 had no container).
    static let serializationVersion: UInt32 = 2

    /// Loads a KMP automaton saved by ``serialized()``, validating every field.
    /// - Throws: ``AutomatonError`` as ``AhoCorasick/init(deserializing:)`` does.
    /// - Complexity: O(file size).
    public init(deserializing file: [UInt8]) throws(AutomatonError) {
        let bytes = try SavedContainer.open(file, magic: Self.serializationMagic, version: Self.serializationVersion)
        var r = LiteralSerialization.Reader(bytes)
        let m = Int(try r.u32())
        try r.need(m)
        let patternStart = bytes.startIndex + r.position
        let pattern = Array(bytes[patternStart..<(patternStart + m)])
        let engine = try LiteralSerialization.deserialize(bytes[(patternStart + m)...], checksumCovered: true)
        guard engine.lengths == [m], case .dense = engine.storage else {
            throw LiteralSerialization.corrupt("not a single-pattern dense automaton of the stored pattern's length")
        }
        self.init(pattern: pattern, engine: engine)
    }
}
