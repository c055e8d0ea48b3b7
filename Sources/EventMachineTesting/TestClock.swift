// A clock that moves only when a test says so, shipped for the apps that use
// EventMachine (issue 36): `timeout(in:after:clock:fire:)` takes its deadline from the
// clock when the state is entered, so a test fires an event and advances this clock at
// once — no waiting for the timeout's task to start sleeping, no real time.
//
// `advance(by:)` resumes every sleeper whose deadline has come, in deadline order, and
// nothing else ever does; a sleeper whose deadline has already passed when it starts
// sleeping returns at once. A product of its own (no dependency), so an app's test
// target imports it and the app does not.
import Synchronization

/// A `Clock` whose time moves only by ``advance(by:)``, for tests of timeouts.
///
/// ```swift
/// import EventMachineTesting
///
/// let clock = TestClock()
/// machine.timeout(in: .loading, after: .seconds(10), clock: clock, fire: .timedOut)
/// let transitions = machine.transitions
/// try machine.fire(.load)
/// clock.advance(by: .seconds(10))        // the timeout is due: it fires
/// ```
///
/// - Complexity: ``advance(by:)`` is O(sleepers log sleepers); `sleep` is O(sleepers).
public final class TestClock: Clock, Sendable {
    /// A point on the test clock: the time advanced since it was made.
    public struct Instant: InstantProtocol, CustomStringConvertible {
        /// The time since the clock was made.
        public var offset: Duration
        public init(offset: Duration) { self.offset = offset }
        public func advanced(by duration: Duration) -> Instant { Instant(offset: offset + duration) }
        public func duration(to other: Instant) -> Duration { other.offset - offset }
        public static func < (a: Instant, b: Instant) -> Bool { a.offset < b.offset }
        public var description: String { "TestClock.Instant(\(offset))" }
    }

    private struct Sleeper {
        var id: Int
        var deadline: Instant
        var continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var now = Instant(offset: .zero)
        var sleepers: [Sleeper] = []
        /// Sleepers cancelled before they were registered.
        var cancelled: Set<Int> = []
        var nextID = 0
    }

    private let state = Mutex(State())

    public init() {}

    /// The time advanced so far.
    public var now: Instant { state.withLock { $0.now } }
    public var minimumResolution: Duration { .zero }

    /// How many tasks sleep on this clock now.
    public var sleeperCount: Int { state.withLock { $0.sleepers.count } }

    /// Suspends until ``advance(by:)`` has moved the time to `deadline` (at once if it
    /// already has); throws `CancellationError` when the task is cancelled first.
    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        let id = state.withLock { s in
            s.nextID += 1
            return s.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                let now: Result<Void, any Error>? = state.withLock { s in
                    if s.cancelled.remove(id) != nil { return .failure(CancellationError()) }
                    if deadline <= s.now { return .success(()) }
                    s.sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
                    return nil
                }
                if let now { continuation.resume(with: now) }
            }
        } onCancel: {
            let sleeper: Sleeper? = state.withLock { s in
                if let i = s.sleepers.firstIndex(where: { $0.id == id }) { return s.sleepers.remove(at: i) }
                s.cancelled.insert(id)
                return nil
            }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Moves the time forward by `duration` and resumes the sleepers whose deadline has
    /// come, earliest first.
    public func advance(by duration: Duration) {
        let due: [Sleeper] = state.withLock { s in
            s.now = s.now.advanced(by: duration)
            let now = s.now
            let due = s.sleepers.filter { $0.deadline <= now }.sorted { $0.deadline < $1.deadline }
            s.sleepers.removeAll { $0.deadline <= now }
            return due
        }
        for sleeper in due { sleeper.continuation.resume() }
    }

    /// Waits (yielding, never sleeping) until at least `count` tasks sleep on this clock;
    /// `false` if that did not happen within `maxYields` yields.
    @discardableResult
    public func waitForSleepers(_ count: Int, maxYields: Int = 100_000) async -> Bool {
        for _ in 0..<maxYields {
            if sleeperCount >= count { return true }
            await Task.yield()
        }
        return sleeperCount >= count
    }
}
