// The examples from the articles the event machine grew from: the subway turnstile,
// the phone battery, the news screen, and the keyboard table (cell for cell).

import Testing
import AutomatonCore
import EventMachine

@Suite("EventMachine examples")
struct EventMachineExampleTests {
    typealias Gate = EventMachineFixtures.Gate
    typealias GateEvent = EventMachineFixtures.GateEvent
    typealias GateMachine = EventMachineFixtures.GateMachine
    typealias Battery = EventMachineFixtures.Battery
    typealias BatteryEvent = EventMachineFixtures.BatteryEvent
    typealias NewsScreen = EventMachineFixtures.NewsScreen
    typealias NewsEvent = EventMachineFixtures.NewsEvent
    typealias Keyboard = EventMachineFixtures.Keyboard
    typealias KeyboardEvent = EventMachineFixtures.KeyboardEvent
    typealias Recorder = EventMachineFixtures.Recorder
    static let batteryRules = EventMachineFixtures.batteryRules
    static let newsRules = EventMachineFixtures.newsRules
    static let keyboardRules = EventMachineFixtures.keyboardRules
    func makeGate() throws -> GateMachine { try EventMachineFixtures.makeGate() }

    @Test("EventMachine turnstile: coin unlocks, push locks, push while locked stays locked")
    func turnstile() throws {
        let gate = try makeGate()
        #expect(gate.state == .locked)

        let pushLocked = try gate.fire(.push).transition
        #expect(pushLocked?.edge == .init(from: .locked, event: .push, to: .locked))
        #expect(gate.state == .locked)

        #expect(try gate.fire(.coin).transition?.edge == .init(from: .locked, event: .coin, to: .unlocked))
        #expect(gate.state == .unlocked)
        #expect(try gate.fire(.coin).transition?.edge == .init(from: .unlocked, event: .coin, to: .unlocked))
        #expect(gate.state == .unlocked)
        #expect(try gate.fire(.push).transition?.edge == .init(from: .unlocked, event: .push, to: .locked))
        #expect(gate.state == .locked)
    }

    @Test("EventMachine battery: the full cycle, and no way from charging to flat")
    func battery() throws {
        let definition = try StateMachine<Battery, BatteryEvent>.Definition(initial: .discharging, rules: Self.batteryRules)
        for event in BatteryEvent.allCases {
            #expect(definition.destination(from: .charging, on: event) != .flat)
        }
        #expect(!definition.edges.contains { $0.from == .charging && $0.to == .flat })

        let phone = StateMachine(definition)
        try phone.fire(.runOut)
        #expect(phone.state == .flat)
        try phone.fire(.plugIn)
        #expect(phone.state == .charging)
        #expect(!phone.canEnter(.flat))
        #expect(!phone.canFire(.runOut))
        #expect(throws: StateMachine<Battery, BatteryEvent>.TransitionError(.invalidEvent(event: .runOut, state: .charging))) {
            try phone.fire(.runOut)
        }
        #expect(phone.state == .charging)
        try phone.fire(.reachFull)
        #expect(phone.state == .fullyCharged)
        try phone.fire(.unplug)
        #expect(phone.state == .discharging)
        #expect(phone.canEnter(.flat))
    }

    @Test("EventMachine news screen: empty → loading → articles | empty | error, the data in the states")
    func newsScreen() throws {
        typealias News = StateMachine<NewsScreen, NewsEvent>
        let definition = try News.Definition(initial: .empty, rules: Self.newsRules)
        // Every edge a computed rule may take is in the table.
        let expected: Set<News.Edge> = [
            .init(from: .empty, event: .load, to: .loading),
            .init(from: .loading, event: .loaded, to: .empty),
            .init(from: .loading, event: .loaded, to: .articles),
            .init(from: .loading, event: .fail, to: .error),
            .init(from: .error, event: .clear, to: .empty),
            .init(from: .error, event: .load, to: .loading),
            .init(from: .articles, event: .clear, to: .empty),
        ]
        #expect(Set(definition.edges) == expected)
        #expect(definition.edges.count == expected.count)
        #expect(definition.destinations(from: .loading, on: .loaded) == [.empty, .articles])
        #expect(definition.destination(from: .loading, on: .loaded) == nil)   // one of two: a choice
        #expect(definition.destination(from: .loading, on: .fail) == .error)

        let screen = StateMachine(definition)
        let shown = Recorder<Int>()
        screen.onDidEnter(.articles) { t in
            if case .articles(let items) = t.to { shown.append(items.count) }
        }
        try screen.fire(.load)
        try screen.fire(.fail("timeout"))
        #expect(screen.state == .error("timeout"))
        try screen.fire(.load)
        try screen.fire(.loaded(["a", "b", "c"]))
        #expect(screen.state == .articles(["a", "b", "c"]))
        #expect(shown.values == [3])
        #expect(screen.definition.validEvents(in: .articles) == [.clear])
        try screen.fire(.clear)
        #expect(screen.state == .empty)
        try screen.fire(.load)
        try screen.fire(.loaded([]))
        #expect(screen.state == .empty)
        #expect(shown.values == [3])
    }

    /// The keyboard table of the issue, cell for cell: one row per event, one column
    /// per state in the issue's order (prepareToEditText, prepareToRecord, editingText,
    /// showingPanel); nil = the event is invalid in that state.
    static let keyboardColumns: [Keyboard] = [.prepareToEditText, .prepareToRecord, .editingText, .showingPanel]
    static let keyboardTable: [(KeyboardEvent, [Keyboard?])] = [
        (.clickSwitchButton, [.prepareToRecord, .editingText, .prepareToRecord, .prepareToRecord]),
        (.clickMoreButton, [.showingPanel, .showingPanel, .showingPanel, .prepareToEditText]),
        (.tapTextField, [.editingText, nil, nil, .editingText]),
        (.vcDidTapped, [nil, nil, .prepareToEditText, .prepareToEditText]),
    ]

    static var keyboardCells: [(KeyboardEvent, Keyboard, Keyboard?)] {
        keyboardTable.flatMap { event, row in
            zip(keyboardColumns, row).map { state, expected in (event, state, expected) }
        }
    }

    @Test("EventMachine keyboard table: all 16 cells")
    func keyboardTableHasSixteenCells() {
        #expect(Self.keyboardCells.count == 16)
        #expect(Self.keyboardCells.filter { $0.2 == nil }.count == 4)
        #expect(Set(Self.keyboardCells.map { "\($0.0) \($0.1)" }).count == 16)
    }

    @Test("EventMachine keyboard table cell", arguments: keyboardCells)
    func keyboardCell(event: KeyboardEvent, state: Keyboard, expected: Keyboard?) throws {
        typealias KB = StateMachine<Keyboard, KeyboardEvent>
        let definition = try KB.Definition(initial: .prepareToEditText, rules: Self.keyboardRules)
        #expect(definition.destination(from: state, on: event) == expected)

        let machine = try KB(definition, initialState: state)
        #expect(machine.state == state)
        #expect(machine.canFire(event) == (expected != nil))
        if let expected {
            let result = try machine.fire(event)
            #expect(result.transition?.edge == KB.Edge(from: state, event: event, to: expected))
            #expect(machine.state == expected)
        } else {
            machine.start()
            let rejected = Recorder<KB.TransitionError>()
            machine.observeRejections { rejected.append($0) }
            let entered = Recorder<KB.Transition>()
            machine.observe { entered.append($0) }
            do {
                try machine.fire(event)
                Issue.record("event \(event) in state \(state) should be invalid")
            } catch {
                #expect(error.kind == .invalidEvent(event: event, state: state))
                #expect(error.state == state)
                #expect(error.event == event)
                #expect(error.description == "event \(event) is not valid in state \(state)")
            }
            #expect(machine.state == state)
            #expect(rejected.values.count == 1)
            #expect(entered.values.isEmpty)
        }
    }

    @Test("EventMachine definition compiles to a dense table: one class per event, one DFA state per state")
    func denseTable() throws {
        let definition = try StateMachine<Keyboard, KeyboardEvent>.Definition(initial: .prepareToEditText, rules: Self.keyboardRules)
        let dfa = definition.automaton
        #expect(dfa.stateCount == Keyboard.allCases.count + 1)            // + dead state
        #expect(dfa.byteClasses.count == KeyboardEvent.allCases.count + 1)  // + unused class
        #expect(dfa.matchStateCount == 0)
        for (i, state) in Keyboard.allCases.enumerated() {
            for (c, event) in KeyboardEvent.allCases.enumerated() {
                let next = dfa.next(dfa.id(ofIndex: i + 1), class: c)
                let expected = definition.destination(from: state, on: event)
                if let expected {
                    #expect(next == dfa.id(ofIndex: Keyboard.allCases.firstIndex(of: expected)! + 1))
                } else {
                    #expect(next == DenseDFA.deadState)
                }
            }
            // Bytes past the events, and end-of-input, lead nowhere.
            #expect(dfa.next(dfa.id(ofIndex: i + 1), 200) == DenseDFA.deadState)
            #expect(dfa.nextEOI(dfa.id(ofIndex: i + 1)) == DenseDFA.deadState)
        }
        #expect(dfa.startState() == dfa.id(ofIndex: 1))
        // Event k is byte k: running the bytes of an event sequence through the DFA
        // follows the machine (the table is an ordinary automaton).
        var s = dfa.startState()
        for event in [KeyboardEvent.tapTextField, .clickSwitchButton, .clickSwitchButton] {
            s = dfa.next(s, UInt8(KeyboardEvent.allCases.firstIndex(of: event)!))
        }
        #expect(s == dfa.id(ofIndex: Keyboard.allCases.firstIndex(of: .editingText)! + 1))
    }

    @Test("EventMachine definition errors: a conflicting duplicate is a typed error, an identical one is not")
    func definitionErrors() throws {
        typealias G = StateMachine<Gate, GateEvent>
        _ = try G.Definition(initial: .locked, rules: [
            .on(.coin, from: .locked, to: .unlocked),
            .on(.coin, from: [.unlocked, .locked], to: .unlocked),
        ])
        let error = #expect(throws: G.DefinitionError.self) {
            try G.Definition(initial: .locked, rules: [
                .on(.coin, from: [.locked, .unlocked], to: .unlocked),
                .on(.coin, from: .unlocked, to: .locked),
            ])
        }
        #expect(error?.kind == .conflictingTransition(event: .coin, state: .unlocked, existing: .unlocked, new: .locked))
        #expect(error?.description == "event coin from state unlocked is defined twice, to unlocked and to locked")

        let tooSmall = #expect(throws: G.DefinitionError.self) {
            try G.Definition(initial: .locked, rules: [], limits: Limits(maxStates: 2))
        }
        #expect(tooSmall?.kind == .automaton(AutomatonError(.tooManyStates(limit: 2))))
    }

    @Test("EventMachine error descriptions name the state and the event")
    func errorDescriptions() throws {
        let gate = try makeGate()
        try gate.fire(.coin)
        gate.addGuard(for: .coin) { _ in false }
        let refused = #expect(throws: GateMachine.TransitionError.self) { try gate.fire(.coin) }
        #expect(refused?.kind == .refusedByGuard(event: .coin, state: .unlocked, destination: .unlocked))
        #expect(refused?.description == "event coin in state unlocked was refused by a guard (it would lead to unlocked)")
        #expect(GateMachine.TransitionError(.invalidEvent(event: .coin, state: .unlocked)).description
            == "event coin is not valid in state unlocked")
    }

    @Test("EventMachine supports 256 events and a single-event, single-state machine")
    func alphabetEdges() throws {
        enum One: Discriminated, CaseIterable, Hashable { case only }
        let loop = try StateMachine<One, One>(initial: .only, rules: [.on(.only, from: .only, to: .only)])
        #expect(try loop.fire(.only).transition?.to == .only)

        struct Byte: Discriminated, CaseIterable, Hashable {
            var value: UInt8
            static var allCases: [Byte] { (0...255).map { Byte(value: UInt8($0)) } }
        }
        let wide = try StateMachine<Gate, Byte>(initial: .locked, rules: [
            .on(Byte(value: 255), from: .locked, to: .unlocked),
            .on(Byte(value: 0), from: .unlocked, to: .locked),
        ])
        #expect(wide.definition.automaton.byteClasses.count == 256)
        #expect(!wide.canFire(Byte(value: 0)))
        try wide.fire(Byte(value: 255))
        #expect(wide.state == .unlocked)

        struct TooMany: Discriminated, CaseIterable, Hashable {
            var value: Int
            static var allCases: [TooMany] { (0...256).map { TooMany(value: $0) } }
        }
        let error = #expect(throws: StateMachine<Gate, TooMany>.DefinitionError.self) {
            try StateMachine<Gate, TooMany>.Definition(initial: .locked, rules: [])
        }
        #expect(error?.kind == .tooManyEvents(count: 257))
    }
}

