// Parallel regions in a Statechart: every region active at once, one event heard by
// every region in document order in one step, exit and entry order and the log as
// SCXML defines them, the done event once every region is final.

import EventMachine
import Testing

enum Player: Hashable, Sendable {
    case player, playback, paused, playing, ended, network, online, offline, closed
}
enum PlayerEvent: Hashable, Sendable { case play, pause, finish, drop, reconnect, stop, close }

typealias PlayerChart = Statechart<Player, PlayerEvent>

func playerChart() throws -> PlayerChart.Definition {
    try PlayerChart.Definition(states: [
        .parallel(.player, on: [.onDone(.player, to: .closed), .on(.close, to: .closed)], [
            .state(.playback, [
                .state(.paused, on: [.on(.play, to: .playing)]),
                .state(.playing, on: [.on(.pause, to: .paused), .on(.finish, to: .ended), .on(.drop, to: .paused)]),
                .final(.ended),
            ]),
            .state(.network, [
                .state(.online, on: [.on(.drop, to: .offline), .on(.stop, to: .closed)]),
                .state(.offline, on: [.on(.reconnect, to: .online), .on(.stop, to: .closed)]),
            ]),
        ]),
        .final(.closed),
    ])
}

@Suite("Statechart: parallel regions")
struct EventMachineStatechartTests {
    @Test("start enters the parallel state, then every region in document order")
    func initialConfiguration() throws {
        let machine = PlayerChart(try playerChart(), logging: true)
        machine.start()
        #expect(machine.configuration == [.player, .playback, .paused, .network, .online])
        #expect(machine.takeLog() == [.entered(.player), .entered(.playback), .entered(.paused),
                                      .entered(.network), .entered(.online)])
    }

    @Test("an event is heard by each region: one step moves both, in document order")
    func oneEventTwoRegions() throws {
        let machine = PlayerChart(try playerChart(), logging: true)
        #expect(machine.fire(.play) == .processed)
        _ = machine.takeLog()
        machine.fire(.drop)
        #expect(machine.configuration == [.player, .playback, .paused, .network, .offline])
        // Exits in reverse document order, then the transitions in document order, then
        // the entries in document order.
        #expect(machine.takeLog() == [
            .exited(.online), .exited(.playing),
            .took(from: .playing, trigger: .event(.drop), to: [.paused]),
            .took(from: .online, trigger: .event(.drop), to: [.offline]),
            .entered(.paused), .entered(.offline),
        ])
    }

    @Test("a region's transition out of the parallel state preempts a later region's")
    func conflictResolvedInDocumentOrder() throws {
        enum S: Hashable, Sendable { case p, a, b, out1, out2 }
        enum E: Hashable, Sendable { case go }
        let machine = Statechart<S, E>(try .init(states: [
            .parallel(.p, [
                .state(.a, on: [.on(.go, to: .out1)]),
                .state(.b, on: [.on(.go, to: .out2)]),
            ]),
            .state(.out1), .state(.out2),
        ]))
        machine.fire(.go)
        #expect(machine.configuration == [.out1])
    }

    @Test("leaving the parallel state exits every region, innermost first, reverse document order")
    func exitOrder() throws {
        let machine = PlayerChart(try playerChart(), logging: true)
        machine.start()
        _ = machine.takeLog()
        machine.fire(.close)
        #expect(machine.takeLog() == [
            .exited(.online), .exited(.network), .exited(.paused), .exited(.playback), .exited(.player),
            .took(from: .player, trigger: .event(.close), to: [.closed]),
            .entered(.closed),
        ])
        #expect(machine.isFinished)
        #expect(machine.fire(.play) == .finished)
    }

    @Test("done.state of the parallel state comes only when every region is final")
    func doneWhenEveryRegionIsFinal() throws {
        enum S: Hashable, Sendable { case form, fields, editing, valid, submission, idle, sent, done }
        enum E: Hashable, Sendable { case validate, submit }
        let machine = Statechart<S, E>(try .init(states: [
            .parallel(.form, on: [.onDone(.form, to: .done)], [
                .state(.fields, [.state(.editing, on: [.on(.validate, to: .valid)]), .final(.valid)]),
                .state(.submission, [.state(.idle, on: [.on(.submit, to: .sent)]), .final(.sent)]),
            ]),
            .state(.done),
        ]), logging: true)
        machine.fire(.validate)
        #expect(machine.configuration == [.form, .fields, .valid, .submission, .idle])
        machine.fire(.submit)
        #expect(machine.configuration == [.done])
        let log = machine.takeLog()
        #expect(log.contains(.took(from: .form, trigger: .done(.form), to: [.done])))
    }

    @Test("an action's fire is queued and runs after the current event, in order")
    func runToCompletion() throws {
        enum S: Hashable, Sendable { case a, b, c }
        enum E: Hashable, Sendable { case go, next }
        let box = MachineBox<Statechart<S, E>>()
        let machine = Statechart<S, E>(try .init(states: [
            .state(.a, on: [.on(.go, to: .b, actions: [.run { _ in
                #expect(box.machine?.fire(.next) == .queued)
            }])]),
            .state(.b, on: [.on(.next, to: .c)]),
            .state(.c),
        ]))
        box.machine = machine
        #expect(machine.fire(.go) == .processed)
        #expect(machine.configuration == [.c])
    }

    @Test("definition errors name the state")
    func definitionErrors() {
        enum S: Hashable, Sendable { case a, b, c }
        enum E: Hashable, Sendable { case go }
        #expect(throws: Statechart<S, E>.DefinitionError(kind: .duplicateState(.a))) {
            try Statechart<S, E>.Definition(states: [.state(.a), .state(.a)])
        }
        #expect(throws: Statechart<S, E>.DefinitionError(kind: .unknownState(.c))) {
            try Statechart<S, E>.Definition(states: [.state(.a, on: [.on(.go, to: .c)])])
        }
        #expect(throws: Statechart<S, E>.DefinitionError(kind: .initialNotADescendant(parent: .a, initial: .c))) {
            try Statechart<S, E>.Definition(states: [.state(.a, initial: .c, [.state(.b)]), .state(.c)])
        }
    }
}

/// Lets an action reach the machine it belongs to (set after the machine is made).
final class MachineBox<M: AnyObject>: @unchecked Sendable {
    // SAFETY: set once before the machine runs, read from its actions afterwards.
    var machine: M?
}

@Suite("Statechart: DOT")
struct EventMachineStatechartDOTTests {
    @Test("a parallel state is a cluster, its regions dashed clusters inside it")
    func regionsAreClusters() throws {
        let dot = try playerChart().dot
        #expect(dot.contains("subgraph cluster_1 {\n    label=\"player (parallel)\"; style=rounded;"))
        #expect(dot.contains("  subgraph cluster_2 {\n      label=\"playback\"; style=dashed;"))
        #expect(dot.contains("  subgraph cluster_6 {\n      label=\"network\"; style=dashed;"))
        #expect(dot.contains("s4 -> s3 [label=\"pause\"];"))
        #expect(dot.contains("a1 -> s9 [label=\"close\", ltail=cluster_1];"))
        #expect(dot.contains("s5 [label=\"ended\", peripheries=2];"))
    }
}
