// StateKeyTable: the DFA states found so far, each a state key (ordered NFA seeds,
// look-behind fact, empty-match flag, patterns) stored in one flat array and found again
// through an open-addressing hash table of state indices.
//
// Both the subset construction and the lazy DFA's cache intern every transition's
// target here. A key of its own arrays cost two allocations per state, a SipHash step
// per seed and, at the end, a release per array; the flat layout costs none of them
// (regex-automata keeps its determinizer's states as one byte buffer each for the same
// reason, `util/determinize/state.rs`).
//
// Known limits: at most 2^31 words of keys; the hash is FxHash (fast, not
// DoS-resistant, which is fine: the keys come from the pattern, not the haystack).

/// Interned DFA state keys: index i is the i-th distinct key added.
///
/// ```swift
/// var table = StateKeyTable()
/// let a = table.intern(seeds: [3, 5], previous: 0, suppressEmptyMatch: false, patterns: [])
/// let b = table.intern(seeds: [3, 5], previous: 0, suppressEmptyMatch: false, patterns: [])
/// a == b   // (index: 0, isNew: true) then (index: 0, isNew: false)
/// ```
///
/// - Complexity: `intern` O(key length) expected; memory O(total key length).
struct StateKeyTable: Sendable {
    /// Key i occupies `words[offsets[i] ..< offsets[i + 1]]`: a header word
    /// (previous in bits 0-7, suppressEmptyMatch in bit 8, seed count from bit 9), the
    /// seeds in priority order, then the patterns. `offsets` has `count + 1` entries.
    private(set) var words: [UInt32] = []
    private(set) var offsets: [Int32] = [0]
    /// The hash of each key, so growing the slots rehashes nothing.
    private var hashes: [UInt32] = []
    /// Open addressing, a power of two long, at most half full: a key index or -1.
    private var slots: [Int32]
    private var mask: Int
    /// Counts ``removeAll()`` calls: an index names the same key only within one epoch.
    private(set) var epoch = 0

    init(capacity: Int = 64) {
        var n = 16
        while n < capacity * 2 { n <<= 1 }
        slots = [Int32](repeating: -1, count: n)
        mask = n - 1
    }

    /// Number of keys.
    var count: Int { offsets.count - 1 }

    /// Bytes of key storage (words, offsets, hashes, slots).
    var storageBytes: Int { words.count * 4 + offsets.count * 4 + hashes.count * 4 + slots.count * 4 }

    /// Forgets every key, keeping the storage.
    mutating func removeAll() {
        epoch &+= 1
        words.removeAll(keepingCapacity: true)
        offsets.removeAll(keepingCapacity: true)
        offsets.append(0)
        hashes.removeAll(keepingCapacity: true)
        for i in slots.indices { slots[i] = -1 }
    }

    // MARK: Reading a key

    @inline(__always) func previous(_ i: Int) -> UInt8 { UInt8(truncatingIfNeeded: words[Int(offsets[i])]) }
    @inline(__always) func suppressEmptyMatch(_ i: Int) -> Bool { words[Int(offsets[i])] & 0x100 != 0 }
    @inline(__always) func seedCount(_ i: Int) -> Int { Int(words[Int(offsets[i])] >> 9) }
    /// Where key i's seeds begin in ``words``.
    @inline(__always) func seedStart(_ i: Int) -> Int { Int(offsets[i]) &+ 1 }
    /// Where key i's patterns begin and end in ``words``.
    @inline(__always) func patternRange(_ i: Int) -> Range<Int> { (seedStart(i) &+ seedCount(i))..<Int(offsets[i &+ 1]) }
    /// Whether key i is a match state (some pattern ended one symbol before it).
    @inline(__always) func isMatch(_ i: Int) -> Bool { !patternRange(i).isEmpty }
    /// The first (highest-priority) pattern of a match state.
    @inline(__always) func firstPattern(_ i: Int) -> UInt32 { words[patternRange(i).lowerBound] }
    /// Whether match state i reports `pattern`.
    func reports(_ i: Int, pattern: UInt32) -> Bool {
        for w in patternRange(i) where words[w] == pattern { return true }
        return false
    }
    /// Key i's patterns, highest priority first.
    func patterns(_ i: Int) -> [UInt32] { Array(words[patternRange(i)]) }
    /// Key i's seeds.
    func seeds(_ i: Int) -> ArraySlice<UInt32> { words[seedStart(i) ..< seedStart(i) &+ seedCount(i)] }

    // MARK: Interning

    /// The index of the key, adding it when new.
    mutating func intern(seeds: [UInt32], previous: UInt8, suppressEmptyMatch: Bool,
                         patterns: [UInt32]) -> (index: Int, isNew: Bool) {
        let header = UInt32(previous) | (suppressEmptyMatch ? 0x100 : 0) | UInt32(seeds.count) << 9
        var h = Self.mix(0, header)
        for s in seeds { h = Self.mix(h, s) }
        for p in patterns { h = Self.mix(h, p) }
        let hash = UInt32(truncatingIfNeeded: h >> 32)
        var slot = Int(hash) & mask
        while true {
            let found = Int(slots[slot])
            if found < 0 { break }
            if hashes[found] == hash, equals(found, header: header, seeds: seeds, patterns: patterns) {
                return (found, false)
            }
            slot = (slot &+ 1) & mask
        }
        let index = count
        words.append(header)
        words.append(contentsOf: seeds)
        words.append(contentsOf: patterns)
        offsets.append(Int32(words.count))
        hashes.append(hash)
        slots[slot] = Int32(index)
        if count * 2 > slots.count { grow() }
        return (index, true)
    }

    private func equals(_ i: Int, header: UInt32, seeds: [UInt32], patterns: [UInt32]) -> Bool {
        var w = Int(offsets[i])
        guard Int(offsets[i &+ 1]) &- w == 1 &+ seeds.count &+ patterns.count, words[w] == header else { return false }
        w &+= 1
        for s in seeds { if words[w] != s { return false }; w &+= 1 }
        for p in patterns { if words[w] != p { return false }; w &+= 1 }
        return true
    }

    private mutating func grow() {
        let n = slots.count * 2
        slots = [Int32](repeating: -1, count: n)
        mask = n - 1
        for (index, hash) in hashes.enumerated() {
            var slot = Int(hash) & mask
            while slots[slot] >= 0 { slot = (slot &+ 1) & mask }
            slots[slot] = Int32(index)
        }
    }

    /// FxHash's step (rustc's hasher): rotate, xor, multiply.
    @inline(__always)
    private static func mix(_ h: UInt64, _ word: UInt32) -> UInt64 {
        ((h << 5 | h >> 59) ^ UInt64(word)) &* 0x517c_c1b7_2722_0a95
    }
}
