// Nested states (a UML/SCXML statechart subset): a parent's rules apply to its
// children unless a child has its own; entering a parent enters its initial child or,
// with history, the state it was last left in; leaving runs exit hooks innermost first
// and entering runs enter hooks outermost first; DOT draws parents as clusters.

import Foundation
import Testing
import TestSupport
import EventMachine
import EventMachineTesting

@Suite("EventMachine nested states")
struct EventMachineNestingTests {
    /// A media player: `on` contains `idle` and `media`; `media` contains `playing` and
    /// `paused`. `on` keeps (deep) history, `media` does not.
    enum Player: Discriminated, CaseIterable, Hashable { case off, on, idle, media, playing, paused }
    enum Button: Discriminated, CaseIterable, Hashable { case power, play, pause, resume, stop, back }
    typealias M = StateMachine<Player, Button>

    static let rules: [M.Rule] = [
        .on(.power, from: .off, to: .on),
        .on(.power, from: .on, to: .off),           // applies in every state inside `on`
        .on(.back, from: .on, to: .off),
        .on(.back, from: .media, to: .idle),        // a child's own rule wins over its parent's
        .on(.play, from: .idle, to: .media),
        .on(.pause, from: .playing, to: .paused),
        .on(.resume, from: .paused, to: .playing),
        .on(.stop, from: .media, to: .idle),
    ]
    static let nesting: [M.Nesting] = [
        .parent(.on, children: [.idle, .media], initial: .idle, history: true),
        .parent(.media, children: [.playing, .paused], initial: .playing),
    ]

    static func makePlayer(_ log: EventMachineFixtures.Recorder<String>? = nil) throws -> M {
        let player = try M(initial: .off, rules: rules, nesting: nesting)
        player.start()
        if let log {
            for s in Player.allCases {
                player.onWillExit(s) { _ in log.append("willExit(\(s))") }
                player.onDidExit(s) { _ in log.append("didExit(\(s))") }
                player.onWillEnter(s) { _ in log.append("willEnter(\(s))") }
                player.onDidEnter(s) { _ in log.append("didEnter(\(s))") }
            }
        }
        return player
    }

    @Test("EventMachine nesting: entering a parent enters its initial child, outermost first")
    func enterParent() throws {
        let log = EventMachineFixtures.Recorder<String>()
        let player = try Self.makePlayer(log)
        let t = try player.fire(.power).transition
        #expect(t?.to == .idle)
        #expect(player.state == .idle)
        #expect(player.isIn(.on) && player.isIn(.idle) && !player.isIn(.media))
        #expect(log.values == ["willExit(off)", "willEnter(on)", "willEnter(idle)", "didExit(off)", "didEnter(on)", "didEnter(idle)"])
        try player.fire(.play)
        #expect(player.state == .playing)
        #expect(player.isIn(.media) && player.isIn(.on))
    }

    @Test("EventMachine nesting: a parent's rule leaves every active state inside it, innermost first")
    func parentRuleExitsChildren() throws {
        let player = try Self.makePlayer()
        try player.fire(.power)
        try player.fire(.play)
        try player.fire(.pause)
        let log = EventMachineFixtures.Recorder<String>()
        for s in Player.allCases {
            player.onWillExit(s) { _ in log.append("willExit(\(s))") }
            player.onDidExit(s) { _ in log.append("didExit(\(s))") }
            player.onDidEnter(s) { _ in log.append("didEnter(\(s))") }
        }
        let t = try player.fire(.power).transition      // `on`'s rule, fired in `paused`
        #expect(t?.description == "paused --power--> off")
        #expect(log.values == ["willExit(paused)", "willExit(media)", "willExit(on)",
                               "didExit(paused)", "didExit(media)", "didExit(on)", "didEnter(off)"])
    }

    @Test("EventMachine nesting: history re-enters the last state inside the parent; no history enters the initial child")
    func history() throws {
        let log = EventMachineFixtures.Recorder<String>()
        let player = try Self.makePlayer(log)
        try player.fire(.power)
        try player.fire(.play)
        try player.fire(.pause)
        try player.fire(.power)
        log.removeAll()
        let back = try player.fire(.power).transition     // `on` keeps history: back to paused
        #expect(back?.to == .paused)
        #expect(log.values.filter { $0.hasPrefix("didEnter") } == ["didEnter(on)", "didEnter(media)", "didEnter(paused)"])
        try player.fire(.stop)                             // media → idle
        #expect(player.state == .idle)
        try player.fire(.play)                             // media keeps no history: playing
        #expect(player.state == .playing)
    }

    @Test("EventMachine nesting: a child's own rule wins over its parent's, and leaves only what it must")
    func childOverrides() throws {
        let log = EventMachineFixtures.Recorder<String>()
        let player = try Self.makePlayer(log)
        try player.fire(.power)
        try player.fire(.play)
        log.removeAll()
        try player.fire(.back)                             // media's rule: to idle, `on` stays
        #expect(player.state == .idle)
        #expect(log.values == ["willExit(playing)", "willExit(media)", "willEnter(idle)",
                               "didExit(playing)", "didExit(media)", "didEnter(idle)"])
        try player.fire(.back)                             // on's rule: to off
        #expect(player.state == .off)
        #expect(player.definition.validEvents(in: .paused) == [.power, .resume, .stop, .back])
        #expect(player.definition.destination(from: .paused, on: .back) == .idle)
        #expect(player.definition.parent(of: .paused) == .media)
        #expect(player.definition.parent(of: .on) == nil)
    }

    @Test("EventMachine nesting: a task in a parent runs while in any child; updates reach parent and child")
    func parentWorkAndUpdates() async throws {
        let player = try Self.makePlayer()
        let clock = TestClock()
        let (signals, signal) = AsyncStream.makeStream(of: String.self)
        player.task(in: .media) { context in
            signal.yield("media task started in \(context.state)")
            do { try await clock.sleep(for: .seconds(1000)) } catch { signal.yield("media task cancelled") }
        }
        let updates = EventMachineFixtures.Recorder<String>()
        player.onUpdate(.on) { _ in updates.append("on") }
        player.onUpdate(.media) { _ in updates.append("media") }
        player.onUpdate(.paused) { _ in updates.append("paused") }
        var next = signals.makeAsyncIterator()
        try player.fire(.power)
        try player.fire(.play)
        #expect(await next.next() == "media task started in playing")
        #expect(await clock.waitForSleepers(1))
        try player.fire(.pause)                          // still inside media
        #expect(clock.sleeperCount == 1)
        player.update(deltaTime: 0.1)
        #expect(updates.values == ["on", "media", "paused"])
        try player.fire(.stop)                           // leaves media
        #expect(await next.next() == "media task cancelled")
    }

    @Test("EventMachine nesting: edges are drawn from the rule's own state; an initial parent resolves to a leaf")
    func edgesAndInitialParent() throws {
        let definition = try M.Definition(initial: .on, rules: Self.rules, nesting: Self.nesting)
        #expect(definition.initialState == .idle)
        let edges = definition.edges
        #expect(edges.contains(.init(from: .on, event: .power, to: .off)))
        #expect(!edges.contains { $0.from == .paused && $0.event == .power })
        #expect(edges.count == Self.rules.count)
        let machine = try M(definition, initialState: .media)
        #expect(machine.state == .playing)
    }

    @Test("EventMachine nesting errors are typed")
    func nestingErrors() {
        #expect(throws: M.DefinitionError(.childWithTwoParents(.idle))) {
            try M.Definition(initial: .off, rules: [], nesting: [
                .parent(.on, children: [.idle], initial: .idle), .parent(.media, children: [.idle], initial: .idle),
            ])
        }
        #expect(throws: M.DefinitionError(.initialNotAChild(parent: .on, initial: .off))) {
            try M.Definition(initial: .off, rules: [], nesting: [.parent(.on, children: [.idle], initial: .off)])
        }
        #expect(throws: M.DefinitionError(.nestingCycle(.on))) {
            try M.Definition(initial: .off, rules: [], nesting: [
                .parent(.on, children: [.media], initial: .media), .parent(.media, children: [.on], initial: .on),
            ])
        }
        #expect(throws: M.DefinitionError(.parentDeclaredTwice(.on))) {
            try M.Definition(initial: .off, rules: [], nesting: [
                .parent(.on, children: [.idle], initial: .idle), .parent(.on, children: [.media], initial: .media),
            ])
        }
    }

    @Test("EventMachine nesting DOT: one cluster per parent, edges clipped at the cluster")
    func clustersInDOT() throws {
        let definition = try M.Definition(initial: .off, rules: Self.rules, nesting: Self.nesting)
        let dot = definition.dot(name: "player", current: .paused)
        #expect(dot.contains("  compound=true;\n"))
        #expect(dot.contains("""
              subgraph "cluster_on" {
                label="on";
                style=rounded;
                "idle";
                subgraph "cluster_media" {
                  label="media";
                  style=rounded;
                  "playing";
                  "paused" [style=filled, fillcolor=lightgrey];
                }
              }

            """))
        #expect(dot.contains(#"  "idle" -> "off" [label="power", ltail="cluster_on"];"#))
        #expect(dot.contains(#"  "idle" -> "playing" [label="play", lhead="cluster_media"];"#))
        #expect(dot.contains(#"  "off" -> "idle" [label="power", lhead="cluster_on"];"#))
        #expect(!dot.contains("\n  \"on\";\n") && !dot.contains("\n    \"media\";\n"))   // parents are clusters, not nodes
    }

    /// Graphviz's `dot`, where it is installed.
    static let dotTool = ["/usr/bin/dot", "/usr/local/bin/dot"].first(where: FileManager.default.isExecutableFile(atPath:))

    @Test("EventMachine nesting DOT read by Graphviz: every leaf is a node, the clusters hold their children",
          .enabled(if: dotTool != nil, "Graphviz `dot` is not installed (make deps installs it)"))
    func clustersReadByGraphviz() throws {
        let definition = try M.Definition(initial: .off, rules: Self.rules, nesting: Self.nesting)
        let dot = definition.dot(name: "player", current: .paused)
        let r = try ChildProcess.run(try #require(Self.dotTool), ["-Tplain"], stdin: Array(dot.utf8))
        let plain = r.out
        #expect(r.status == 0, "\(r.err)")
        let nodes = Set(plain.split(separator: "\n").filter { $0.hasPrefix("node ") }.map { String($0.split(separator: " ")[1]) })
        #expect(nodes == ["__start", "off", "idle", "playing", "paused"])
        #expect(plain.split(separator: "\n").filter { $0.hasPrefix("edge ") }.count == Self.rules.count + 1)
    }
}

extension EventMachineNestingTests {
    @Test("EventMachine nesting: a parent's rule to one of its own children is local: the parent is not left")
    func localTransition() throws {
        let player = try M(initial: .off, rules: Self.rules + [.on(.stop, from: .on, to: .idle)], nesting: Self.nesting)
        player.start()
        let log = EventMachineFixtures.Recorder<String>()
        try player.fire(.power)
        try player.fire(.play)
        for s in Player.allCases {
            player.onDidExit(s) { _ in log.append("didExit(\(s))") }
            player.onDidEnter(s) { _ in log.append("didEnter(\(s))") }
        }
        try player.fire(.stop)     // media's own rule: media → idle (inside on)
        try player.fire(.stop)     // on's rule, in idle: to idle, inside on — local
        #expect(log.values == ["didExit(playing)", "didExit(media)", "didEnter(idle)", "didExit(idle)", "didEnter(idle)"])
    }
}
