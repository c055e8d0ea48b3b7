#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import AutomatonCore
import Synchronization
import Testing
import TestSupport
@testable import Turnstile

/// A feed the run's workers list step by step (grep -r's walk): the inputs keep the
/// order the steps gave them, one step runs at a time, and no step runs after the
/// list ended or the run stopped.
@Suite("RecordInputFeed: listed step by step by the run's workers, in order")
struct RecordInputFeedTests {
    /// Steps of 0 to 40 inputs (some empty, as a walk's step through empty folders),
    /// taken by 4 threads at once: every index once, in the steps' order.
    @Test("4 threads take a stepped list: each input once, in order, steps never overlap")
    func steppedListInOrder() {
        var rng = SeededGenerator(defaultSeed: 0xFEED)
        let sizes = (0..<300).map { _ in Int.random(in: 0...40, using: &rng) }
        let total = sizes.reduce(0, +)
        let stepping = Atomic<Int>(0)
        let overlapped = Atomic<Bool>(false)
        let stepsRun = Atomic<Int>(0)
        let afterEnd = Atomic<Bool>(false)
        let state = StepState(sizes: sizes)
        let feed = RecordInputFeed(stepping: {
            if stepping.wrappingAdd(1, ordering: .acquiring).oldValue != 0 { overlapped.store(true, ordering: .relaxed) }
            defer { stepping.wrappingSubtract(1, ordering: .releasing) }
            stepsRun.wrappingAdd(1, ordering: .relaxed)
            guard let next = state.next() else {
                if state.ended { afterEnd.store(true, ordering: .relaxed) }
                state.ended = true
                return nil
            }
            return next
        })
        let taken = LockedValue<[Int: String]>([:])
        let next = Atomic<Int>(0)
        let threads = (0..<4).map { _ in
            SystemThread {
                while true {
                    let index = next.wrappingAdd(1, ordering: .relaxed).oldValue
                    guard let input = feed.input(at: index) else { return }
                    taken.withLock { $0[index] = input.path }
                }
            }
        }
        threads.forEach { $0.join() }
        let got = taken.withLock { $0 }
        #expect(got.count == total)
        #expect((0..<total).allSatisfy { got[$0] == "input \($0)" })
        let (overlaps, stepAfterEnd, stepCount) = (overlapped.load(ordering: .relaxed),
                                                   afterEnd.load(ordering: .relaxed), stepsRun.load(ordering: .relaxed))
        #expect(!overlaps)
        #expect(!stepAfterEnd)
        #expect(stepCount == sizes.count + 1)
        #expect(feed.finishedCount == total)
    }

    /// A feed's first step runs when the run plans, so a small walk is known whole
    /// then; a feed whose run ended runs no more steps.
    @Test("the first step runs when the run plans; none after the run ended")
    func firstStepAndEnd() {
        let steps = Atomic<Int>(0)
        let small = RecordInputFeed(stepping: {
            steps.wrappingAdd(1, ordering: .relaxed).oldValue == 0 ? [RecordInput(path: "a", name: "a")] : nil
        })
        #expect(small.finishedCount == nil)  // one step listed "a"; the end is not yet known
        #expect(small.input(at: 0)?.path == "a")
        #expect(small.input(at: 1) == nil)
        #expect(small.finishedCount == 1)

        let endless = Atomic<Int>(0)
        let feed = RecordInputFeed(stepping: {
            let n = endless.wrappingAdd(1, ordering: .relaxed).oldValue
            return [RecordInput(path: "\(n)", name: "\(n)")]
        })
        #expect(feed.input(at: 0)?.path == "0")
        feed.endRun()
        let before = endless.load(ordering: .relaxed)
        #expect(feed.input(at: 100) == nil)
        let after = endless.load(ordering: .relaxed)
        #expect(after == before)
    }
}

/// The steps' sizes and where the listing stands; used by one step at a time.
private final class StepState: @unchecked Sendable {
    private let sizes: [Int]
    private var step = 0
    private var listed = 0
    var ended = false

    init(sizes: [Int]) { self.sizes = sizes }

    func next() -> [RecordInput]? {
        guard step < sizes.count else { return nil }
        defer { step += 1 }
        let inputs = (listed..<listed + sizes[step]).map { RecordInput(path: "input \($0)", name: "input \($0)") }
        listed += sizes[step]
        return inputs
    }
}
