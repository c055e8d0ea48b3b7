// State-scoped work that outlives its owner, and timeouts under a test clock (issue 36).
//
// The README's NewsModel once captured `[unowned self]` in `task(in:)`: releasing the
// screen while its request was in flight crashed when the cancelled task resumed and
// touched `self`. Tasks are now handed a context whose `send` does nothing once the
// task is cancelled or the machine is gone, so the natural code captures no owner.

import Testing
import EventMachine
import EventMachineTesting

/// A request that answers only when the test says so.
@MainActor final class PendingRequest {
    private var waiter: CheckedContinuation<[String], Never>?
    private(set) var started = 0

    func articles() async -> [String] {
        started += 1
        return await withCheckedContinuation { waiter = $0 }
    }

    func answer(_ articles: [String]) {
        waiter?.resume(returning: articles)
        waiter = nil
    }
}

/// The README's screen model, with the request under the test's control.
@MainActor final class ScreenModel {
    typealias F = EventMachineFixtures
    var banner = ""
    let machine: MainActorStateMachine<F.NewsScreen, F.NewsEvent>

    init(request: PendingRequest, outcomes: @escaping @MainActor (String) -> Void) throws {
        machine = try MainActorStateMachine(initial: .empty, rules: F.newsRules)
        machine.onDidEnter(.articles, owner: self) { model, t in model.banner = "\(t.to)" }
        machine.task(in: .loading) { context in
            let articles = await request.articles()
            outcomes("\(await context.send(.loaded(articles)))")
        }
    }
}

@MainActor
@Suite("EventMachine task context and test clock")
struct EventMachineTaskContextTests {
    typealias F = EventMachineFixtures
    typealias News = StateMachine<F.NewsScreen, F.NewsEvent>

    @Test("EventMachine task(in:): the owner released while its request is in flight; the late answer is dropped")
    func ownerReleasedMidTask() async throws {
        let request = PendingRequest()
        var outcomes: [String] = []
        var model: ScreenModel? = try ScreenModel(request: request) { outcomes.append($0) }
        weak let weakModel = model
        weak let weakMachine = model?.machine
        try model?.machine.fire(.load)
        for _ in 0..<1000 where request.started == 0 { await Task.yield() }
        #expect(request.started == 1)
        model = nil                                  // the screen goes away mid-request
        #expect(weakModel == nil)
        #expect(weakMachine == nil)                  // the task holds neither
        request.answer(["late"])
        for _ in 0..<1000 where outcomes.isEmpty { await Task.yield() }
        #expect(outcomes.count == 1)
        #expect(outcomes == ["cancelled"])          // nothing was sent to a machine that is gone
    }

    @Test("EventMachine task(in:): while the owner lives, the answer is sent and picks the next state")
    func ownerAlive() async throws {
        let request = PendingRequest()
        var outcomes: [String] = []
        let model = try ScreenModel(request: request) { outcomes.append($0) }
        let transitions = model.machine.transitions
        try model.machine.fire(.load)
        for _ in 0..<1000 where request.started == 0 { await Task.yield() }
        request.answer(["a", "b"])
        let seen = await F.first(3, of: transitions).map(\.description)
        #expect(seen.last == #"loading --loaded(["a", "b"])--> articles(["a", "b"])"#)
        #expect(model.banner == #"articles(["a", "b"])"#)
        for _ in 0..<1000 where outcomes.isEmpty { await Task.yield() }
        #expect(outcomes.first?.hasPrefix("completed(") == true)
    }

    @Test("EventMachine timeout: fire, then advance a test clock at once — the deadline was taken on entry")
    nonisolated func fireThenAdvance() async throws {
        let screen = try News(initial: .empty, rules: F.newsRules)
        let clock = TestClock()
        screen.timeout(in: .loading, after: .seconds(10), clock: clock, fire: .fail("timed out"))
        let stream = screen.transitions
        try screen.fire(.load)
        clock.advance(by: .seconds(10))              // no wait for the timeout's task to sleep
        let seen = await F.first(3, of: stream).map(\.description)
        #expect(seen == ["start --> empty", "empty --load--> loading", #"loading --fail("timed out")--> error("timed out")"#])
    }

    @Test("EventMachine timeout: advancing short of the deadline fires nothing, on the main-actor machine too")
    func mainActorNotBefore() async throws {
        let screen = try MainActorStateMachine<F.NewsScreen, F.NewsEvent>(initial: .empty, rules: F.newsRules)
        let clock = TestClock()
        screen.timeout(in: .loading, after: .seconds(10), clock: clock, fire: .fail("timed out"))
        try screen.fire(.load)
        clock.advance(by: .seconds(9))
        #expect(await clock.waitForSleepers(1))      // the timeout sleeps: its deadline is 1 s away
        #expect(screen.state == .loading)
        let stream = screen.transitions
        clock.advance(by: .seconds(1))
        #expect(await F.first(1, of: stream).map(\.description) == [#"loading --fail("timed out")--> error("timed out")"#])
    }
}
