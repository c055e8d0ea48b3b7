// Hopcroft's DFA minimization by partition refinement.
//
// Primary source: J. E. Hopcroft, "An n log n algorithm for minimizing states in a
// finite automaton", Theory of Machines and Computations, 1971. The refinable
// partition (elements kept contiguous per block, marked elements moved to the front
// of their block) follows A. Valmari and P. Lehtinen, "Efficient minimization of
// DFAs with partial transition functions", STACS 2008, and Knuutila, "Re-describing
// an algorithm by Hopcroft", TCS 2001.
//
// Steps: (1) keep only states reachable from any of the eight start states;
// (2) split them by their exact ordered pattern list (non-match states, the dead
// state among them, form one block); (3) refine with splitters (block, symbol) over
// the whole alphabet, end-of-input included, adding the smaller half of every split
// block to the worklist; (4) emit one state per block, the dead state's block as
// state 0, match blocks next, each group in order of its first original state.
//
// Known limits: the inverse transition table is held in full (one UInt32 per
// transition), so memory is about three times the table's while minimizing.

extension DenseDFA {
    /// The minimal automaton that behaves exactly like this one: unreachable states
    /// removed and equivalent states merged by Hopcroft's algorithm.
    ///
    /// Two states are equivalent when, for every continuation (end-of-input
    /// included), they reach states that report the same ordered pattern lists.
    /// States from which no match can be reached merge with the dead state, so
    /// searches stop earlier but report the same matches. All eight start states,
    /// the match timing, the byte classes and the pattern count carry over. A
    /// minimal automaton comes back unchanged (same numbering).
    ///
    /// ```swift
    /// let small = dfa.minimized()
    /// small.stateCount <= dfa.stateCount        // true
    /// small.isMatch(in: "abb") == dfa.isMatch(in: "abb")  // true
    /// ```
    ///
    /// - Complexity: build O(n·k·log n) time and O(n·k) memory for n states and k
    ///   symbols (byte classes + end-of-input); searching the result costs the same
    ///   per byte as before, over a table that is no larger.
    public func minimized() -> DenseDFA {
        let k = byteClasses.alphabetLength
        let shift = strideShift

        // (1) Reachable states, in original index order; the dead state is always kept.
        var reachable = [Bool](repeating: false, count: stateCount)
        reachable[0] = true
        var stack: [Int] = []
        for s in starts {
            let i = Int(s) >> shift
            if !reachable[i] { reachable[i] = true; stack.append(i) }
        }
        while let i = stack.popLast() {
            let row = i << shift
            for c in 0..<k {
                let t = Int(table[row + c]) >> shift
                if !reachable[t] { reachable[t] = true; stack.append(t) }
            }
        }
        var compactOf = [Int](repeating: -1, count: stateCount)
        var original: [Int] = []
        for i in 0..<stateCount where reachable[i] {
            compactOf[i] = original.count
            original.append(i)
        }
        let n = original.count  // compact state 0 is the dead state

        // Transitions over compact states, and their inverse in CSR form:
        // the sources of (target t, symbol c) are inverse[inverseStart[t*k+c] ..< inverseStart[t*k+c+1]].
        var delta = [UInt32](repeating: 0, count: n * k)
        // UInt32 suffices: n·k ≤ the table's length, which the builder keeps below 2^32.
        var inverseStart = [UInt32](repeating: 0, count: n * k + 1)
        for s in 0..<n {
            let row = original[s] << shift
            for c in 0..<k {
                let t = compactOf[Int(table[row + c]) >> shift]
                delta[s * k + c] = UInt32(t)
                inverseStart[t * k + c + 1] += 1
            }
        }
        for j in 0..<(n * k) { inverseStart[j + 1] += inverseStart[j] }
        var inverse = [UInt32](repeating: 0, count: n * k)
        var fill = inverseStart
        for s in 0..<n {
            for c in 0..<k {
                let key = Int(delta[s * k + c]) * k + c
                inverse[Int(fill[key])] = UInt32(s)
                fill[key] += 1
            }
        }
        fill = []

        // (2) Initial partition by exact ordered pattern list.
        var blockOf = [Int](repeating: 0, count: n)
        var blockIDByList: [[UInt32]: Int] = [:]
        var blockSizes: [Int] = []
        for s in 0..<n {
            let list = Array(patterns(of: id(ofIndex: original[s])))
            let b: Int
            if let known = blockIDByList[list] {
                b = known
            } else {
                b = blockSizes.count
                blockIDByList[list] = b
                blockSizes.append(0)
            }
            blockOf[s] = b
            blockSizes[b] += 1
        }
        blockIDByList = [:]
        var partition = RefinablePartition(count: n, blockOf: blockOf, sizes: blockSizes)

        // (3) Refinement. Splitters are (block, symbol) pairs.
        var inWorklist = [Bool](repeating: false, count: n * k)
        var worklist: [(block: Int, symbol: Int)] = []
        for b in 0..<partition.blockCount {
            for c in 0..<k {
                inWorklist[b * k + c] = true
                worklist.append((b, c))
            }
        }
        var predecessors: [Int] = []
        predecessors.reserveCapacity(n)
        while let (splitter, c) = worklist.popLast() {
            inWorklist[splitter * k + c] = false
            // Collect first: marking reorders elements, the splitter's own included.
            predecessors.removeAll(keepingCapacity: true)
            for position in partition.range(of: splitter) {
                let t = partition.elements[position]
                let key = t * k + c
                for j in Int(inverseStart[key])..<Int(inverseStart[key + 1]) {
                    predecessors.append(Int(inverse[j]))
                }
            }
            if predecessors.isEmpty { continue }
            for s in predecessors { partition.mark(s) }
            partition.splitMarked { old, new, oldSize, newSize in
                let newIsSmaller = newSize <= oldSize
                for d in 0..<k {
                    if inWorklist[old * k + d] {
                        inWorklist[new * k + d] = true
                        worklist.append((new, d))
                    } else {
                        let pick = newIsSmaller ? new : old
                        inWorklist[pick * k + d] = true
                        worklist.append((pick, d))
                    }
                }
            }
        }

        // (4) Emit. Blocks get new indices in order of their first compact state:
        // the dead state's block first, then match blocks (match states precede the
        // others in the original numbering), then the rest.
        let blockCount = partition.blockCount
        var newIndexOfBlock = [Int](repeating: -1, count: blockCount)
        var representative: [Int] = []
        for s in 0..<n {
            let b = partition.blockOf[s]
            if newIndexOfBlock[b] < 0 {
                newIndexOfBlock[b] = representative.count
                representative.append(s)
            }
        }
        let m = representative.count
        var newTable = [StateID](repeating: 0, count: m << shift)
        var offsets: [UInt32] = [0]
        var list: [UInt32] = []
        var matchCount = 0
        for (newIndex, s) in representative.enumerated() where newIndex > 0 {
            let row = newIndex << shift
            for c in 0..<k {
                let target = newIndexOfBlock[partition.blockOf[Int(delta[s * k + c])]]
                newTable[row + c] = StateID(target << shift)
            }
            let reported = patterns(of: id(ofIndex: original[s]))
            if !reported.isEmpty {
                matchCount += 1
                list.append(contentsOf: reported)
                offsets.append(UInt32(list.count))
            }
        }
        let newStarts = starts.map { start -> StateID in
            let s = compactOf[Int(start) >> shift]
            return StateID(newIndexOfBlock[partition.blockOf[s]] << shift)
        }
        return DenseDFA(
            byteClasses: byteClasses, stride: stride, strideShift: shift, stateCount: m,
            matchTiming: matchTiming, patternCount: patternCount, table: newTable, starts: newStarts,
            maxMatchID: StateID(matchCount << shift), patternOffsets: offsets, patternList: list
        )
    }
}

/// A partition of 0..<count into blocks, each block's elements contiguous in
/// `elements`, supporting "mark some elements, then split every block into its
/// marked and unmarked parts" in time proportional to the marked elements.
struct RefinablePartition {
    /// The elements, grouped by block.
    private(set) var elements: [Int]
    /// Position of each element in `elements`.
    private var location: [Int]
    /// Block of each element.
    private(set) var blockOf: [Int]
    /// Block b holds `elements[start[b] ..< end[b]]`; its marked elements are
    /// `elements[start[b] ..< markEnd[b]]`.
    private var start: [Int]
    private var end: [Int]
    private var markEnd: [Int]
    /// Blocks with at least one marked element.
    private var touched: [Int] = []

    /// A partition with `blockOf[e]` as the block of element e; blocks are
    /// 0..<sizes.count and `sizes[b]` counts the elements of block b (each > 0).
    init(count: Int, blockOf: [Int], sizes: [Int]) {
        self.blockOf = blockOf
        start = []
        end = []
        var offset = 0
        for size in sizes {
            start.append(offset)
            offset += size
            end.append(offset)
        }
        markEnd = start
        var next = start
        elements = [Int](repeating: 0, count: count)
        location = [Int](repeating: 0, count: count)
        for e in 0..<count {
            let b = blockOf[e]
            elements[next[b]] = e
            location[e] = next[b]
            next[b] += 1
        }
    }

    var blockCount: Int { start.count }

    func range(of block: Int) -> Range<Int> { start[block]..<end[block] }

    func size(of block: Int) -> Int { end[block] - start[block] }

    /// Marks `e` (no effect when already marked).
    mutating func mark(_ e: Int) {
        let b = blockOf[e]
        let position = location[e]
        let target = markEnd[b]
        guard position >= target else { return }
        let other = elements[target]
        elements[target] = e
        location[e] = target
        elements[position] = other
        location[other] = position
        if target == start[b] { touched.append(b) }
        markEnd[b] = target + 1
    }

    /// Splits every touched block whose elements are not all marked into a new block
    /// of its marked elements and the old block of the rest, calling
    /// `didSplit(old, new, oldSize, newSize)` for each; then clears every mark.
    mutating func splitMarked(_ didSplit: (_ old: Int, _ new: Int, _ oldSize: Int, _ newSize: Int) -> Void) {
        let blocks = touched
        touched.removeAll(keepingCapacity: true)
        for b in blocks {
            let marked = markEnd[b]
            if marked == end[b] {
                markEnd[b] = start[b]
                continue
            }
            let new = start.count
            start.append(start[b])
            end.append(marked)
            markEnd.append(start[b])
            for position in start[b]..<marked { blockOf[elements[position]] = new }
            start[b] = marked
            markEnd[b] = marked
            didSplit(b, new, end[b] - marked, marked - start[new])
        }
    }
}
