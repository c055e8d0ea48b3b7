import AutomatonCore
import Testing
import TestSupport
@testable import Turnstile

/// The ordered hand-off of the threaded runs (Pipeline/OrderedTurns.swift): whatever
/// order items are put in, they are written once each, in number order — also when an
/// item comes further ahead of the writing than the window, and across threads.
@Suite("OrderedTurns: items written in number order, once each")
struct OrderedTurnsTests {
    @Test("put in a shuffled order within the window, drained after each put: written in order")
    func shuffledWithinWindow() {
        var random = SeededGenerator(defaultSeed: 20261202)
        let turns = OrderedTurns<Int>(window: 4)
        var written: [Int] = []
        // Blocks of 4 shuffled: each number is within the window of the writing.
        for block in stride(from: 0, to: 400, by: 4) {
            for n in Array(block ..< block + 4).shuffled(using: &random) {
                turns.put(n, n * 10)
                turns.drain { written.append($0) }
            }
        }
        #expect(written == (0 ..< 400).map { $0 * 10 }, "seed \(random.seed)")
    }

    @Test("items put far past the window (a chunked input's end, a stopped run): none lost")
    func farAheadGrows() {
        let turns = OrderedTurns<Int>(window: 2)
        var written: [Int] = []
        // Everything but 0 first, in reverse, up to 50 windows ahead.
        for n in (1 ..< 100).reversed() { turns.put(n, n) }
        turns.drain { written.append($0) }
        #expect(written.isEmpty)
        turns.put(0, 0)
        turns.drain { written.append($0) }
        #expect(written == Array(0 ..< 100))
    }

    @Test("two threads putting, either one writing: every item once, in order")
    func twoThreads() {
        let turns = OrderedTurns<Int>(window: 8)
        let written = LockedValue<[Int]>([])
        let next = LockedValue(0)
        let work = { @Sendable in
            while true {
                let n = next.withLock { value -> Int in defer { value += 1 }; return value }
                guard n < 5_000 else { return }
                turns.awaitWindow(for: n, stopped: { false }, write: { item in written.withLock { $0.append(item) } })
                turns.put(n, n)
                turns.drain { item in written.withLock { $0.append(item) } }
            }
        }
        let other = SystemThread(work)
        work()
        other.join()
        turns.drain { item in written.withLock { $0.append(item) } }
        #expect(written.withLock { $0 } == Array(0 ..< 5_000))
    }
}
