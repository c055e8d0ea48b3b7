// The compact literal representation: an Aho–Corasick NFA (Aho & Corasick 1975)
// stored contiguously — sparse, class-sorted trie transitions per state, a failure
// link per state, and a fully resolved dense row for the root, where most searches
// spend their time. Used when the dense DFA would exceed the memory budget.
//
// Search stays linear: every failure link followed moves to a strictly shallower
// state, and depth grows by at most one per byte, so the number of failure links
// followed never exceeds the number of bytes consumed.

import AutomatonCore

/// A compact Aho–Corasick automaton: what ``AhoCorasick`` uses for pattern sets whose
/// dense DFA would not fit the memory budget.
///
/// State indices are plain (not pre-multiplied): 0 is the dead state, 1 the root
/// (the unanchored start state).
///
/// - Complexity: search O(n) amortized (at most 2n transitions and failure links);
///   memory about 17 bytes per state (12 for the offsets and failure link, 5 for the
///   trie edge into it) plus 4 per reported pattern id.
public struct CompactNFA: Sendable {
    /// The alphabet: byte → class.
    public let byteClasses: ByteClasses
    /// Number of states, including the dead state.
    public let stateCount: Int
    /// Number of patterns (ids 0..<patternCount).
    public let patternCount: Int
    /// Root row: `byteClasses.count` entries, every class resolved (a state index).
    @usableFromInline let rootRow: [UInt32]
    /// `edgeStart[s]..<edgeStart[s+1]` indexes the edges of state s; edges sorted by class.
    @usableFromInline let edgeStart: [UInt32]
    @usableFromInline let edgeClass: [UInt8]
    @usableFromInline let edgeNext: [UInt32]
    /// Failure link per state; strictly shallower, or dead. fail[0] = fail[1] = 0.
    @usableFromInline let fail: [UInt32]
    /// `matchStart[s]..<matchStart[s+1]` indexes the patterns state s reports.
    @usableFromInline let matchStart: [UInt32]
    @usableFromInline let matchList: [UInt32]

    static let dead: UInt32 = 0
    static let root: UInt32 = 1

    init(byteClasses: ByteClasses, stateCount: Int, patternCount: Int, rootRow: [UInt32],
         edgeStart: [UInt32], edgeClass: [UInt8], edgeNext: [UInt32], fail: [UInt32],
         matchStart: [UInt32], matchList: [UInt32]) {
        self.byteClasses = byteClasses
        self.stateCount = stateCount
        self.patternCount = patternCount
        self.rootRow = rootRow
        self.edgeStart = edgeStart
        self.edgeClass = edgeClass
        self.edgeNext = edgeNext
        self.fail = fail
        self.matchStart = matchStart
        self.matchList = matchList
    }

    init(trie: LiteralTrie, patternCount: Int) {
        let n = trie.stateCount
        var edgeStart: [UInt32] = [0]
        var edgeClass: [UInt8] = []
        var edgeNext: [UInt32] = []
        var matchStart: [UInt32] = [0]
        var matchList: [UInt32] = []
        edgeStart.reserveCapacity(n + 1)
        matchStart.reserveCapacity(n + 1)
        for s in 0..<n {
            for (c, next) in trie.edges[s] { edgeClass.append(c); edgeNext.append(next) }
            edgeStart.append(UInt32(edgeClass.count))
            matchList.append(contentsOf: trie.matches[s])
            matchStart.append(UInt32(matchList.count))
        }
        var rootRow = [UInt32](repeating: Self.root, count: trie.classes.count)
        for (c, next) in trie.edges[Int(Self.root)] { rootRow[Int(c)] = next }
        self.init(byteClasses: trie.classes, stateCount: n, patternCount: patternCount, rootRow: rootRow,
                  edgeStart: edgeStart, edgeClass: edgeClass, edgeNext: edgeNext, fail: trie.fail,
                  matchStart: matchStart, matchList: matchList)
    }

    /// Bytes held by the tables.
    public var memoryBytes: Int {
        256 + rootRow.count * 4 + edgeStart.count * 4 + edgeClass.count + edgeNext.count * 4
            + fail.count * 4 + matchStart.count * 4 + matchList.count * 4
    }

    /// The unanchored start state (the root).
    @inlinable public var startState: UInt32 { 1 }

    /// `true` when `state` reports at least one pattern.
    @inlinable
    public func isMatchState(_ state: UInt32) -> Bool {
        matchStart[Int(state) &+ 1] != matchStart[Int(state)]
    }

    /// The patterns `state` reports, in report order.
    @inlinable
    public func patterns(of state: UInt32) -> ArraySlice<UInt32> {
        matchList[Int(matchStart[Int(state)])..<Int(matchStart[Int(state) &+ 1])]
    }

    /// δ(state, byte), following failure links as needed.
    @inlinable
    public func next(_ state: UInt32, _ byte: UInt8) -> UInt32 {
        withTables { $0.next(state, $0.classes[Int(byte)]) }
    }

    /// Unsafe views of the tables for one search loop.
    @usableFromInline
    struct Tables {
        @usableFromInline let classes: UnsafeBufferPointer<UInt8>
        @usableFromInline let rootRow: UnsafeBufferPointer<UInt32>
        @usableFromInline let edgeStart: UnsafeBufferPointer<UInt32>
        @usableFromInline let edgeClass: UnsafeBufferPointer<UInt8>
        @usableFromInline let edgeNext: UnsafeBufferPointer<UInt32>
        @usableFromInline let fail: UnsafeBufferPointer<UInt32>
        @usableFromInline let matchStart: UnsafeBufferPointer<UInt32>
        @usableFromInline let matchList: UnsafeBufferPointer<UInt32>

        @usableFromInline
        init(classes: UnsafeBufferPointer<UInt8>, rootRow: UnsafeBufferPointer<UInt32>,
             edgeStart: UnsafeBufferPointer<UInt32>, edgeClass: UnsafeBufferPointer<UInt8>,
             edgeNext: UnsafeBufferPointer<UInt32>, fail: UnsafeBufferPointer<UInt32>,
             matchStart: UnsafeBufferPointer<UInt32>, matchList: UnsafeBufferPointer<UInt32>) {
            self.classes = classes; self.rootRow = rootRow; self.edgeStart = edgeStart
            self.edgeClass = edgeClass; self.edgeNext = edgeNext; self.fail = fail
            self.matchStart = matchStart
            self.matchList = matchList
        }

        /// δ(state, class). Terminates because each failure link is shallower.
        @inlinable @inline(__always)
        func next(_ state: UInt32, _ cls: UInt8) -> UInt32 {
            var s = state
            while true {
                // SAFETY: every stored state index is < stateCount (validated at build
                // and load), and cls < classes.count == rootRow.count.
                if s == 1 { return rootRow[Int(cls)] }
                if s == 0 { return 0 }
                var e = Int(edgeStart[Int(s)])
                let end = Int(edgeStart[Int(s) &+ 1])
                while e < end {
                    let ec = edgeClass[e]
                    if ec == cls { return edgeNext[e] }
                    if ec > cls { break }
                    e &+= 1
                }
                s = fail[Int(s)]
            }
        }

        @inlinable @inline(__always)
        func isMatch(_ state: UInt32) -> Bool {
            matchStart[Int(state) &+ 1] != matchStart[Int(state)]
        }
    }

    @inlinable
    func withTables<R>(_ body: (Tables) -> R) -> R {
        byteClasses.classMap.withUnsafeBufferPointer { classes in
            rootRow.withUnsafeBufferPointer { rootRow in
                edgeStart.withUnsafeBufferPointer { edgeStart in
                    edgeClass.withUnsafeBufferPointer { edgeClass in
                        edgeNext.withUnsafeBufferPointer { edgeNext in
                            fail.withUnsafeBufferPointer { fail in
                                matchStart.withUnsafeBufferPointer { matchStart in
                                    matchList.withUnsafeBufferPointer { matchList in
                                        body(Tables(classes: classes, rootRow: rootRow, edgeStart: edgeStart,
                                                    edgeClass: edgeClass, edgeNext: edgeNext, fail: fail,
                                                    matchStart: matchStart, matchList: matchList))
                                    }
                                }
                            }
                        }
                    }
                }
            }
        }
    }
}
