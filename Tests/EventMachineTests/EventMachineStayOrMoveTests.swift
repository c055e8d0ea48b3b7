// Rules that stay or move (issue 36): "delete a row unless it is the last", "progress
// until 100 %". A stay is an internal transition — no exit or enter hook, the state's
// task and timeout keep running — and a move is an ordinary transition. Also: per-state
// updates that change the state's data, as GKState subclasses change their properties.

import Testing
import EventMachine
import EventMachineTesting

@Suite("EventMachine stay or move")
struct EventMachineStayOrMoveTests {
    typealias F = EventMachineFixtures

    enum Download: Discriminated, Hashable {
        case idle, downloading(percent: Int), done

        enum Case: CaseIterable, Hashable, Sendable { case idle, downloading, done }
        var `case`: Case {
            switch self {
            case .idle: .idle
            case .downloading: .downloading
            case .done: .done
            }
        }
    }

    enum DownloadEvent: Discriminated, Hashable {
        case start, progress(Int), tick

        enum Case: CaseIterable, Hashable, Sendable { case start, progress, tick }
        var `case`: Case {
            switch self {
            case .start: .start
            case .progress: .progress
            case .tick: .tick
            }
        }
    }

    typealias Machine = StateMachine<Download, DownloadEvent>

    static func makeDownload() throws -> Machine {
        try Machine(initial: .idle, rules: [
            .on(.start, from: .idle, to: .downloading(percent: 0)),
            .on(.progress, from: .downloading, stayOrMoveTo: [.done]) { _, event in
                guard case .progress(let percent) = event else { return nil }
                return percent < 100 ? .stay(.downloading(percent: percent)) : .move(.done)
            },
        ])
    }

    @Test("EventMachine stay-or-move: a stay changes the data without exit/enter hooks, a move runs them")
    func stayThenMove() throws {
        let machine = try Self.makeDownload()
        let log = F.Recorder<String>()
        machine.onDidExit(.downloading) { _ in log.append("exit downloading") }
        machine.onDidEnter(.downloading) { t in log.append("enter \(t.to)") }
        machine.onDidEnter(.done) { _ in log.append("enter done") }
        machine.observe { t in log.append("\(t)") }
        try machine.fire(.start)
        log.removeAll()
        let stay = try machine.fire(.progress(40)).transition
        #expect(stay?.isInternal == true)
        #expect(machine.state == .downloading(percent: 40))
        #expect(log.values == ["downloading(percent: 0) --progress(40)--> downloading(percent: 40) (internal)"])
        log.removeAll()
        try machine.fire(.progress(100))
        #expect(machine.state == .done)
        #expect(log.values == ["exit downloading", "enter done", "downloading(percent: 40) --progress(100)--> done"])
    }

    @Test("EventMachine stay-or-move: staying keeps the state's task and timeout running; moving cancels them")
    func stayKeepsTasks() async throws {
        let machine = try Self.makeDownload()
        let clock = TestClock()
        let (signals, signal) = AsyncStream.makeStream(of: String.self)
        machine.task(in: .downloading) { context in
            signal.yield("task started")
            do { try await clock.sleep(for: .seconds(3600)) } catch { signal.yield("task cancelled") }
        }
        machine.timeout(in: .downloading, after: .seconds(30), clock: clock, fire: .progress(100))
        var next = signals.makeAsyncIterator()
        try machine.fire(.start)
        #expect(await next.next() == "task started")
        #expect(await clock.waitForSleepers(2))
        for percent in [10, 20, 30] { try machine.fire(.progress(percent)) }
        #expect(clock.sleeperCount == 2)             // neither the task nor the timeout restarted
        let stream = machine.transitions
        clock.advance(by: .seconds(30))              // the first entry's timeout is still armed
        let seen = await F.first(1, of: stream).map(\.description)
        #expect(seen == ["downloading(percent: 30) --progress(100)--> done"])
        #expect(await next.next() == "task cancelled")
    }

    @Test("EventMachine stay-or-move: a stay with another case or a move outside the declared cases is refused")
    func undeclared() throws {
        let machine = try Machine(initial: .downloading(percent: 0), rules: [
            .on(.progress, from: .downloading, stayOrMoveTo: [.done]) { _, event in
                guard case .progress(let percent) = event else { return nil }
                return percent < 0 ? .stay(.idle) : percent > 100 ? .move(.idle) : nil
            },
        ])
        #expect(throws: Machine.TransitionError(.undeclaredDestination(event: .progress, state: .downloading, destination: .idle))) {
            try machine.fire(.progress(-1))
        }
        #expect(throws: Machine.TransitionError(.undeclaredDestination(event: .progress, state: .downloading, destination: .idle))) {
            try machine.fire(.progress(101))
        }
        #expect(throws: Machine.TransitionError(.noDestination(event: .progress, state: .downloading))) {
            try machine.fire(.progress(50))
        }
        #expect(machine.state == .downloading(percent: 0))
    }

    @Test("EventMachine stay-or-move: edges and DOT show the stay as an internal edge and every move")
    func edges() throws {
        let machine = try Self.makeDownload()
        let edges = machine.definition.edges.map(\.description)
        #expect(edges == ["idle --start--> downloading", "downloading --progress--> downloading (internal)",
                          "downloading --progress--> done"])
    }

    @Test("EventMachine stay-or-move: a parent's rule stays in the current child")
    func parentStays() throws {
        enum Player: Discriminated, CaseIterable, Hashable { case on, playing, paused }
        enum PlayerEvent: Discriminated, CaseIterable, Hashable { case volume, pause }
        let machine = try StateMachine<Player, PlayerEvent>(initial: .on, rules: [
            .on(.volume, from: .on, stayOrMoveTo: []) { state, _ in .stay(state) },
            .on(.pause, from: .playing, to: .paused),
        ], nesting: [.parent(.on, children: [.playing, .paused], initial: .playing)])
        let log = F.Recorder<String>()
        machine.onDidExit(.playing) { _ in log.append("exit playing") }
        machine.onDidExit(.on) { _ in log.append("exit on") }
        try machine.fire(.pause)
        log.removeAll()
        let t = try machine.fire(.volume).transition
        #expect(t?.isInternal == true)
        #expect(machine.state == .paused)
        #expect(log.values.isEmpty)
    }

    @Test("EventMachine update(deltaTime:) may change the state's data; a change of case is not kept")
    func updateChangesData() throws {
        let machine = try Self.makeDownload()
        machine.onUpdate(.downloading) { state, deltaTime in
            if case .downloading(let percent) = state { state = .downloading(percent: percent + Int(deltaTime)) }
        }
        let transitions = F.Recorder<String>()
        machine.observe { transitions.append("\($0)") }
        try machine.fire(.start)
        machine.update(deltaTime: 5)
        machine.update(deltaTime: 7)
        #expect(machine.state == .downloading(percent: 12))
        #expect(transitions.values == ["start --> idle", "idle --start--> downloading(percent: 0)"])   // updates are not transitions
        machine.onUpdate(.downloading) { state, _ in state = .done }
        machine.update(deltaTime: 1)
        #expect(machine.state == .downloading(percent: 12))   // the first handler's change was dropped with it
    }
}
