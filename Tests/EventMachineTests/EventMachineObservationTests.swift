// Observing a machine: the `transitions` AsyncStream (every transition in order, the
// start included; one stream per access; ended when the machine goes away) and the
// Observation-tracked `state` that SwiftUI reads — for both kinds of machine.

import Testing
import Observation
import Synchronization
import EventMachine

@Suite("EventMachine observation")
struct EventMachineObservationTests {
    typealias F = EventMachineFixtures
    typealias News = StateMachine<F.NewsScreen, F.NewsEvent>

    @Test("EventMachine transitions stream: every transition in order, the start first, to every subscriber")
    func transitionsStream() async throws {
        let screen = try News(initial: .empty, rules: F.newsRules)
        let a = screen.transitions, b = screen.transitions
        try screen.fire(.load)
        try screen.fire(.loaded(["x"]))
        _ = try? screen.fire(.load)     // rejected: not a transition
        try screen.fire(.clear)
        let expected = ["start --> empty", "empty --load--> loading", #"loading --loaded(["x"])--> articles(["x"])"#,
                        #"articles(["x"]) --clear--> empty"#]
        #expect(await F.first(4, of: a).map(\.description) == expected)
        #expect(await F.first(4, of: b).map(\.description) == expected)
    }

    @Test("EventMachine transitions stream from many tasks: one element per transition, chained")
    func transitionsFromTasks() async throws {
        let gate = try F.makeGate()
        gate.start()
        let stream = gate.transitions
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<4 {
                group.addTask { for i in 0..<100 { _ = try? await gate.send(i % 2 == 0 ? .coin : .push) } }
            }
        }
        let seen = await F.first(400, of: stream)
        #expect(seen.count == 400)
        #expect(zip(seen, seen.dropFirst()).allSatisfy { $0.to == $1.from })
    }

    @Test("EventMachine transitions stream ends when the machine is released")
    func streamEnds() async throws {
        var gate: F.GateMachine? = try F.makeGate()
        let stream = try #require(gate).transitions
        try gate?.fire(.coin)
        gate = nil
        var count = 0
        for await _ in stream { count += 1 }
        #expect(count == 2)   // start, coin; then the stream finished
    }

    @Test("EventMachine state is Observation-tracked: a change calls onChange once per tracking")
    func observableState() throws {
        let gate = try F.makeGate()
        let changes = Mutex(0)
        func track() {
            withObservationTracking { _ = gate.state } onChange: { changes.withLock { $0 += 1 } }
        }
        track()
        try gate.fire(.coin)          // start (no change of value, still a mutation) and coin
        #expect(changes.withLock { $0 } == 1)
        track()
        try gate.fire(.push)
        #expect(changes.withLock { $0 } == 2)
        _ = try? gate.fire(.push)     // allowed, locked → locked: tracked again only if re-registered
        #expect(changes.withLock { $0 } == 2)
    }

    @Test("EventMachine main-actor machine: observable state and transitions stream")
    @MainActor
    func mainActorObservation() async throws {
        let screen = try MainActorStateMachine<F.NewsScreen, F.NewsEvent>(initial: .empty, rules: F.newsRules)
        let stream = screen.transitions
        let changed = Mutex(false)
        withObservationTracking { _ = screen.state } onChange: { changed.withLock { $0 = true } }
        screen.start()
        try screen.fire(.load)
        #expect(changed.withLock { $0 })
        try await screen.send(.fail("offline"))
        #expect(screen.state == .error("offline"))
        #expect(await F.first(3, of: stream).map(\.description) == [
            "start --> empty", "empty --load--> loading", #"loading --fail("offline")--> error("offline")"#,
        ])
    }
}
