import NIOPosix
import SpamdProtocol
import Synchronization

// The one compiled list every connection judges with. The list itself is immutable and
// shared; what each thread needs of its own is the judge's scratch, so every event-loop
// thread keeps a copy of the judge and the generation it was taken at. A request reads
// one atomic integer (the generation) and, when it has not changed, judges with its
// thread's copy: no lock on the hot path. Swapping the list (SIGHUP, a TELL) stores the
// new judge under a lock and bumps the generation; each thread takes the new judge at
// its next request, and a request already being judged finishes with the old one.

/// The current judge, swapped atomically.
///
/// ```swift
/// let store = JudgeStore(judge)
/// store.withJudge { $0.answer(head, message: bytes, totalLength: n) }   // on any thread
/// store.replace(newJudge)                                             // from any thread
/// ```
///
/// - Complexity: a request costs one atomic load; a swap, one lock and one copy per
///   thread at its next request.
public final class JudgeStore: Sendable {
    private let generation = Atomic<Int>(0)
    private let current: Mutex<(generation: Int, judge: SpamdMessageJudge)>
    /// Each thread's copy (only ever touched by its own thread).
    private let perThread = ThreadSpecificVariable<ThreadJudge>()

    // SAFETY (Sendable): only the thread that stored it ever reads or writes it.
    private final class ThreadJudge: @unchecked Sendable {
        var generation: Int
        var judge: SpamdMessageJudge
        init(generation: Int, judge: SpamdMessageJudge) {
            self.generation = generation
            self.judge = judge
        }
    }

    public init(_ judge: SpamdMessageJudge) {
        current = Mutex((0, judge))
    }

    /// Makes `judge` the one every later request uses.
    public func replace(_ judge: SpamdMessageJudge) {
        current.withLock { state in
            state = (state.generation + 1, judge)
            generation.store(state.generation, ordering: .releasing)
        }
    }

    /// How many times the judge was replaced.
    public var replacements: Int { generation.load(ordering: .acquiring) }

    /// Runs `body` with this thread's copy of the current judge.
    public func withJudge<T>(_ body: (inout SpamdMessageJudge) throws -> T) rethrows -> T {
        let now = generation.load(ordering: .acquiring)
        if let mine = perThread.currentValue, mine.generation == now {
            return try body(&mine.judge)
        }
        let (g, judge) = current.withLock { ($0.generation, $0.judge) }
        let mine = ThreadJudge(generation: g, judge: judge)
        perThread.currentValue = mine
        return try body(&mine.judge)
    }
}
