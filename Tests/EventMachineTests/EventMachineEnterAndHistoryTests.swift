// What GameplayKit and XState have that the machine lacked (issue 47): entering a state
// directly (GKStateMachine's `enter(_:)`), removing hooks (only observers could be
// removed), and reading, clearing and restoring the history of parent states.

import Testing
import EventMachine

@Suite("EventMachine enter, removing hooks, history")
struct EventMachineEnterAndHistoryTests {
    typealias F = EventMachineFixtures

    enum Player: Discriminated, CaseIterable, Hashable { case idle, active, playing, paused }
    enum PlayerEvent: Discriminated, CaseIterable, Hashable { case play, pause, resume, stop }
    typealias Machine = StateMachine<Player, PlayerEvent>

    static func makePlayer() throws -> Machine {
        try Machine(initial: .idle, rules: [
            .on(.play, from: .idle, to: .active),
            .on(.pause, from: .playing, to: .paused),
            .on(.resume, from: .paused, to: .playing),
            .on(.stop, from: .active, to: .idle),
        ], nesting: [.parent(.active, children: [.playing, .paused], initial: .playing, history: true)])
    }

    /// Logs every exit and enter hook, the guards and the observers.
    static func logged(_ machine: Machine) -> F.Recorder<String> {
        let log = F.Recorder<String>()
        for state in Player.allCases {
            machine.onWillExit(state) { _ in log.append("willExit \(state)") }
            machine.onWillEnter(state) { _ in log.append("willEnter \(state)") }
            machine.onDidExit(state) { _ in log.append("didExit \(state)") }
            machine.onDidEnter(state) { _ in log.append("didEnter \(state)") }
        }
        machine.addGuard { _ in log.append("guard"); return false }     // refuses every event
        machine.observe { t in log.append("observer \(t)") }
        return log
    }

    @Test("EventMachine enter(_:): moves to any state, no guard, exit and enter hooks in order, event nil")
    func enterRunsHooksWithoutGuards() throws {
        let player = try Self.makePlayer()
        let log = Self.logged(player)
        player.start()
        log.removeAll()
        #expect(player.enter(.paused))
        #expect(player.state == .paused)
        #expect(log.values == [
            "willExit idle", "willEnter active", "willEnter paused",
            "didExit idle", "didEnter active", "didEnter paused", "observer idle --> paused",
        ])
        log.removeAll()
        player.enter(.paused)                              // the current state: left and entered again
        #expect(log.values == ["willExit paused", "willEnter paused", "didExit paused", "didEnter paused",
                               "observer paused --> paused"])
        log.removeAll()
        player.enter(.idle)
        player.enter(.active)                              // a parent: its history (paused)
        #expect(player.state == .paused)
        #expect(throws: Machine.TransitionError.self) { try player.fire(.resume) }   // the guard still refuses events
    }

    @Test("EventMachine enter(_:) from a hook is queued and runs after the transition; the main-actor machine has it too")
    @MainActor
    func enterFromHookAndMainActor() throws {
        let player = try Self.makePlayer()
        let log = F.Recorder<String>()
        player.onDidEnter(.playing) { [unowned player] _ in player.enter(.idle) }
        player.observe { t in log.append("\(t)") }
        try player.fire(.play)
        #expect(log.values == ["start --> idle", "idle --play--> playing", "playing --> idle"])

        let main = try MainActorStateMachine<Player, PlayerEvent>(initial: .idle, rules: [.on(.play, from: .idle, to: .active)],
                                                                  nesting: [.parent(.active, children: [.playing, .paused], initial: .playing)])
        var entered: [String] = []
        main.onDidEnter(.paused) { t in entered.append("\(t)") }
        main.enter(.paused)
        #expect(entered == ["idle --> paused"])
        #expect(main.state == .paused)
    }

    @Test("EventMachine removeHook: a removed hook, guard, update or owner hook is not called again")
    func removeHooks() throws {
        final class Screen: Sendable {}
        let gate = try F.makeGate()
        let log = F.Recorder<String>()
        let screen = Screen()
        let entered = gate.onDidEnter(.unlocked) { _ in log.append("entered") }
        let owned = gate.onDidEnter(.unlocked, owner: screen) { _, _ in log.append("owned") }
        let fired = gate.onDidFire(.coin) { _, _, _ in log.append("fired") }
        let refuse = gate.addGuard(for: .coin) { _ in false }
        let update = gate.onUpdate(.locked) { _ in log.append("update") }
        gate.onDidEnter(.locked) { _ in log.append("locked") }     // stays
        #expect(throws: F.GateMachine.TransitionError.self) { try gate.fire(.coin) }
        gate.update(deltaTime: 1)
        #expect(log.values == ["locked", "update"])
        gate.removeHook(refuse)
        try gate.fire(.coin)
        #expect(log.values == ["locked", "update", "entered", "owned", "fired"])
        log.removeAll()
        for id in [entered, owned, fired, update] { gate.removeHook(id) }
        gate.removeHook(entered)                                    // twice: nothing happens
        try gate.fire(.push)
        try gate.fire(.coin)
        gate.update(deltaTime: 1)
        #expect(log.values == ["locked"])
    }

    @Test("EventMachine history: read, cleared (one parent or all), restored into another machine; invalid entries ignored")
    func history() throws {
        let player = try Self.makePlayer()
        try player.fire(.play)
        try player.fire(.pause)
        try player.fire(.stop)
        #expect(player.history == [.active: .paused])
        let saved = player.history

        player.clearHistory(of: .active)
        #expect(player.history.isEmpty)
        try player.fire(.play)
        #expect(player.state == .playing)                       // the initial child again

        let restored = try Self.makePlayer()
        restored.restoreHistory(saved.merging([.idle: .playing, .playing: .paused]) { a, _ in a })   // not parents: ignored
        #expect(restored.history == [.active: .paused])
        try restored.fire(.play)
        #expect(restored.state == .paused)
        try restored.fire(.stop)
        restored.restoreHistory([.active: .idle])                // not inside .active: ignored
        #expect(restored.history == [.active: .paused])
        restored.clearHistory()
        #expect(restored.history.isEmpty)
    }
}
