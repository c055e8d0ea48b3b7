// Work tied to a state's lifetime: `task(in:)` starts on entry and is cancelled on
// exit; `timeout(in:after:clock:fire:)` fires only if the machine is still in the state
// when the (manual) clock reaches the deadline. No test waits on real time.

import Testing
import TestSupport
import EventMachine
import EventMachineTesting

@Suite("EventMachine state-scoped work")
struct EventMachineStateWorkTests {
    typealias F = EventMachineFixtures
    typealias News = StateMachine<F.NewsScreen, F.NewsEvent>

    @Test("EventMachine task(in:) starts on entry with the state's data and is cancelled on exit")
    func taskCancelledOnExit() async throws {
        let screen = try News(initial: .empty, rules: F.newsRules)
        let clock = TestClock()
        let (signals, signal) = AsyncStream.makeStream(of: String.self)
        screen.task(in: .loading) { context in
            signal.yield("started in \(context.state)")
            do {
                try await clock.sleep(for: .seconds(3600))
                signal.yield("finished")
            } catch {
                signal.yield("cancelled")
            }
        }
        var events = signals.makeAsyncIterator()
        try screen.fire(.load)
        #expect(await events.next() == "started in loading")
        #expect(await clock.waitForSleepers(1))
        try screen.fire(.fail("offline"))      // leaves .loading: the task is cancelled
        #expect(await events.next() == "cancelled")
        #expect(clock.sleeperCount == 0)
        try screen.fire(.load)                 // entered again: a new task
        #expect(await events.next() == "started in loading")
    }

    @Test("EventMachine task(in:) drives the machine: the response picks the next state")
    func taskSendsResponse() async throws {
        let screen = try News(initial: .empty, rules: F.newsRules)
        let stream = screen.transitions
        screen.task(in: .loading) { context in
            let articles = ["first", "second"]          // what a request would return
            await context.send(.loaded(articles))
        }
        try screen.fire(.load)
        let seen = await F.first(3, of: stream).map(\.description)
        #expect(seen.last == #"loading --loaded(["first", "second"])--> articles(["first", "second"])"#)
        #expect(screen.state == .articles(["first", "second"]))
    }

    @Test("EventMachine timeout fires at the deadline of an injected clock, not before")
    func timeoutFires() async throws {
        let screen = try News(initial: .empty, rules: F.newsRules)
        let clock = TestClock()
        screen.timeout(in: .loading, after: .seconds(10), clock: clock, fire: .fail("timed out"))
        let stream = screen.transitions
        try screen.fire(.load)
        #expect(await clock.waitForSleepers(1))
        clock.advance(by: .seconds(9))
        #expect(screen.state == .loading)
        #expect(clock.sleeperCount == 1)
        clock.advance(by: .seconds(1))
        let seen = await F.first(3, of: stream).map(\.description)
        #expect(seen == ["start --> empty", "empty --load--> loading", #"loading --fail("timed out")--> error("timed out")"#])
        #expect(screen.state == .error("timed out"))
    }

    @Test("EventMachine timeout: leaving the state first cancels it; a new entry gets a new deadline")
    func timeoutCancelled() async throws {
        let screen = try News(initial: .empty, rules: F.newsRules)
        let clock = TestClock()
        let rejected = F.Recorder<String>()
        screen.observeRejections { rejected.append("\($0)") }
        screen.timeout(in: .loading, after: .seconds(10), clock: clock, fire: .fail("timed out"))
        try screen.fire(.load)
        #expect(await clock.waitForSleepers(1))
        try screen.fire(.loaded(["a"]))        // answered in time
        #expect(clock.sleeperCount == 0)       // cancelled synchronously on exit
        clock.advance(by: .seconds(60))
        try screen.fire(.clear)
        try screen.fire(.load)
        #expect(await clock.waitForSleepers(1))
        let stream = screen.transitions
        clock.advance(by: .seconds(10))
        #expect(await F.first(1, of: stream).map(\.description) == [#"loading --fail("timed out")--> error("timed out")"#])
        #expect(rejected.values.isEmpty)
    }

    @Test("EventMachine main-actor machine: a task in a state runs on the main actor and is cancelled on exit; timeout too")
    @MainActor
    func mainActorWork() async throws {
        let screen = try MainActorStateMachine<F.NewsScreen, F.NewsEvent>(initial: .empty, rules: F.newsRules)
        let clock = TestClock()
        var log: [String] = []                   // main-actor state, touched by the task
        screen.task(in: .loading) { _ in
            log.append("loading")
            do { try await clock.sleep(for: .seconds(100)) } catch { log.append("cancelled") }
        }
        screen.timeout(in: .loading, after: .seconds(5), clock: clock, fire: .fail("slow"))
        let stream = screen.transitions
        try screen.fire(.load)
        #expect(await clock.waitForSleepers(2))
        #expect(log == ["loading"])
        clock.advance(by: .seconds(5))
        let seen = await F.first(3, of: stream).map(\.description)
        #expect(seen.last == #"loading --fail("slow")--> error("slow")"#)
        for _ in 0..<1000 where log.count < 2 { await Task.yield() }
        #expect(log == ["loading", "cancelled"])
    }
}
