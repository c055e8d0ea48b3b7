// Delayed transitions in the definition (issue 47, XState's `after`): the definition
// says "after 30 s in loading, fire fail", DOT shows it on the edge, and every machine
// made from the definition fires it on its own clock (a TestClock here).

import Testing
import EventMachine
import EventMachineTesting

@Suite("EventMachine delayed transitions in the definition")
struct EventMachineDelayTests {
    typealias F = EventMachineFixtures
    typealias News = StateMachine<F.NewsScreen, F.NewsEvent>

    static func definition() throws -> News.Definition {
        try News.Definition(initial: .empty, rules: F.newsRules,
                            delays: [.after(.seconds(30), in: .loading, fire: .fail("timed out"))])
    }

    @Test("EventMachine delay: DOT labels the delayed edge with its duration")
    func dotShowsDelay() throws {
        let dot = try Self.definition().dot(name: "news")
        #expect(dot.contains(#""loading" -> "error" [label="fail after 30.0 seconds", style=dashed];"#))
        #expect(dot.contains(#""empty" -> "loading" [label="load"];"#))      // other edges unchanged
        #expect(try News.Definition(initial: .empty, rules: F.newsRules).dot(name: "news").contains("after") == false)
    }

    @Test("EventMachine delay: fires after its duration on the machine's clock, not before; leaving first cancels it")
    func firesOnTheMachinesClock() async throws {
        let clock = TestClock()
        let screen = News(try Self.definition(), clock: clock)
        let stream = screen.transitions
        try screen.fire(.load)
        clock.advance(by: .seconds(29))
        #expect(await clock.waitForSleepers(1))
        #expect(screen.state == .loading)
        clock.advance(by: .seconds(1))
        let seen = await F.first(3, of: stream).map(\.description)
        #expect(seen.last == #"loading --fail("timed out")--> error("timed out")"#)

        try screen.fire(.clear)
        try screen.fire(.load)
        try screen.fire(.loaded(["a"]))                  // left before the delay: cancelled
        #expect(clock.sleeperCount == 0)
    }

    @Test("EventMachine delay: the main-actor machine fires it too")
    @MainActor
    func mainActor() async throws {
        let clock = TestClock()
        let screen = MainActorStateMachine(try Self.definition(), clock: clock)
        try screen.fire(.load)
        let stream = screen.transitions
        clock.advance(by: .seconds(30))
        #expect(await F.first(1, of: stream).map(\.description) == [#"loading --fail("timed out")--> error("timed out")"#])
    }

    @Test("EventMachine delay: an event not valid in the delay's state is a definition error")
    func invalidDelay() {
        #expect(throws: News.DefinitionError(.delayedEventInvalid(event: .fail, state: .empty))) {
            try News.Definition(initial: .empty, rules: F.newsRules, delays: [.after(.seconds(1), in: .empty, fire: .fail("x"))])
        }
    }
}
