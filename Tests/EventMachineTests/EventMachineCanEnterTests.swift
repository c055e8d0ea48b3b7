// `canEnter` answers what `fire` would do (issue 47): GameplayKit's `canEnterState`
// answers what `enter` would do, and a trial found `canEnter(.liquid)` true while
// `.melt`'s only guard refused, for an event enum with a nested `Case`. For every
// example machine — the rules of Examples/<name>/main.swift, with guards added where
// the example has none — every state and every target case, `canEnter(target)` must
// equal "some event, fired on a copy of the machine in that state, leaves the copy in
// `target`". Events with data are sampled with values that reach each declared case
// (their guards need the data, so `canEnter` answers by the table for them).

import Testing
import EventMachine

@Suite("EventMachine canEnter agrees with fire")
struct EventMachineCanEnterTests {
    typealias F = EventMachineFixtures

    /// Where `canEnter` and `fire` (on a copy) disagree, for every state in `states`
    /// and every target case; `events` must hold a value of every event case.
    static func disagreements<S: Discriminated, E: Discriminated>(
        _ definition: StateMachine<S, E>.Definition, states: [S], events: [E],
        configure: (StateMachine<S, E>) -> Void = { _ in }
    ) throws -> [String] {
        #expect(Set(events.map(\.case)) == Set(E.Case.allCases), "every event case needs a sample value")
        #expect(Set(states.map(\.case)).isSuperset(of: definition.edges.map(\.from)), "every source state needs a sample")
        var found: [String] = []
        for state in states {
            let machine = try StateMachine(definition, initialState: state)
            configure(machine)
            for target in S.Case.allCases {
                var fires = false
                for event in events {
                    let copy = try StateMachine(definition, initialState: state)
                    configure(copy)
                    if case .completed = copy.attempt(event), copy.isIn(target) {
                        fires = true
                        break
                    }
                }
                let can = machine.canEnter(target)
                if can != fires { found.append("in \(state): canEnter(\(target)) = \(can), fire: \(fires)") }
            }
        }
        return found
    }

    // MARK: Examples/water, with a nested `Case` (the trial's enum) and with a plain one

    enum Phase: Discriminated, CaseIterable, Hashable { case solid, liquid, gas }
    enum PhaseChange: Discriminated, CaseIterable, Hashable { case melt, freeze, vaporize, condense, sublimate, deposit }
    /// The same events, one of them with data, so the enum names its cases in a nested `Case`.
    enum Heat: Discriminated, Hashable {
        case melt, freeze, vaporize, condense, sublimate, deposit, warm(by: Int)

        enum Case: CaseIterable, Hashable, Sendable { case melt, freeze, vaporize, condense, sublimate, deposit, warm }
        var `case`: Case {
            switch self {
            case .melt: .melt
            case .freeze: .freeze
            case .vaporize: .vaporize
            case .condense: .condense
            case .sublimate: .sublimate
            case .deposit: .deposit
            case .warm: .warm
            }
        }
        static let valuesWithoutData: [Heat] = [.melt, .freeze, .vaporize, .condense, .sublimate, .deposit]
    }

    @Test("EventMachine canEnter: water (plain events), melt's only guard refuses")
    func waterPlain() throws {
        let definition = try StateMachine<Phase, PhaseChange>.Definition(initial: .solid, rules: [
            .on(.melt, from: .solid, to: .liquid), .on(.freeze, from: .liquid, to: .solid),
            .on(.vaporize, from: .liquid, to: .gas), .on(.condense, from: .gas, to: .liquid),
            .on(.sublimate, from: .solid, to: .gas), .on(.deposit, from: .gas, to: .solid),
        ])
        let refuseMelt: (StateMachine<Phase, PhaseChange>) -> Void = { $0.addGuard(for: .melt) { _ in false } }
        #expect(try Self.disagreements(definition, states: Phase.allCases, events: PhaseChange.allCases, configure: refuseMelt) == [])
        let solid = StateMachine(definition)
        refuseMelt(solid)
        #expect(!solid.canEnter(.liquid))
        #expect(solid.canEnter(.gas))
    }

    @Test("EventMachine canEnter: water with a nested Case, melt's only guard refuses (the trial's case)")
    @MainActor
    func waterNestedCase() throws {
        let definition = try StateMachine<Phase, Heat>.Definition(initial: .solid, rules: [
            .on(.melt, from: .solid, to: .liquid), .on(.freeze, from: .liquid, to: .solid),
            .on(.vaporize, from: .liquid, to: .gas), .on(.condense, from: .gas, to: .liquid),
            .on(.sublimate, from: .solid, to: .gas), .on(.deposit, from: .gas, to: .solid),
            .on(.warm, from: .liquid, to: [.gas]) { _, event in
                guard case .warm(let degrees) = event, degrees >= 100 else { return nil }
                return .gas
            },
        ])
        let configure: (StateMachine<Phase, Heat>) -> Void = { machine in
            machine.addGuard(for: .melt) { _ in false }
            machine.addGuard(for: .sublimate) { t in t.from == .solid }   // accepts: the guard is asked
        }
        let events: [Heat] = Heat.valuesWithoutData + [.warm(by: 10), .warm(by: 100)]
        #expect(try Self.disagreements(definition, states: Phase.allCases, events: events, configure: configure) == [])
        let solid = StateMachine(definition)
        configure(solid)
        #expect(!solid.canEnter(.liquid))
        #expect(solid.canEnter(.gas))

        let main = try MainActorCheck.canEnterLiquid(definition)
        #expect(!main)
    }

    @MainActor enum MainActorCheck {
        static func canEnterLiquid(_ definition: StateMachine<Phase, Heat>.Definition) throws -> Bool {
            let machine = MainActorStateMachine(definition)
            machine.addGuard(for: .melt) { _ in false }
            return machine.canEnter(.liquid)
        }
    }

    // MARK: Examples/gate

    enum GateEvent: Discriminated, Hashable {
        case coin(cents: Int), push
        enum Case: CaseIterable, Hashable, Sendable { case coin, push }
        var `case`: Case {
            switch self {
            case .coin: .coin
            case .push: .push
            }
        }
        static let valuesWithoutData: [GateEvent] = [.push]
    }

    @Test("EventMachine canEnter: Examples/gate, with its fare guard and a guard on push")
    func gate() throws {
        let definition = try StateMachine<F.Gate, GateEvent>.Definition(initial: .locked, rules: [
            .on(.coin, from: .locked, to: .unlocked),
            .internal(.coin, in: [.unlocked]),
            .on(.push, from: .unlocked, to: .locked),
            .internal(.push, in: [.locked]),
        ])
        let configure: (StateMachine<F.Gate, GateEvent>) -> Void = { machine in
            machine.addGuard(for: .coin) { t in
                guard case .coin(let cents) = t.event else { return false }
                return t.isInternal || cents >= 25
            }
            machine.addGuard(for: .push) { t in t.from == .unlocked }   // a locked bar refuses the push
        }
        #expect(try Self.disagreements(definition, states: F.Gate.allCases,
                                       events: [.coin(cents: 10), .coin(cents: 25), .push], configure: configure) == [])
    }

    // MARK: Examples/navigation (nesting with history)

    struct Book: Sendable, Hashable { var title: String }
    enum Screen: Discriminated, Hashable {
        case tabs, home, library, detail(Book), settings
        enum Case: CaseIterable, Hashable, Sendable { case tabs, home, library, detail, settings }
        var `case`: Case {
            switch self {
            case .tabs: .tabs
            case .home: .home
            case .library: .library
            case .detail: .detail
            case .settings: .settings
            }
        }
    }
    enum Navigation: Discriminated, Hashable {
        case openLibrary, open(Book), back, goHome, openSettings, closeSettings
        enum Case: CaseIterable, Hashable, Sendable { case openLibrary, open, back, goHome, openSettings, closeSettings }
        var `case`: Case {
            switch self {
            case .openLibrary: .openLibrary
            case .open: .open
            case .back: .back
            case .goHome: .goHome
            case .openSettings: .openSettings
            case .closeSettings: .closeSettings
            }
        }
        static let valuesWithoutData: [Navigation] = [.openLibrary, .back, .goHome, .openSettings, .closeSettings]
    }

    @Test("EventMachine canEnter: Examples/navigation, a parent with history, a guard on settings")
    func navigation() throws {
        let definition = try StateMachine<Screen, Navigation>.Definition(initial: .tabs, rules: [
            .on(.openLibrary, from: .home, to: .library),
            .on(.open, from: .library, to: [.detail]) { _, event in
                guard case .open(let book) = event else { return nil }
                return .detail(book)
            },
            .on(.back, from: .detail, to: .library),
            .on(.back, from: .library, to: .home),
            .on(.goHome, from: .tabs, to: .home),
            .on(.openSettings, from: .tabs, to: .settings),
            .on(.closeSettings, from: .settings, to: .tabs),
        ], nesting: [
            .parent(.tabs, children: [.home, .library, .detail], initial: .home, history: true),
        ])
        let configure: (StateMachine<Screen, Navigation>) -> Void = { machine in
            machine.addGuard(for: .openSettings) { t in t.from?.case != .detail }   // not over a book
        }
        let book = Book(title: "Moby-Dick")
        #expect(try Self.disagreements(
            definition, states: [.tabs, .home, .library, .detail(book), .settings],
            events: [.openLibrary, .open(book), .back, .goHome, .openSettings, .closeSettings],
            configure: configure) == [])
    }

    // MARK: Examples/news-screen and the fixtures' news screen

    @Test("EventMachine canEnter: the news screen, responses picking the next state, a guard on load")
    func news() throws {
        let definition = try StateMachine<F.NewsScreen, F.NewsEvent>.Definition(initial: .empty, rules: F.newsRules)
        let configure: (StateMachine<F.NewsScreen, F.NewsEvent>) -> Void = { machine in
            machine.addGuard(for: .load) { t in t.from?.case != .error }   // no retry after an error
        }
        #expect(try Self.disagreements(
            definition, states: [.empty, .loading, .articles(["a"]), .error("x")],
            events: [.load, .loaded([]), .loaded(["a"]), .fail("x"), .clear], configure: configure) == [])
    }

    // MARK: Examples/app-flow

    enum AppState: Discriminated, Hashable {
        case launching, signedIn(String), signedOut, offline
        enum Case: CaseIterable, Hashable, Sendable { case launching, signedIn, signedOut, offline }
        var `case`: Case {
            switch self {
            case .launching: .launching
            case .signedIn: .signedIn
            case .signedOut: .signedOut
            case .offline: .offline
            }
        }
    }
    enum AppEvent: Discriminated, Hashable {
        case sessionChecked(String?), timedOut, retry, signIn(String), signOut
        enum Case: CaseIterable, Hashable, Sendable { case sessionChecked, timedOut, retry, signIn, signOut }
        var `case`: Case {
            switch self {
            case .sessionChecked: .sessionChecked
            case .timedOut: .timedOut
            case .retry: .retry
            case .signIn: .signIn
            case .signOut: .signOut
            }
        }
        static let valuesWithoutData: [AppEvent] = [.timedOut, .retry, .signOut]
    }

    @Test("EventMachine canEnter: Examples/app-flow, with retry refused by a guard")
    func appFlow() throws {
        let definition = try StateMachine<AppState, AppEvent>.Definition(initial: .launching, rules: [
            .on(.sessionChecked, from: .launching, to: [.signedIn, .signedOut, .offline]) { _, event in
                guard case .sessionChecked(let user) = event else { return nil }
                return user.map { .signedIn($0) } ?? .signedOut
            },
            .on(.timedOut, from: .launching, to: .offline),
            .on(.retry, from: .offline, to: .launching),
            .on(.signIn, from: .signedOut, to: [.signedIn]) { _, event in
                guard case .signIn(let user) = event else { return nil }
                return .signedIn(user)
            },
            .on(.signOut, from: .signedIn, to: .signedOut),
        ])
        let configure: (StateMachine<AppState, AppEvent>) -> Void = { machine in
            machine.addGuard(for: .retry) { _ in false }   // no retries left
        }
        let found = try Self.disagreements(
            definition, states: [.launching, .signedIn("ada"), .signedOut, .offline],
            events: [.sessionChecked("ada"), .sessionChecked(nil), .timedOut, .retry, .signIn("ada"), .signOut],
            configure: configure)
        #expect(found == [])
    }

    // MARK: The fixtures' battery and keyboard (plain enums)

    @Test("EventMachine canEnter: battery and keyboard tables, with a refusing guard each")
    func plainTables() throws {
        let battery = try StateMachine<F.Battery, F.BatteryEvent>.Definition(initial: .discharging, rules: F.batteryRules)
        #expect(try Self.disagreements(battery, states: F.Battery.allCases, events: F.BatteryEvent.allCases) { machine in
            machine.addGuard(for: .plugIn) { t in t.from == .flat }
        } == [])
        let keyboard = try StateMachine<F.Keyboard, F.KeyboardEvent>.Definition(initial: .prepareToEditText, rules: F.keyboardRules)
        #expect(try Self.disagreements(keyboard, states: F.Keyboard.allCases, events: F.KeyboardEvent.allCases) { machine in
            machine.addGuard { t in t.to != .showingPanel }
        } == [])
    }
}
