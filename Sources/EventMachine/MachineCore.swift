// The mutable half of a running machine, shared by both kinds of machine: where it is
// (the leaf state's value and position, history, how often each state was entered, the
// tasks tied to active states), its run-to-completion queue, its hooks
// (MachineHooks.swift), and the one implementation of what an event does — in which
// order the hooks run, when the state changes. It is generic over the closure types
// because the thread-safe StateMachine keeps `@Sendable` closures behind a mutex while
// MainActorStateMachine keeps `@MainActor` closures on the main actor (`Lock` is then
// `NoLock`); the owner passes small closures that call its own closures in its own
// isolation.
//
// Speed (issue 36). Everything on the way from `fire` to a hook is `@inlinable`, so the
// app's module specializes it for its own State and Event: no generic metadata, no
// witness-table calls. An event is looked up in the compiled table
// (Definition.cells, by CaseIndex), never hashed, and nothing is allocated per event.
// An event whose table entry calls none of the app's code (`MachineHooks.quiet`) is
// done in one critical section (`quickly`); any other takes the machine (`busy`), runs
// guards and hooks outside the lock (so they may call back into the machine), and
// locks again only to change the state and to hand the machine back.
//
// PERF: Benchmarks/Sources/EventTable (`event-table`) and
// Benchmarks/Benchmarks/EventMachineEvents (instructions and mallocs per event).
//
// Ownership: `state`, `leaf`, `started`, `busy`, `stateRead`, `queue`, `history`,
// `running` and `hooks` are read and written under `lock` (the main actor for
// MainActorStateMachine). `entryCount` is written under the lock and read by the
// processing caller only.
//
// SAFETY: the stored properties are `@exclusivity(unchecked)`: the lock (or the main
// actor) already keeps any two accesses from overlapping, and the dynamic check Swift
// adds to every access of a class's `var` cost more than the rest of a quiet `fire`
// (MachineHooks.swift's properties, written only while no event holds them, likewise).
import AutomatonCore

@usableFromInline
internal final class MachineCore<State: Discriminated, Event: Discriminated, Hook, Guard, Update, Rejection, Lock: MachineLock> {
    @usableFromInline typealias Machine = StateMachine<State, Event>
    @usableFromInline typealias Definition = Machine.Definition
    @usableFromInline typealias Table = EventTable<State, Event>
    @usableFromInline typealias Transition = Machine.Transition
    @usableFromInline typealias TransitionError = Machine.TransitionError
    @usableFromInline typealias Outcome = Result<Transition, TransitionError>
    @usableFromInline typealias Reply = CheckedContinuation<Outcome, Never>
    @usableFromInline typealias Hooks = MachineHooks<State, Event, Hook, Guard, Update, Rejection>

    /// Work waiting for its turn; processed in arrival order.
    @usableFromInline
    enum Work {
        case start
        case event(Event, Reply?)
        case update(Double)
        /// A timeout's event, fired only if the state at `position` is still in its
        /// `generation`-th entry.
        case timeout(Event, position: Int, generation: Int)
        /// A move straight to a state, without an event (GameplayKit's `enter(_:)`).
        case enter(State)
    }

    /// What ``begin(_:reply:queueIfBusy:)`` did with an event.
    @usableFromInline
    enum Begin {
        /// The machine was busy: the event is queued (or, with `queueIfBusy: false`, not).
        case busy
        /// Done in one critical section; `notify` asks the owner to tell Observation.
        case done(Outcome, notify: Bool)
        /// The caller is now the processor: it runs the event with these hooks (read in
        /// the same critical section), then drains the queue.
        case taken(Hooks)
    }

    @usableFromInline let definition: Definition
    /// `definition.table`: what an event reads.
    @usableFromInline let table: Table
    @usableFromInline let lock: Lock

    /// The current leaf state's value; its case is `table.states[leaf]`.
    @exclusivity(unchecked) @usableFromInline var state: State
    /// Position of the current leaf state.
    @exclusivity(unchecked) @usableFromInline var leaf: Int
    /// `true` once the initial state's enter hooks have run.
    @exclusivity(unchecked) @usableFromInline var started = false
    /// `true` while one caller is processing; only that caller changes `state`.
    @exclusivity(unchecked) @usableFromInline var busy = false
    /// `true` when `state` was read since the last change was announced to Observation:
    /// only then can someone be tracking it (reads register trackers), so only then is
    /// a change announced (see ``StateMachine/state``).
    @exclusivity(unchecked) @usableFromInline var stateRead = false
    /// Pending work in arrival order: `queue[head...]`. Non-empty only while `busy`.
    @exclusivity(unchecked) @usableFromInline var queue: [Work] = []
    @exclusivity(unchecked) @usableFromInline var head = 0
    /// By parent position: the leaf value the machine was in when it last left it
    /// (written for parents that keep history only).
    @exclusivity(unchecked) @usableFromInline var history: [State?]
    /// By state position: how many times the state has been entered.
    @exclusivity(unchecked) @usableFromInline var entryCount: [Int]
    /// By state position: the tasks tied to it (`task(in:)`, `timeout(in:…)`), cancelled
    /// when the machine leaves it; `runningCount` is their total.
    @exclusivity(unchecked) @usableFromInline var running: [[Task<Void, Never>]]
    @exclusivity(unchecked) @usableFromInline var runningCount = 0
    /// The current hooks; replaced, never changed while shared.
    @exclusivity(unchecked) @usableFromInline var hooks: Hooks
    var nextID = 0

    init(definition: Definition, state: State, leaf: Int, lock: Lock) {
        let n = definition.states.count
        self.definition = definition
        self.table = definition.table
        self.lock = lock
        self.state = state
        self.leaf = leaf
        history = Array(repeating: nil, count: n)
        entryCount = Array(repeating: 0, count: n)
        running = Array(repeating: [], count: n)
        hooks = Hooks(definition)
    }

    // MARK: Locked access

    @inlinable
    func locked<R>(_ body: () -> R) -> R {
        lock.lock()
        defer { lock.unlock() }
        return body()
    }

    /// The current state, for a reader: marks it read (see `stateRead`).
    @inlinable
    func readState() -> State {
        locked {
            stateRead = true
            return state
        }
    }

    /// Changes the hooks: in place when no event holds the table, else on a copy.
    func register(_ change: (Hooks) -> Void) {
        locked {
            if !isKnownUniquelyReferenced(&hooks) { hooks = hooks.copy(definition) }
            change(hooks)
            hooks.recompute(definition)
        }
    }

    func makeID() -> Int {
        locked {
            nextID += 1
            return nextID
        }
    }

    /// Adds a task tied to the state at `position`.
    func addTask(_ task: Task<Void, Never>, at position: Int) {
        locked {
            running[position].append(task)
            runningCount += 1
        }
    }

    /// The machine is gone (only it holds its core): the tasks of its states are
    /// cancelled and its `transitions` streams end.
    ///
    /// Here rather than in the machines' own deinits: the main-actor machine's would have
    /// to be an `isolated deinit` to read its core, which needs macOS 15.4 / iOS 18.4 (or
    /// a back-deployed shim); cancelling a task and finishing a stream are safe from any
    /// thread, and nothing else can reach the core any more, so no lock is needed.
    deinit {
        for tasks in running { for task in tasks { task.cancel() } }
        for subscriber in hooks.subscribers { subscriber.continuation.finish() }
    }

    // MARK: History

    /// By parent case: the leaf value the machine was in when it last left it (parents
    /// that keep history only).
    func savedHistory() -> [State.Case: State] {
        locked {
            var saved: [State.Case: State] = [:]
            for (p, value) in history.enumerated() { if let value { saved[definition.states[p]] = value } }
            return saved
        }
    }

    /// Forgets the history of `parent` (of every parent when nil): entering it enters its
    /// initial child again.
    func clearHistory(of parent: State.Case?) {
        locked {
            if let parent {
                let p = table.stateIndex.index(of: parent)
                if p >= 0 { history[p] = nil }
            } else {
                for p in history.indices { history[p] = nil }
            }
        }
    }

    /// Restores history saved by ``savedHistory()``: for each parent that keeps history,
    /// a value whose case is a leaf inside it (others are ignored).
    func restoreHistory(_ saved: [State.Case: State]) {
        locked {
            for (parent, value) in saved {
                let p = table.stateIndex.index(of: parent), v = table.stateIndex.index(of: value.case)
                guard p >= 0, v >= 0, table.keepsHistory[p], table.initialChild[v] == nil, table.contains(p, v), p != v else { continue }
                history[p] = value
            }
        }
    }

    // MARK: Taking the machine

    /// Processes `event` at once when its table entry calls no app code, or makes the
    /// caller the processor, or — when another caller is processing — queues it.
    ///
    /// PERF: no `Reply?` parameter: even a nil continuation costs witness calls per
    /// event (event-table, "no hooks"); ``begin(_:reply:)`` is the send form.
    @inlinable
    func begin(_ event: Event) -> Begin {
        lock.lock()
        defer { lock.unlock() }
        if busy {
            queue.append(.event(event, nil))
            return .busy
        }
        return beginIdle(event)
    }

    /// ``begin(_:)`` for `send`'s first try: a busy machine is left alone (`.busy`, the
    /// event not queued), so that `send` makes a continuation only when it must wait.
    @inlinable
    func beginIfIdle(_ event: Event) -> Begin {
        lock.lock()
        defer { lock.unlock() }
        if busy { return .busy }
        return beginIdle(event)
    }

    /// ``begin(_:)`` for `send`'s second try: a busy machine queues the event with
    /// `reply`, resumed when the event has been processed.
    @inlinable
    func begin(_ event: Event, reply: Reply) -> Begin {
        lock.lock()
        defer { lock.unlock() }
        if busy {
            queue.append(.event(event, reply))
            return .busy
        }
        return beginIdle(event)
    }

    /// The idle half of ``begin(_:)``, with the lock held.
    @inlinable
    func beginIdle(_ event: Event) -> Begin {
        if started, let outcome = quickly(event) {
            let notify = stateRead && outcome.isMove
            if notify { stateRead = false }
            return .done(outcome.result, notify: notify)
        }
        busy = true
        return .taken(hooks)
    }

    /// Takes the machine for `work` (not an event), or queues it.
    @inlinable
    func take(orQueue work: Work) -> Bool {
        locked {
            if busy {
                queue.append(work)
                return false
            }
            busy = true
            return true
        }
    }

    /// The whole of an event whose table entry calls none of the app's code (no guard,
    /// hook, observer, stream or rule closure), with the lock held; nil when it does.
    @inlinable
    func quickly(_ event: Event) -> (result: Outcome, isMove: Bool)? {
        let e = table.eventIndex.index(of: event.case)
        guard e >= 0 else {
            guard hooks.quietUnknown else { return nil }
            return (.failure(.init(.invalidEvent(event: event.case, state: state.case))), false)
        }
        let i = leaf &* table.eventCount &+ e
        guard hooks.quiet[i] else { return nil }
        let cell = table.cells[i]
        switch cell.kind {
        case .invalid:
            return (.failure(.init(.invalidEvent(event: event.case, state: state.case))), false)
        case .internalPlain:
            return (.success(.init(from: state, event: event, to: state, isInternal: true)), false)
        case .fixed:
            // Leaving a state with tasks cancels them, which runs their cancellation
            // handlers: app code, outside the lock.
            guard cell.leaf >= 0, runningCount == 0 else { return nil }
            let to = table.cellTargets[i].unsafelyUnwrapped
            let t = Transition(from: state, event: event, to: to)
            let newLeaf = Int(cell.leaf)
            if table.isFlat {
                // PERF: one state left, one entered, no history: no walk, no closure.
                entryCount[newLeaf] &+= 1
                state = to
                leaf = newLeaf
            } else {
                _ = commitLocked(Table.Plan(transition: t, oldLeaf: leaf, leaf: newLeaf, domain: Int(cell.domain)))
            }
            return (.success(t), true)
        case .computed, .internalUpdate, .stayOrMove:
            return nil
        }
    }

    /// Moves to the plan's destination, with the lock held; returns the tasks of the
    /// states left (nil when there are none), for the caller to cancel outside the lock.
    @inlinable
    func commitLocked(_ plan: Table.Plan) -> [Task<Void, Never>]? {
        if table.isFlat, runningCount == 0 {
            // PERF: one state left, one entered, no history, no task: no walk.
            if plan.leaf != plan.domain { entryCount[plan.leaf] &+= 1 }
            state = plan.transition.to
            leaf = plan.leaf
            started = true
            return nil
        }
        var cancelled: [Task<Void, Never>] = []
        let keepsHistory = table.keepsHistory
        let tasks = runningCount > 0
        table.forEachExit(of: plan) { p in
            if keepsHistory[p] { history[p] = state }
            if tasks, !running[p].isEmpty {
                cancelled += running[p]
                runningCount -= running[p].count
                running[p] = []
            }
        }
        table.forEachEntry(of: plan) { p in entryCount[p] &+= 1 }
        state = plan.transition.to
        leaf = plan.leaf
        started = true
        return cancelled.isEmpty ? nil : cancelled
    }

    // MARK: The queue

    /// Hands the machine back (clears `busy`) when nothing is queued, in the same
    /// critical section as the check, so work queued concurrently either is seen here
    /// or finds the machine idle; `false` when work is waiting (then ``dequeue()`` it).
    ///
    /// PERF: the common case — nothing queued — touches no `Work` value: copying one
    /// goes through the runtime's generic metadata (event-table, "2 hooks").
    @inlinable
    func handBack() -> Bool {
        locked {
            guard head >= queue.count else { return false }
            busy = false
            return true
        }
    }

    /// The next queued work; call only after ``handBack()`` returned `false`.
    @inlinable
    func dequeue() -> Work {
        locked {
            let work = queue[head]
            head += 1
            if head == queue.count {
                queue.removeAll(keepingCapacity: true)
                head = 0
            } else if head > 64, head * 2 > queue.count {
                // PERF: drop the consumed prefix once it is the larger half, keeping
                // dequeue amortized O(1) without a deque type.
                queue.removeFirst(head)
                head = 0
            }
            return work
        }
    }
}

/// The core of a thread-safe machine is used from any thread under its mutex.
extension MachineCore: @unchecked Sendable where Lock == ThreadLock {}
