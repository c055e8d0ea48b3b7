// A statechart with parallel regions, run with W3C SCXML semantics (ChartEngine.swift):
// the machine for screens whose parts change independently — playback × connectivity,
// a form's fields × its submission — in one machine with one log, so an effect never
// shows up before its cause as it can across two machines.
//
// Concurrency: as StateMachine, run to completion behind one lock (Platform.swift's
// ThreadLock). The caller that finds the machine idle processes its event and every
// event queued meanwhile; an event fired from an action or another thread while it
// does is queued. Actions and guards run outside the lock, so they may read the
// machine and fire events.

/// A statechart: states nested in compound states and in parallel states (regions
/// active at once), final states and done events, history, eventless transitions and
/// internal events, processed as the W3C SCXML recommendation defines.
///
/// ```swift
/// enum S: Hashable, Sendable { case player, playback, paused, playing, network, online, offline }
/// enum E: Hashable, Sendable { case play, pause, drop, reconnect }
///
/// let chart = try Statechart<S, E>.Definition(states: [
///     .parallel(.player, [
///         .state(.playback, [.state(.paused, on: [.on(.play, to: .playing)]),
///                            .state(.playing, on: [.on(.pause, to: .paused)])]),
///         .state(.network, [.state(.online, on: [.on(.drop, to: .offline)]),
///                           .state(.offline, on: [.on(.reconnect, to: .online)])]),
///     ]),
/// ])
/// let machine = Statechart(chart)
/// machine.fire(.play)
/// machine.configuration   // [.player, .playback, .playing, .network, .online]
/// ```
///
/// ## Order of one step (SCXML)
///
/// For an event, each active leaf in document order picks its first enabled transition
/// (its own, else its nearest ancestor's); transitions whose exit sets overlap are
/// resolved in favour of the descendant, else the earlier in document order. Then, as
/// one microstep: every state exited, in reverse document order (exit actions),
/// every transition's actions in document order, every state entered, in document
/// order (entry actions). Eventless transitions, then raised events, run to a stable
/// configuration before the next event the app fires.
///
/// - Complexity: see ``Definition``.
public final class Statechart<State: Hashable & Sendable, Event: Hashable & Sendable>: @unchecked Sendable {
    // SAFETY (@unchecked): `engine` is changed only by the caller that set `busy`,
    // and every change of its configuration happens under `lock` (engine.mutate);
    // `queue`, `busy`, `started` and `pendingLog` are read and written under `lock`.

    /// One thing the machine did, as the log records it.
    public enum Step: Hashable, Sendable {
        case entered(State)
        case exited(State)
        /// A transition taken: its source, what triggered it (nil: eventless or start),
        /// its targets.
        case took(from: State, trigger: Trigger?, to: [State])
        /// An ``Action/log(_:)`` line.
        case logged(String)
    }

    /// What ``fire(_:)`` did with an event.
    public enum FireResult: Sendable, Equatable {
        /// Processed, with everything it caused, and every event queued meanwhile.
        case processed
        /// The machine was busy (the call came from an action or another thread): the
        /// event runs after the current one.
        case queued
        /// The machine is in a top-level final state: events are ignored.
        case finished
    }

    /// The compiled chart this machine runs.
    public let definition: Definition
    private let lock = ThreadLock()
    private var engine: ChartEngine!
    private var busy = false
    private var started = false
    private var queue: [Event] = []
    private var pendingLog: [Step] = []
    private let logging: Bool

    /// Creates a machine for `definition`; it enters its initial states on
    /// ``start()`` or the first event. With `logging`, ``takeLog()`` returns every
    /// state entered and exited and every transition taken, in order.
    public init(_ definition: Definition, logging: Bool = false) {
        self.definition = definition
        self.logging = logging
        let lock = self.lock
        engine = ChartEngine(table: definition.table, logging: logging) { change in
            lock.lock()
            change()
            lock.unlock()
        }
    }

    // MARK: Reading

    /// The active states in document order (parents with their children, every region).
    public var configuration: [State] {
        lock.lock()
        defer { lock.unlock() }
        return engine.configuration.filter { $0 != 0 }.map(definition.state)
    }

    /// `true` when `state` is active.
    public func isIn(_ state: State) -> Bool {
        guard let i = definition.id(of: state) else { return false }
        lock.lock()
        defer { lock.unlock() }
        return engine.active[i]
    }

    /// `true` once a top-level final state was entered: the machine is done.
    public var isFinished: Bool {
        lock.lock()
        defer { lock.unlock() }
        return started && !engine.running
    }

    /// The steps logged since the last call (see `init(_:logging:)`), oldest first.
    public func takeLog() -> [Step] {
        lock.lock()
        defer { lock.unlock() }
        let log = pendingLog
        pendingLog = []
        return log
    }

    // MARK: Firing

    /// Enters the initial configuration; does nothing once started.
    public func start() {
        guard take() else { return }
        processQueue()
    }

    /// Processes `event` and everything it causes (see the order of one step above),
    /// or queues it when the machine is busy.
    @discardableResult
    public func fire(_ event: Event) -> FireResult {
        lock.lock()
        if busy {
            queue.append(event)
            lock.unlock()
            return .queued
        }
        if started, !engine.running {
            lock.unlock()
            return .finished
        }
        busy = true
        queue.append(event)
        lock.unlock()
        processQueue()
        return .processed
    }

    /// Takes the machine when idle; `false` when busy or already started.
    private func take() -> Bool {
        lock.lock()
        defer { lock.unlock() }
        guard !busy, !started else { return false }
        busy = true
        return true
    }

    /// Starts if needed, then processes queued events until none is left.
    private func processQueue() {
        let callbacks = ChartEngine.Callbacks(check: check, perform: perform)
        if !started {
            engine.start(callbacks)
            lock.lock()
            started = true
            lock.unlock()
        }
        while true {
            lock.lock()
            flushLog()
            guard !queue.isEmpty else {
                busy = false
                lock.unlock()
                return
            }
            let event = queue.removeFirst()
            lock.unlock()
            engine.process(signal(event), callbacks)
        }
    }

    /// Moves the engine's steps to `pendingLog`, with the lock held.
    private func flushLog() {
        guard logging, !engine.log.isEmpty else { return }
        for step in engine.log {
            switch step {
            case .enter(0), .exit(0): continue   // the root (SCXML's <scxml>), not a state of the app's
            case .enter(let s): pendingLog.append(.entered(definition.state(s)))
            case .exit(let s): pendingLog.append(.exited(definition.state(s)))
            case .log(let line): pendingLog.append(.logged(line))
            case .transition(let t):
                let tr = definition.table.allTransitions[t]
                pendingLog.append(.took(from: definition.state(tr.source), trigger: trigger(of: tr),
                                        to: tr.targets.map(definition.state)))
            }
        }
        engine.log = []
    }

    private func trigger(of tr: ChartTransition) -> Trigger? {
        if tr.trigger == -3 { return .any }
        guard tr.trigger >= 0 else { return nil }
        if tr.isDone { return .done(definition.state(tr.trigger)) }
        return .event(event(tr.trigger))
    }

    private func event(_ id: Int) -> Event {
        definition.eventIndex.first { $0.value == id }!.key
    }

    /// An event no transition names gets id -2: it is processed and matches nothing.
    private func signal(_ event: Event) -> ChartSignal {
        ChartSignal(id: definition.eventIndex[event] ?? -2, isDone: false)
    }

    private func snapshot(_ signal: ChartSignal?) -> Snapshot {
        var trigger: Trigger?
        if let signal, signal.id >= 0 {
            trigger = signal.isDone ? .done(definition.state(signal.id)) : .event(event(signal.id))
        }
        lock.lock()
        let active = engine.active
        lock.unlock()
        return Snapshot(trigger: trigger, active: active, index: definition.index)
    }

    private func check(_ g: Int, _ signal: ChartSignal?) -> Bool {
        definition.guards[g](snapshot(signal))
    }

    private func perform(_ a: Int, _ signal: ChartSignal?) {
        switch definition.actions[a] {
        case .raise(let e):
            engine.raise(self.signal(e))
        case .log(let line):
            if logging { engine.log.append(.log(line)) }
        case .run(let body):
            body(snapshot(signal))
        }
    }
}
