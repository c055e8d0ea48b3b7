// `attempt(_:)`: `fire` without throwing (issue 36). `try? machine.fire(.x)` warned
// "result unused" and `if canFire { fire }` ran the guards twice; `attempt` runs them
// once and says what happened. Also: the compiled table's case lookup (by byte for
// plain enums, by hash for other case types) agrees with the rules.

import Testing
import EventMachine

@Suite("EventMachine outcomes")
struct EventMachineOutcomeTests {
    typealias F = EventMachineFixtures

    @Test("EventMachine attempt: completed, refused by the table, refused by a guard — guards run once")
    func attemptOutcomes() throws {
        let gate = try F.GateMachine(initial: .locked, rules: [
            .on(.coin, from: .locked, to: .unlocked),
            .on(.push, from: .unlocked, to: .locked),
        ])
        let asked = F.Recorder<String>()
        gate.addGuard(for: .push) { _ in asked.append("push"); return asked.values.count > 1 }
        guard case .completed(let t) = gate.attempt(.coin) else { Issue.record("coin should complete"); return }
        #expect(t.description == "locked --coin--> unlocked")
        guard case .refused(let error) = gate.attempt(.coin) else { Issue.record("coin should be refused"); return }
        #expect(error.kind == .invalidEvent(event: .coin, state: .unlocked))
        guard case .refused(let refusal) = gate.attempt(.push) else { Issue.record("guard should refuse"); return }
        #expect(refusal.kind == .refusedByGuard(event: .push, state: .unlocked, destination: .locked))
        #expect(asked.values == ["push"])             // asked once per attempt
        #expect(gate.attempt(.push).transition?.description == "unlocked --push--> locked")
        #expect(asked.values == ["push", "push"])
    }

    @Test("EventMachine attempt from a hook is queued, and the queued event is processed after the transition")
    func attemptQueued() throws {
        let gate = try F.makeGate()
        let inner = F.Recorder<String>()
        gate.onDidEnter(.unlocked) { [unowned gate] _ in
            if case .queued = gate.attempt(.push) { inner.append("queued") }
        }
        try gate.fire(.coin)
        #expect(inner.values == ["queued"])
        #expect(gate.state == .locked)
    }

    @Test("EventMachine guards and fire hooks given (from, event, to) see the values without optionals")
    func unwrappedParts() throws {
        enum Coin: Discriminated, Hashable {
            case coin(cents: Int), push
            enum Case: CaseIterable, Hashable, Sendable { case coin, push }
            var `case`: Case { if case .coin = self { .coin } else { .push } }
        }
        let gate = try StateMachine<F.Gate, Coin>(initial: .locked, rules: [
            .on(.coin, from: .locked, to: .unlocked),
            .on(.push, from: .unlocked, to: .locked),
        ])
        let seen = F.Recorder<String>()
        gate.addGuard(for: .coin) { from, event, to in
            seen.append("guard \(from) \(event) \(to)")
            if case .coin(let cents) = event { return cents >= 25 }
            return false
        }
        gate.onWillFire(.coin) { from, event, to in seen.append("will \(from) \(event) \(to)") }
        gate.onDidFire(.coin) { from, event, to in seen.append("did \(from) \(event) \(to)") }
        #expect(throws: StateMachine<F.Gate, Coin>.TransitionError.self) { try gate.fire(.coin(cents: 10)) }
        try gate.fire(.coin(cents: 25))
        #expect(seen.values == [
            "guard locked coin(cents: 10) unlocked",
            "guard locked coin(cents: 25) unlocked", "will locked coin(cents: 25) unlocked", "did locked coin(cents: 25) unlocked",
        ])
    }

    /// A case type that is not a one-byte enum: looked up by hash.
    struct Level: Hashable, Sendable, CaseIterable {
        var value: Int
        static let allCases = [Level(value: 1), Level(value: 2)]
    }

    enum Floor: Discriminated, Hashable {
        case at(Int)
        var `case`: Level { if case .at(let n) = self { Level(value: n) } else { Level(value: 0) } }
    }

    enum Lift: Discriminated, CaseIterable, Hashable { case up, down }

    @Test("EventMachine case lookup by hash: struct cases work, a case outside allCases is an invalid event")
    func hashedCases() throws {
        let machine = try StateMachine<Floor, Lift>(initial: .at(1), rules: [
            .on(.up, from: Level(value: 1), to: .at(2)),
            .on(.down, from: Level(value: 2), to: .at(1)),
        ])
        try machine.fire(.up)
        #expect(machine.state == .at(2))
        #expect(throws: StateMachine<Floor, Lift>.TransitionError(.invalidEvent(event: .up, state: Level(value: 2)))) {
            try machine.fire(.up)
        }
        let outside = try StateMachine<Floor, Lift>(StateMachine<Floor, Lift>.Definition(initial: .at(1), rules: []))
        #expect(throws: StateMachine<Floor, Lift>.DefinitionError.self) {
            _ = try StateMachine<Floor, Lift>(outside.definition, initialState: .at(7))
        }
    }

    @Test("EventMachine case lookup by byte: the row of every (state, event) matches the rules, hooks or not")
    func byteCasesAgree() throws {
        let rules = F.keyboardRules
        let quiet = try StateMachine<F.Keyboard, F.KeyboardEvent>(initial: .prepareToEditText, rules: rules)
        let hooked = try StateMachine<F.Keyboard, F.KeyboardEvent>(initial: .prepareToEditText, rules: rules)
        let seen = F.Recorder<String>()
        hooked.observe { seen.append("\($0)") }
        for state in F.Keyboard.allCases {
            for event in F.KeyboardEvent.allCases {
                let a = try StateMachine<F.Keyboard, F.KeyboardEvent>(quiet.definition, initialState: state)
                let b = try StateMachine<F.Keyboard, F.KeyboardEvent>(hooked.definition, initialState: state)
                b.observe { _ in }
                let expected = quiet.definition.destination(from: state, on: event)
                #expect(a.attempt(event).transition?.to == expected, "\(state) \(event), no hooks")
                #expect(b.attempt(event).transition?.to == expected, "\(state) \(event), observed")
            }
        }
    }
}
