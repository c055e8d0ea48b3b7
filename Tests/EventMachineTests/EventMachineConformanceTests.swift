// Conformance with statechart semantics where they apply (issue 36): a table of cases
// derived from W3C SCXML 1.0's algorithm (Appendix D) for the constructs the machine
// supports — exit order (innermost first), entry order (outermost first, ancestors
// before descendants), all exits before all entries, the transition domain (a parent's
// transition to its own child is local: the parent stays entered), external
// self-transitions, internal transitions, descendants' transitions taking priority over
// their ancestors' (SCXML's optimal enabled transition set), and deep history.
//
// One statechart, many event sequences; each case lists what the exit and entry hooks
// saw. Where SCXML and the machine differ on purpose — an event no state handles is
// discarded by SCXML and reported as a TransitionError here — the last case says so.

import Testing
import EventMachine

@Suite("EventMachine statechart conformance")
struct EventMachineConformanceTests {
    enum S: Discriminated, CaseIterable, Hashable { case off, on, idle, busy, a, b, error }
    enum E: Discriminated, CaseIterable, Hashable { case power, work, next, done, fail, tick, home, again, stray }

    /// off ⇄ on; on = {idle, busy = {a, b}} with deep history; error outside.
    static func makeChart() throws -> StateMachine<S, E> {
        try StateMachine<S, E>(initial: .off, rules: [
            .on(.power, from: .off, to: .on),
            .on(.power, from: .on, to: .off),
            .on(.work, from: .idle, to: .busy),
            .on(.next, from: .a, to: .b),
            .on(.next, from: .b, to: .a),
            .on(.next, from: .on, to: .error),        // a and b override it; idle inherits it
            .on(.done, from: .busy, to: .idle),
            .on(.fail, from: .on, to: .error),
            .internal(.tick, in: [.on]),
            .on(.home, from: .on, to: .idle),          // to its own child: local
            .on(.again, from: .a, to: .a),             // external self-transition
        ], nesting: [
            .parent(.on, children: [.idle, .busy], initial: .idle, history: true),
            .parent(.busy, children: [.a, .b], initial: .a),
        ])
    }

    struct Case: Sendable, CustomStringConvertible {
        var name: String
        /// Events fired before recording starts.
        var before: [E]
        /// Events whose exits and entries are recorded.
        var events: [E]
        var expected: [String]
        var description: String { name }
    }

    static let cases: [Case] = [
        Case(name: "start enters ancestors before descendants", before: [], events: [],
             expected: ["enter off"]),
        Case(name: "entering a parent enters its initial child, outermost first", before: [], events: [.power],
             expected: ["exit off", "enter on", "enter idle"]),
        Case(name: "a sibling transition exits and enters below the common parent only", before: [.power], events: [.work],
             expected: ["exit idle", "enter busy", "enter a"]),
        Case(name: "leaving for a state outside exits innermost first, all exits before entries", before: [.power, .work, .next],
             events: [.fail], expected: ["exit b", "exit busy", "exit on", "enter error"]),
        Case(name: "a descendant's transition takes priority over its ancestor's", before: [.power, .work], events: [.next],
             expected: ["exit a", "enter b"]),
        Case(name: "an ancestor's transition applies where no descendant has one", before: [.power], events: [.next],
             expected: ["exit idle", "exit on", "enter error"]),
        Case(name: "a parent's transition to its own child is local: the parent stays entered", before: [.power, .work],
             events: [.home], expected: ["exit a", "exit busy", "enter idle"]),
        Case(name: "an internal transition exits and enters nothing", before: [.power, .work], events: [.tick],
             expected: []),
        Case(name: "an external self-transition exits and re-enters its state", before: [.power, .work], events: [.again],
             expected: ["exit a", "enter a"]),
        Case(name: "deep history re-enters the last leaf and its ancestors", before: [.power, .work, .next, .power],
             events: [.power], expected: ["exit off", "enter on", "enter busy", "enter b"]),
        Case(name: "a parent's rule leaving it records history for the next entry", before: [.power, .work],
             events: [.power, .power], expected: ["exit a", "exit busy", "exit on", "enter off",
                                                  "exit off", "enter on", "enter busy", "enter a"]),
    ]

    @Test("EventMachine conformance: exits and entries as SCXML orders them", arguments: cases)
    func exitsAndEntries(_ c: Case) throws {
        let chart = try Self.makeChart()
        let log = EventMachineFixtures.Recorder<String>()
        for state in S.allCases {
            chart.onDidExit(state) { _ in log.append("exit \(state)") }
            chart.onDidEnter(state) { _ in log.append("enter \(state)") }
        }
        chart.start()
        if !c.events.isEmpty { log.removeAll() }   // the start case records the start itself
        for event in c.before { try chart.fire(event) }
        if !c.before.isEmpty { log.removeAll() }
        for event in c.events { try chart.fire(event) }
        #expect(log.values == c.expected)
    }

    @Test("EventMachine conformance: an event no state handles is reported, not discarded (unlike SCXML)")
    func unhandledEvent() throws {
        let chart = try Self.makeChart()
        try chart.fire(.power)
        #expect(throws: StateMachine<S, E>.TransitionError(.invalidEvent(event: .stray, state: .idle))) {
            try chart.fire(.stray)
        }
        #expect(chart.state == .idle)
    }
}
