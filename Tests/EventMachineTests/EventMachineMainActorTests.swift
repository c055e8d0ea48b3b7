// The main-actor machine: hooks, guards and observers are @MainActor closures that
// touch main-actor state (a view model, as UI code would), run synchronously when the
// event comes from the main actor — by `fire` or by `await send` — and in the same
// order as the thread-safe machine's.

import Testing
import EventMachine

/// What a screen would show; main-actor state that a `@Sendable` hook could not touch.
@MainActor final class GateViewModel {
    var message = "—"
    var log: [String] = []
}

@MainActor
@Suite("EventMachine main actor")
struct EventMachineMainActorTests {
    typealias Gate = EventMachineFixtures.Gate
    typealias GateEvent = EventMachineFixtures.GateEvent
    typealias Machine = MainActorStateMachine<Gate, GateEvent>

    static let rules: [Machine.Rule] = [
        .on(.coin, from: [.locked, .unlocked], to: .unlocked),
        .on(.push, from: [.locked, .unlocked], to: .locked),
    ]

    @Test("EventMachine main actor: hooks update a main-actor view model synchronously, by fire and by await send")
    func hooksTouchMainActorState() async throws {
        let model = GateViewModel()
        let machine = try Machine(initial: .locked, rules: Self.rules)
        machine.onDidEnter(.unlocked) { _ in model.message = "Welcome" }
        machine.onDidEnter(.locked) { _ in model.message = "Insert a coin" }
        machine.addGuard(for: .coin) { _ in model.log.count < 10 }
        machine.observe { t in model.log.append("\(t)") }
        machine.start()
        #expect(model.message == "Insert a coin")
        try machine.fire(.coin)
        #expect(model.message == "Welcome")              // before fire returned
        let t = try await machine.send(.push)
        #expect(t.description == "unlocked --push--> locked")
        #expect(model.message == "Insert a coin")        // before send returned
        #expect(model.log == ["start --> locked", "locked --coin--> unlocked", "unlocked --push--> locked"])
    }

    @Test("EventMachine main actor: send from a background task runs the hooks on the main actor")
    func sendFromBackground() async throws {
        let model = GateViewModel()
        let machine = try Machine(initial: .locked, rules: Self.rules)
        machine.onDidEnter(.unlocked) { t in model.log.append("didEnter \(t)") }
        let result = await Task.detached {
            try? await machine.send(.coin)
        }.value
        #expect(result?.to == .unlocked)
        #expect(model.log == ["didEnter locked --coin--> unlocked"])
        #expect(machine.state == .unlocked)
    }

    @Test("EventMachine main actor: the same order of calls as the thread-safe machine, run to completion included")
    func sameOrderAsStateMachine() throws {
        let mainLog = Recorder()
        let main = try Machine(initial: .locked, rules: Self.rules)
        Self.record(into: mainLog, addGuard: { main.addGuard(for: $0, $1) }, hooks: (main.onWillExit, main.onWillEnter, main.onDidExit, main.onDidEnter),
                    fireHooks: (main.onWillFire, main.onDidFire), observe: { _ = main.observe($0) })
        main.onDidEnter(.unlocked) { [unowned main] _ in _ = try? main.fire(.push) }  // queued, run after; unowned: the machine keeps its hooks
        try main.fire(.coin)
        try main.fire(.coin)

        let anyLog = Recorder()
        let any = try StateMachine<Gate, GateEvent>(initial: .locked, rules: Self.rules)
        Self.record(into: anyLog, addGuard: { g, b in any.addGuard(for: g) { t in MainActor.assumeIsolated { b(t) } } },
                    hooks: (Self.wrap(any.onWillExit), Self.wrap(any.onWillEnter), Self.wrap(any.onDidExit), Self.wrap(any.onDidEnter)),
                    fireHooks: (Self.wrap(any.onWillFire), Self.wrap(any.onDidFire)),
                    observe: { h in _ = any.observe { t in MainActor.assumeIsolated { h(t) } } })
        any.onDidEnter(.unlocked) { [unowned any] _ in _ = try? any.fire(.push) }
        try any.fire(.coin)
        try any.fire(.coin)

        #expect(mainLog.values.count == 3 + 8 * 4)   // the start (3 calls), then 4 transitions of 8 calls
        #expect(mainLog.values == anyLog.values)
        #expect(main.state == any.state)
    }

    // The thread-safe machine run on the main actor by a test: its hooks are called on
    // this thread, so the recording closures may assume the main actor here (and only here).
    static func wrap<C>(_ register: @escaping (C, @escaping @Sendable (StateMachine<Gate, GateEvent>.Transition) -> Void) -> H)
        -> (C, @escaping @MainActor (StateMachine<Gate, GateEvent>.Transition) -> Void) -> H {
        { key, hook in register(key) { t in MainActor.assumeIsolated { hook(t) } } }
    }

    final class Recorder {
        var values: [String] = []
    }

    typealias T = StateMachine<Gate, GateEvent>.Transition
    typealias H = StateMachine<Gate, GateEvent>.HookID
    static func record(
        into log: Recorder,
        addGuard: (GateEvent?, @escaping @MainActor (T) -> Bool) -> H,
        hooks: (
            (Gate, @escaping @MainActor (T) -> Void) -> H, (Gate, @escaping @MainActor (T) -> Void) -> H,
            (Gate, @escaping @MainActor (T) -> Void) -> H, (Gate, @escaping @MainActor (T) -> Void) -> H),
        fireHooks: ((GateEvent, @escaping @MainActor (T) -> Void) -> H, (GateEvent, @escaping @MainActor (T) -> Void) -> H),
        observe: (@escaping @MainActor (T) -> Void) -> Void
    ) {
        for s in Gate.allCases {
            _ = hooks.0(s) { t in log.values.append("willExit(\(s)) \(t)") }
            _ = hooks.1(s) { t in log.values.append("willEnter(\(s)) \(t)") }
            _ = hooks.2(s) { t in log.values.append("didExit(\(s)) \(t)") }
            _ = hooks.3(s) { t in log.values.append("didEnter(\(s)) \(t)") }
        }
        for e in GateEvent.allCases {
            _ = fireHooks.0(e) { t in log.values.append("willFire(\(e)) \(t)") }
            _ = fireHooks.1(e) { t in log.values.append("didFire(\(e)) \(t)") }
        }
        _ = addGuard(nil) { t in log.values.append("guard \(t)"); return true }
        observe { t in log.values.append("observer \(t)") }
    }
}
