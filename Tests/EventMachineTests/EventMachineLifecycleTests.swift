// start() entering the initial state, internal self-transitions, per-event will/did
// hooks, computed destinations and their typed errors, and cases missing from
// allCases: every claim checked by recording the calls.

import Testing
import AutomatonCore
import EventMachine

@Suite("EventMachine lifecycle, internal transitions, per-event hooks, data")
struct EventMachineLifecycleTests {
    typealias Gate = EventMachineFixtures.Gate
    typealias GateEvent = EventMachineFixtures.GateEvent
    typealias GateMachine = EventMachineFixtures.GateMachine
    typealias Recorder = EventMachineFixtures.Recorder
    typealias News = StateMachine<EventMachineFixtures.NewsScreen, EventMachineFixtures.NewsEvent>

    @Test("EventMachine start() runs the initial state's enter hooks once, with from == nil")
    func startEntersInitialState() throws {
        let gate = try EventMachineFixtures.makeGate()
        let log = Recorder<String>()
        gate.onWillEnter(.locked) { t in log.append("willEnter(locked) from=\(String(describing: t.from)) event=\(String(describing: t.event))") }
        gate.onDidEnter(.locked) { t in log.append("didEnter(locked) \(t)") }
        gate.observe { t in log.append("observer \(t) edge=\(String(describing: t.edge))") }
        #expect(!gate.isStarted)
        gate.start()
        gate.start()   // once only
        #expect(gate.isStarted)
        #expect(gate.state == .locked)
        #expect(log.values == [
            "willEnter(locked) from=nil event=nil",
            "didEnter(locked) start --> locked",
            "observer start --> locked edge=nil",
        ])
    }

    @Test("EventMachine the first event starts the machine: initial enter hooks run before its exit hooks")
    func firstEventStarts() throws {
        let screen = try News(initial: .empty, rules: EventMachineFixtures.newsRules)
        let log = Recorder<String>()
        screen.onDidEnter(.empty) { t in log.append("show empty view (\(t))") }
        screen.onWillExit(.empty) { t in log.append("hide empty view (\(t))") }
        try screen.fire(.load)
        #expect(log.values == ["show empty view (start --> empty)", "hide empty view (empty --load--> loading)"])
    }

    @Test("EventMachine a machine created in a given state starts there")
    func startInGivenState() throws {
        let definition = try GateMachine.Definition(initial: .locked, rules: [.on(.push, from: .unlocked, to: .locked)])
        let gate = try GateMachine(definition, initialState: .unlocked)
        let entered = Recorder<String>()
        gate.onDidEnter(.unlocked) { t in entered.append("\(t)") }
        gate.start()
        #expect(entered.values == ["start --> unlocked"])
    }

    /// A turnstile counting passengers: a push while unlocked lets one through and
    /// locks; a coin while unlocked is kept, internally, without re-entering.
    static func counterGate(internalCoin: Bool) throws -> GateMachine {
        try GateMachine(initial: .locked, rules: [
            .on(.coin, from: .locked, to: .unlocked),
            internalCoin ? .internal(.coin, in: [.unlocked]) : .on(.coin, from: .unlocked, to: .unlocked),
            .on(.push, from: .unlocked, to: .locked),
        ])
    }

    @Test("EventMachine internal self-transition runs no exit or enter hook; an external one runs both", arguments: [true, false])
    func internalSelfTransition(internalCoin: Bool) throws {
        let gate = try Self.counterGate(internalCoin: internalCoin)
        gate.start()
        let log = Recorder<String>()
        let enteredUnlocked = Recorder<Int>()
        gate.onWillExit(.unlocked) { t in log.append("willExit \(t)") }
        gate.onDidEnter(.unlocked) { _ in enteredUnlocked.append(1) }
        gate.observe { t in log.append("observer \(t)") }
        try gate.fire(.coin)
        let second = try gate.fire(.coin).transition
        #expect(gate.state == .unlocked)
        #expect(second?.isInternal == internalCoin)
        #expect(second?.edge == .init(from: .unlocked, event: .coin, to: .unlocked, isInternal: internalCoin))
        if internalCoin {
            #expect(enteredUnlocked.values.count == 1)
            #expect(log.values == ["observer locked --coin--> unlocked", "observer unlocked --coin--> unlocked (internal)"])
        } else {
            #expect(enteredUnlocked.values.count == 2)
            #expect(log.values == ["observer locked --coin--> unlocked", "willExit unlocked --coin--> unlocked",
                                   "observer unlocked --coin--> unlocked"])
        }
        // The table and DOT show the internal edge as one.
        let internalEdges = gate.definition.edges.filter(\.isInternal)
        #expect(internalEdges.count == (internalCoin ? 1 : 0))
        #expect(gate.definition.dot().contains("\"unlocked\" -> \"unlocked\" [label=\"coin\(internalCoin ? " (internal)" : "")\"];"))
    }

    /// A download whose progress is data of its state, updated internally.
    enum Download: Discriminated, Hashable {
        case idle, running(percent: Int), done
        enum Case: CaseIterable, Hashable, Sendable { case idle, running, done }
        var `case`: Case {
            switch self {
            case .idle: .idle
            case .running: .running
            case .done: .done
            }
        }
    }
    enum DownloadEvent: Discriminated, Hashable {
        case start, progress(Int), finish
        enum Case: CaseIterable, Hashable, Sendable { case start, progress, finish }
        var `case`: Case {
            switch self {
            case .start: .start
            case .progress: .progress
            case .finish: .finish
            }
        }
    }

    @Test("EventMachine internal transition updates a state's data; changing its case is a typed error")
    func internalUpdate() throws {
        typealias M = StateMachine<Download, DownloadEvent>
        let machine = try M(initial: .idle, rules: [
            .on(.start, from: .idle, to: .running(percent: 0)),
            .internal(.progress, in: [.running]) { _, event in
                guard case .progress(let p) = event else { return .done }   // the wrong case, on purpose
                return p > 100 ? .done : .running(percent: p)
            },
            .on(.finish, from: .running, to: .done),
        ])
        let entered = Recorder<String>()
        machine.onDidEnter(.running) { t in entered.append("\(t.to)") }
        try machine.fire(.start)
        try machine.fire(.progress(40))
        try machine.fire(.progress(80))
        #expect(machine.state == .running(percent: 80))
        #expect(entered.values == ["running(percent: 0)"])
        let error = #expect(throws: M.TransitionError.self) { try machine.fire(.progress(101)) }
        #expect(error?.kind == .undeclaredDestination(event: .progress, state: .running, destination: .done))
        #expect(machine.state == .running(percent: 80))
    }

    @Test("EventMachine computed destination: within the declared cases, else a typed error; nil is noDestination")
    func computedDestinationErrors() throws {
        typealias M = StateMachine<Download, DownloadEvent>
        let machine = try M(initial: .idle, rules: [
            .on(.start, from: .idle, to: [.running]) { _, _ in .done },          // not declared
            .on(.finish, from: .idle, to: [.done]) { _, _ in nil },
        ])
        let rejected = Recorder<M.TransitionError>()
        machine.observeRejections { rejected.append($0) }
        let undeclared = #expect(throws: M.TransitionError.self) { try machine.fire(.start) }
        #expect(undeclared?.kind == .undeclaredDestination(event: .start, state: .idle, destination: .done))
        #expect(undeclared?.description == "event start in state idle would lead to done, which its rule does not declare")
        let none = #expect(throws: M.TransitionError.self) { try machine.fire(.finish) }
        #expect(none?.kind == .noDestination(event: .finish, state: .idle))
        #expect(!machine.canFire(.start))
        #expect(machine.state == .idle)
        #expect(rejected.values.count == 2)
        #expect(machine.definition.edges == [.init(from: .idle, event: .start, to: .running), .init(from: .idle, event: .finish, to: .done)])
    }

    @Test("EventMachine per-event will/did hooks run around the state change, for that event only")
    func willDidFire() throws {
        let gate = try EventMachineFixtures.makeGate()
        gate.start()
        let log = Recorder<String>()
        gate.addGuard(for: .coin) { [unowned gate] t in log.append("guard \(t) @\(gate.state)"); return true }
        gate.onWillFire(.coin) { [unowned gate] t in log.append("willFire(coin) \(t) @\(gate.state)") }
        gate.onDidFire(.coin) { [unowned gate] t in log.append("didFire(coin) \(t) @\(gate.state)") }
        gate.onWillFire(.push) { t in log.append("willFire(push) \(t)") }
        gate.onWillExit(.locked) { t in log.append("willExit(locked)") }
        gate.onDidEnter(.unlocked) { t in log.append("didEnter(unlocked)") }
        gate.observe { t in log.append("observer \(t)") }
        try gate.fire(.coin)
        #expect(log.values == [
            "guard locked --coin--> unlocked @locked",
            "willFire(coin) locked --coin--> unlocked @locked",
            "willExit(locked)",
            "didEnter(unlocked)",
            "didFire(coin) locked --coin--> unlocked @unlocked",
            "observer locked --coin--> unlocked",
        ])
        // Refused by a guard: neither will nor did fire.
        gate.addGuard(for: .coin) { _ in false }
        #expect(throws: GateMachine.TransitionError.self) { try gate.fire(.coin) }
        #expect(log.values.filter { $0.hasPrefix("willFire(coin)") }.count == 1)
    }

    /// A state type whose `allCases` forgets one of its values.
    enum Leaky: Discriminated, Hashable {
        case listed, forgotten
        struct Case: CaseIterable, Hashable, Sendable {
            var name: String
            static let listed = Case(name: "listed"), forgotten = Case(name: "forgotten")
            static var allCases: [Case] { [listed] }
        }
        var `case`: Case { Case(name: self == .listed ? "listed" : "forgotten") }
    }

    @Test("EventMachine a case missing from allCases is a typed error, never a trap")
    func unknownCasesAreTypedErrors() throws {
        typealias M = StateMachine<Leaky, GateEvent>
        let unknownInitial = #expect(throws: M.DefinitionError.self) { try M.Definition(initial: .forgotten, rules: []) }
        #expect(unknownInitial?.kind == .unknownState(Leaky.Case.forgotten))
        let unknownDestination = #expect(throws: M.DefinitionError.self) {
            try M.Definition(initial: .listed, rules: [.on(.coin, from: .listed, to: .forgotten)])
        }
        #expect(unknownDestination?.description == "state Case(name: \"forgotten\") is not one of the state type's allCases")

        let definition = try M.Definition(initial: .listed, rules: [
            .on(.coin, from: .listed, to: [Leaky.Case(name: "listed")]) { _, _ in .forgotten },
        ])
        #expect(throws: M.DefinitionError(.unknownState(Leaky.Case.forgotten))) { try M(definition, initialState: .forgotten) }
        let machine = M(definition)
        machine.onDidEnter(Leaky.Case.forgotten) { _ in Issue.record("never entered") }
        #expect(!machine.isIn(Leaky.Case.forgotten))
        #expect(!machine.canEnter(Leaky.Case.forgotten))
        let error = #expect(throws: M.TransitionError.self) { try machine.fire(.coin) }
        #expect(error?.kind == .undeclaredDestination(event: .coin, state: Leaky.Case.listed, destination: Leaky.Case.forgotten))
        #expect(machine.state == .listed)
        #expect(machine.definition.destination(from: Leaky.Case.forgotten, on: .coin) == nil)
        #expect(machine.definition.validEvents(in: Leaky.Case.forgotten).isEmpty)

        // An event case outside allCases.
        struct Ghost: Discriminated, Hashable {
            struct Case: CaseIterable, Hashable, Sendable {
                var known: Bool
                static var allCases: [Case] { [Case(known: true)] }
            }
            var known: Bool
            var `case`: Case { Case(known: known) }
        }
        typealias G = StateMachine<Gate, Ghost>
        #expect(throws: G.DefinitionError(.unknownEvent(Ghost.Case(known: false)))) {
            try G.Definition(initial: .locked, rules: [.on(Ghost.Case(known: false), from: .locked, to: .unlocked)])
        }
        let ghost = try G(initial: .locked, rules: [.on(Ghost.Case(known: true), from: .locked, to: .unlocked)])
        #expect(throws: G.TransitionError(.invalidEvent(event: Ghost.Case(known: false), state: .locked))) {
            try ghost.fire(Ghost(known: false))
        }
        #expect(!ghost.canFire(Ghost(known: false)))
        #expect(try ghost.fire(Ghost(known: true)).transition?.to == .unlocked)
    }
}
