// Every claim of the documented call order, guards, payloads, observers,
// run-to-completion and per-state updates, checked by recording the calls.

import Testing
import AutomatonCore
import EventMachine

@Suite("EventMachine hooks")
struct EventMachineHookTests {
    typealias Gate = EventMachineFixtures.Gate
    typealias GateEvent = EventMachineFixtures.GateEvent
    typealias GateMachine = EventMachineFixtures.GateMachine
    typealias Recorder = EventMachineFixtures.Recorder

    /// A turnstile whose every hook, guard and observer records "<what> <transition> @<state read inside>".
    func recordedGate(_ log: Recorder<String>, guardResult: Bool = true) throws -> GateMachine {
        let gate = try EventMachineFixtures.makeGate()
        gate.start()   // these tests look at one event's calls, not the start's
        for state in Gate.allCases {
            gate.onWillExit(state) { [unowned gate] t in log.append("willExit(\(state)) \(t) @\(gate.state)") }
            gate.onWillEnter(state) { [unowned gate] t in log.append("willEnter(\(state)) \(t) @\(gate.state)") }
            gate.onDidExit(state) { [unowned gate] t in log.append("didExit(\(state)) \(t) @\(gate.state)") }
            gate.onDidEnter(state) { [unowned gate] t in log.append("didEnter(\(state)) \(t) @\(gate.state)") }
        }
        gate.observe { [unowned gate] t in log.append("observer1 \(t) @\(gate.state)") }
        gate.addGuard { [unowned gate] t in log.append("guard(any) \(t) @\(gate.state)"); return true }
        gate.addGuard(for: .coin) { [unowned gate] t in log.append("guard(coin) \(t) @\(gate.state)"); return guardResult }
        gate.observe { t in log.append("observer2 \(t)") }
        return gate
    }

    @Test("EventMachine hook order: guard → will-exit → will-enter → state change → did-exit → did-enter → observers")
    func hookOrder() throws {
        let log = Recorder<String>()
        let gate = try recordedGate(log)
        let result = try gate.fire(.coin)
        #expect(result.transition?.description == "locked --coin--> unlocked")
        #expect(log.values == [
            "guard(coin) locked --coin--> unlocked @locked",
            "guard(any) locked --coin--> unlocked @locked",
            "willExit(locked) locked --coin--> unlocked @locked",
            "willEnter(unlocked) locked --coin--> unlocked @locked",
            "didExit(locked) locked --coin--> unlocked @unlocked",
            "didEnter(unlocked) locked --coin--> unlocked @unlocked",
            "observer1 locked --coin--> unlocked @unlocked",
            "observer2 locked --coin--> unlocked",
        ])
    }

    @Test("EventMachine self-transition runs the exit and enter hooks of its state")
    func selfTransition() throws {
        let log = Recorder<String>()
        let gate = try recordedGate(log)
        try gate.fire(.push)
        #expect(log.values == [
            "guard(any) locked --push--> locked @locked",
            "willExit(locked) locked --push--> locked @locked",
            "willEnter(locked) locked --push--> locked @locked",
            "didExit(locked) locked --push--> locked @locked",
            "didEnter(locked) locked --push--> locked @locked",
            "observer1 locked --push--> locked @locked",
            "observer2 locked --push--> locked",
        ])
    }

    @Test("EventMachine guard refusal: typed error, state unchanged, no hook runs, later guards skipped")
    func guardRefuses() throws {
        let log = Recorder<String>()
        let gate = try recordedGate(log, guardResult: false)
        let rejected = Recorder<GateMachine.TransitionError>()
        gate.observeRejections { rejected.append($0) }
        let error = #expect(throws: GateMachine.TransitionError.self) { try gate.fire(.coin) }
        #expect(error?.kind == .refusedByGuard(event: .coin, state: .locked, destination: .unlocked))
        #expect(gate.state == .locked)
        #expect(log.values == ["guard(coin) locked --coin--> unlocked @locked"])
        #expect(rejected.values == [GateMachine.TransitionError(.refusedByGuard(event: .coin, state: .locked, destination: .unlocked))])
        // The guard applies to .coin only.
        #expect(gate.canFire(.push))
        #expect(!gate.canFire(.coin))
        #expect(!gate.canEnter(.unlocked))
        #expect(gate.canEnter(.locked))
    }

    @Test("EventMachine invalid event: typed error, state unchanged, neither guard nor hook runs")
    func invalidEventRunsNothing() throws {
        typealias Battery = StateMachine<EventMachineFixtures.Battery, EventMachineFixtures.BatteryEvent>
        let phone = try Battery(initial: .charging, rules: EventMachineFixtures.batteryRules)
        phone.start()
        let log = Recorder<String>()
        phone.addGuard { _ in log.append("guard"); return true }
        phone.onWillExit(.charging) { _ in log.append("willExit") }
        phone.observe { _ in log.append("observer") }
        let error = #expect(throws: Battery.TransitionError.self) { try phone.fire(.runOut) }
        #expect(error?.description == "event runOut is not valid in state charging")
        #expect(phone.state == .charging)
        #expect(log.values.isEmpty)
    }

    /// A coin event that carries its value.
    enum CoinEvent: Discriminated, Hashable {
        case coin(cents: Int), push
        enum Case: CaseIterable, Hashable, Sendable { case coin, push }
        var `case`: Case {
            switch self {
            case .coin: .coin
            case .push: .push
            }
        }
        var cents: Int? { if case .coin(let cents) = self { cents } else { nil } }
    }

    @Test("EventMachine event data reaches guards, hooks and observers, typed")
    func eventData() throws {
        // Payloads were `any Sendable` cast back with payload(as:); events now carry
        // their data, so a wrong type does not compile instead of reading as nil.
        let gate = try StateMachine<Gate, CoinEvent>(initial: .locked, rules: [
            .on(.coin, from: [.locked, .unlocked], to: .unlocked),
            .on(.push, from: [.locked, .unlocked], to: .locked),
        ])
        let seen = Recorder<String>()
        gate.addGuard(for: .coin) { t in t.event?.cents == 25 }
        gate.onDidEnter(.unlocked) { t in seen.append("didEnter \(t.event?.cents ?? -1)") }
        gate.observe { t in seen.append("observer \(t.event?.cents ?? -1)") }
        #expect(!gate.canFire(.coin(cents: 10)))
        #expect(gate.canFire(.coin(cents: 25)))
        #expect(throws: StateMachine<Gate, CoinEvent>.TransitionError(.refusedByGuard(event: .coin, state: .locked, destination: .unlocked))) {
            try gate.fire(.coin(cents: 10))
        }
        #expect(gate.state == .locked)
        #expect(seen.values == ["observer -1"])   // the start, with no event
        let t = try gate.fire(.coin(cents: 25)).transition
        #expect(t?.event == .coin(cents: 25))
        #expect(t?.edge == .init(from: .locked, event: .coin, to: .unlocked))
        #expect(seen.values == ["observer -1", "didEnter 25", "observer 25"])
    }

    @Test("EventMachine observers can be removed")
    func removeObserver() throws {
        let gate = try EventMachineFixtures.makeGate()
        gate.start()
        let seen = Recorder<String>()
        let first = gate.observe { t in seen.append("a \(t)") }
        gate.observe { t in seen.append("b \(t)") }
        let rejections = gate.observeRejections { e in seen.append("rejected \(e)") }
        try gate.fire(.coin)
        gate.removeObserver(first)
        gate.removeObserver(rejections)
        try gate.fire(.push)
        #expect(seen.values == ["a locked --coin--> unlocked", "b locked --coin--> unlocked", "b unlocked --push--> locked"])
    }

    @Test("EventMachine run-to-completion: an event fired from a hook is queued and handled after the transition")
    func runToCompletion() throws {
        let gate = try EventMachineFixtures.makeGate()
        gate.start()
        let log = Recorder<String>()
        gate.onWillEnter(.unlocked) { [unowned gate] t in
            // Fired mid-transition: queued, not nested, and the state is not yet changed.
            let result = try? gate.fire(.push)
            log.append("willEnter(unlocked) fired push → \(result?.transition == nil ? "queued" : "completed") @\(gate.state)")
        }
        gate.onDidEnter(.unlocked) { t in log.append("didEnter(unlocked) \(t)") }
        gate.onWillExit(.unlocked) { t in log.append("willExit(unlocked) \(t)") }
        gate.onDidEnter(.locked) { t in log.append("didEnter(locked) \(t)") }
        gate.observe { t in log.append("observer \(t)") }

        let result = try gate.fire(.coin)
        // The caller gets its own transition; the queued push ran before fire returned.
        #expect(result.transition?.description == "locked --coin--> unlocked")
        #expect(gate.state == .locked)
        #expect(log.values == [
            "willEnter(unlocked) fired push → queued @locked",
            "didEnter(unlocked) locked --coin--> unlocked",
            "observer locked --coin--> unlocked",
            "willExit(unlocked) unlocked --push--> locked",
            "didEnter(locked) unlocked --push--> locked",
            "observer unlocked --push--> locked",
        ])
    }

    @Test("EventMachine run-to-completion: queued events keep their order; a queued invalid one goes to rejection observers")
    func queuedOrderAndRejection() throws {
        typealias News = StateMachine<EventMachineFixtures.NewsScreen, EventMachineFixtures.NewsEvent>
        let screen = try News(initial: .empty, rules: EventMachineFixtures.newsRules)
        screen.start()
        let log = Recorder<String>()
        screen.onDidEnter(.loading) { [unowned screen] _ in
            // Three events at once, from inside a hook: the second is invalid by the
            // time it is processed (articles has no .fail), the third is valid.
            for event in [EventMachineFixtures.NewsEvent.loaded(["a"]), .fail("x"), .clear] {
                let queued = (try? screen.fire(event))?.transition == nil
                log.append("fired \(event.case) queued=\(queued)")
            }
        }
        screen.observe { t in log.append("observer \(t)") }
        screen.observeRejections { e in log.append("rejected: \(e)") }
        try screen.fire(.load)
        #expect(screen.state == .empty)
        #expect(log.values == [
            "fired loaded queued=true",
            "fired fail queued=true",
            "fired clear queued=true",
            "observer empty --load--> loading",
            "observer loading --loaded([\"a\"])--> articles([\"a\"])",
            "rejected: event fail is not valid in state articles",
            "observer articles([\"a\"]) --clear--> empty",
        ])
    }

    @Test("EventMachine update(deltaTime:) is forwarded to the current state only")
    func update() throws {
        let gate = try EventMachineFixtures.makeGate()
        let log = Recorder<String>()
        gate.onUpdate(.locked) { dt in log.append("locked \(dt)") }
        gate.onUpdate(.unlocked) { dt in log.append("unlocked \(dt)") }
        gate.onUpdate(.unlocked) { dt in log.append("unlocked again \(dt)") }
        gate.update(deltaTime: 0.5)
        try gate.fire(.coin)
        gate.update(deltaTime: 0.25)
        #expect(log.values == ["locked 0.5", "unlocked 0.25", "unlocked again 0.25"])
    }

    @Test("EventMachine update: an event fired by an update handler is processed after the update; an update from a hook waits for the transition")
    func updateRunToCompletion() throws {
        let gate = try EventMachineFixtures.makeGate()
        gate.start()
        let log = Recorder<String>()
        gate.onUpdate(.locked) { [unowned gate] dt in
            let queued = (try? gate.fire(.coin))?.transition == nil
            log.append("update(locked) fired coin queued=\(queued) @\(gate.state)")
        }
        gate.onUpdate(.unlocked) { dt in log.append("update(unlocked) \(dt)") }
        gate.onWillEnter(.unlocked) { [unowned gate] _ in
            gate.update(deltaTime: 2)   // queued behind this transition: runs in .unlocked
            log.append("willEnter(unlocked)")
        }
        gate.observe { t in log.append("observer \(t)") }
        gate.update(deltaTime: 1)
        #expect(gate.state == .unlocked)
        #expect(log.values == [
            "update(locked) fired coin queued=true @locked",
            "willEnter(unlocked)",
            "observer locked --coin--> unlocked",
            "update(unlocked) 2.0",
        ])
    }

    @Test("EventMachine send returns its own transition or throws its own error")
    func send() async throws {
        let gate = try EventMachineFixtures.makeGate()
        let t = try await gate.send(.coin)
        #expect(t.edge == GateMachine.Edge(from: .locked, event: .coin, to: .unlocked))
        #expect(t.event == .coin)
        gate.addGuard(for: .push) { _ in false }
        do {
            try await gate.send(.push)
            Issue.record("the guard should refuse push")
        } catch {
            #expect(error.kind == .refusedByGuard(event: .push, state: .unlocked, destination: .locked))
        }
        #expect(gate.state == .unlocked)
    }

    @Test("EventMachine machines built from one definition are independent")
    func sharedDefinition() throws {
        let definition = try GateMachine.Definition(initial: .locked, rules: [
            .on(.coin, from: [.locked, .unlocked], to: .unlocked),
            .on(.push, from: [.locked, .unlocked], to: .locked),
        ])
        let a = GateMachine(definition), b = GateMachine(definition)
        try a.fire(.coin)
        #expect(a.state == .unlocked)
        #expect(b.state == .locked)
    }
}
