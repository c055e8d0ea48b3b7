// The mutable half of a running machine, shared by both kinds of machine: where it is
// (the leaf state's value and position, history, how often each state was entered, the
// tasks tied to active states), its run-to-completion queue, and its hooks. The core
// is generic over the closure types because the thread-safe StateMachine keeps
// `@Sendable` closures behind a lock while MainActorStateMachine keeps `@MainActor`
// closures on the main actor; everything else — what an event does, in which order
// the hooks run — is the same code (TransitionPlan.swift, `Steps.run`).
import AutomatonCore

/// A running machine's state, queue and hooks. `Hook`, `Guard`, `Update` and
/// `Rejection` are the closure types of the owning machine's isolation.
internal struct MachineCore<State: Discriminated, Event: Discriminated, Hook, Guard, Update, Rejection> {
    typealias Machine = StateMachine<State, Event>
    typealias Definition = Machine.Definition
    typealias Transition = Machine.Transition
    typealias TransitionError = Machine.TransitionError
    typealias Reply = CheckedContinuation<Result<Transition, TransitionError>, Never>

    /// Work waiting for its turn; processed in arrival order.
    enum Work {
        case start
        case event(Event, Reply?)
        case update(Double)
        /// A timeout's event, fired only if the state at `position` is still in its
        /// `generation`-th entry.
        case timeout(Event, position: Int, generation: Int)
    }

    /// The closures one transition runs, snapshotted so that they run outside any lock.
    struct Steps {
        var plan: Definition.Plan
        var guards: [Guard] = []
        var willFire: [Hook] = []
        var willExit: [Hook] = []
        var willEnter: [Hook] = []
        var didExit: [Hook] = []
        var didEnter: [Hook] = []
        var startWork: [Hook] = []
        var didFire: [Hook] = []
        var observers: [Hook] = []
        var rejectionObservers: [Rejection] = []
        var subscribers: [AsyncStream<Transition>.Continuation] = []

        /// The error if a guard refuses this transition; nil for the start, which has
        /// no guards.
        var refusal: TransitionError? {
            let t = plan.transition
            guard let from = t.from, let event = t.event else { return nil }
            return TransitionError(.refusedByGuard(event: event.case, state: from.case, destination: t.to.case))
        }

        /// Runs everything after the guards in the documented order; `commit` changes
        /// the state between the will and the did hooks.
        func run(_ call: (Hook) -> Void, commit: () -> Void) {
            for hook in willFire { call(hook) }
            for hook in willExit { call(hook) }
            for hook in willEnter { call(hook) }
            commit()
            for hook in didExit { call(hook) }
            for hook in didEnter { call(hook) }
            for hook in startWork { call(hook) }
            for hook in didFire { call(hook) }
            for observer in observers { call(observer) }
            for subscriber in subscribers { subscriber.yield(plan.transition) }
        }
    }

    /// What to do with one event: refuse it (telling these observers) or run steps.
    enum Prepared {
        case rejected(TransitionError, [Rejection])
        case valid(Steps)
        /// A timeout whose state was left meanwhile: nothing happens.
        case stale
    }

    /// The current leaf state's value; its case is `definition.states[leaf]`.
    var state: State
    /// Position of the current leaf state.
    var leaf: Int
    /// `true` once the initial state's enter hooks have run.
    var started = false
    /// `true` while one caller is processing; only that caller changes `state`.
    var busy = false
    /// Pending work in arrival order: `queue[head...]`. Non-empty only while `busy`.
    var queue: [Work] = []
    var head = 0
    /// By parent position: the leaf value the machine was in when it last left it.
    var history: [State?]
    /// By state position: how many times the state has been entered.
    var entryCount: [Int]
    /// By state position: the tasks tied to it (`task(in:)`, `timeout(in:…)`), cancelled
    /// when the machine leaves it.
    var running: [[Task<Void, Never>]]

    var guards: [(eventClass: Int?, body: Guard)] = []
    var willExit: [[Hook]], willEnter: [[Hook]], didExit: [[Hook]], didEnter: [[Hook]]
    /// By state position: starters of state-scoped work, run after the did-enter hooks.
    var startWork: [[Hook]]
    var updates: [[Update]]
    /// By event class.
    var willFire: [[Hook]], didFire: [[Hook]]
    var observers: [(id: Int, body: Hook)] = []
    var rejectionObservers: [(id: Int, body: Rejection)] = []
    var subscribers: [Int: AsyncStream<Transition>.Continuation] = [:]
    var nextID = 0

    init(definition: Definition, state: State, leaf: Int) {
        let n = definition.states.count, e = definition.events.count
        self.state = state
        self.leaf = leaf
        history = Array(repeating: nil, count: n)
        entryCount = Array(repeating: 0, count: n)
        running = Array(repeating: [], count: n)
        willExit = Array(repeating: [], count: n)
        willEnter = Array(repeating: [], count: n)
        didExit = Array(repeating: [], count: n)
        didEnter = Array(repeating: [], count: n)
        startWork = Array(repeating: [], count: n)
        updates = Array(repeating: [], count: n)
        willFire = Array(repeating: [], count: e)
        didFire = Array(repeating: [], count: e)
    }

    mutating func makeID() -> Int {
        nextID += 1
        return nextID
    }

    // MARK: Planning and committing

    /// The steps for `work` (not `.update`), or why it is refused.
    func prepare(_ work: Work, _ definition: Definition) -> Prepared {
        let event: Event
        switch work {
        case .start:
            guard !started else { return .stale }
            return .valid(steps(for: definition.startPlan(in: state, leaf: leaf), eventClass: nil))
        case .update:
            return .stale
        case .event(let e, _):
            event = e
        case .timeout(let e, let position, let generation):
            guard entryCount[position] == generation, definition.contains(position, leaf) else { return .stale }
            event = e
        }
        switch definition.plan(event, in: state, leaf: leaf, history: history) {
        case .failure(let error):
            return .rejected(error, rejectionObservers.map(\.body))
        case .success(let plan):
            return .valid(steps(for: plan, eventClass: definition.eventClass(event.case)))
        }
    }

    private func steps(for plan: Definition.Plan, eventClass: Int?) -> Steps {
        var s = Steps(plan: plan)
        if let c = eventClass {
            s.guards = guards(for: c)
            s.willFire = willFire[c]
            s.didFire = didFire[c]
        }
        for p in plan.exits { s.willExit += willExit[p]; s.didExit += didExit[p] }
        for p in plan.entries { s.willEnter += willEnter[p]; s.didEnter += didEnter[p]; s.startWork += startWork[p] }
        s.observers = observers.map(\.body)
        s.rejectionObservers = rejectionObservers.map(\.body)
        s.subscribers = Array(subscribers.values)
        return s
    }

    /// Moves to the plan's destination; returns the tasks of the states left, which
    /// the caller cancels (outside any lock).
    mutating func commit(_ plan: Definition.Plan) -> [Task<Void, Never>] {
        var cancelled: [Task<Void, Never>] = []
        for p in plan.exits {
            history[p] = state   // read only for parents that keep history
            cancelled += running[p]
            running[p] = []
        }
        for p in plan.entries { entryCount[p] += 1 }
        state = plan.transition.to
        leaf = plan.leaf
        started = true
        return cancelled
    }

    // MARK: The queue

    mutating func enqueue(_ work: Work) { queue.append(work) }

    mutating func dequeue() -> Work? {
        guard head < queue.count else {
            queue.removeAll(keepingCapacity: true)
            head = 0
            return nil
        }
        let work = queue[head]
        head += 1
        // PERF: drop the consumed prefix once it is the larger half, keeping
        // dequeue amortized O(1) without a deque type.
        if head > 64, head * 2 > queue.count {
            queue.removeFirst(head)
            head = 0
        }
        return work
    }
}

extension MachineCore {
    /// The update handlers of the current leaf and the states it is nested in,
    /// outermost first.
    func updateHandlers(_ definition: Definition) -> [Update] {
        var p = leaf, chain: [[Update]] = []
        while p != -1 { chain.append(updates[p]); p = definition.parentOf[p] }
        return chain.reversed().flatMap { $0 }
    }

    /// The guards for an event class: the event's own first, then machine-wide ones,
    /// each in registration order.
    func guards(for eventClass: Int) -> [Guard] {
        guards.filter { $0.eventClass == eventClass }.map(\.body) + guards.filter { $0.eventClass == nil }.map(\.body)
    }
}

// MARK: - What both machines do the same way

extension MachineCore {
    /// Carries out prepared work — outside any lock: tells rejection observers, asks the
    /// guards, then runs the steps, calling `commit` between the will and the did hooks.
    /// `call`, `check` and `reject` invoke the owner's closures in its own isolation.
    /// Returns nil when nothing happened (a stale timeout, a repeated start).
    static func perform(
        _ prepared: Prepared,
        call: (Hook, Transition) -> Void,
        check: (Guard, Transition) -> Bool,
        reject: (Rejection, TransitionError) -> Void,
        commit: (Definition.Plan) -> Void
    ) -> Result<Transition, TransitionError>? {
        switch prepared {
        case .stale:
            return nil
        case .rejected(let error, let observers):
            for observer in observers { reject(observer, error) }
            return .failure(error)
        case .valid(let steps):
            let t = steps.plan.transition
            if let refusal = steps.refusal, !steps.guards.allSatisfy({ check($0, t) }) {
                for observer in steps.rejectionObservers { reject(observer, refusal) }
                return .failure(refusal)
            }
            steps.run({ call($0, t) }) { commit(steps.plan) }
            return .success(t)
        }
    }

    /// `true` when `event` is valid now, its rule finds a destination and every guard
    /// (asked through `check`) accepts it. Call it on a snapshot when a lock guards the core.
    func canFire(_ event: Event, _ definition: Definition, check: (Guard, Transition) -> Bool) -> Bool {
        guard case .success(let plan) = definition.plan(event, in: state, leaf: leaf, history: history),
              let c = definition.eventClass(event.case) else { return false }
        return guards(for: c).allSatisfy { check($0, plan.transition) }
    }

    /// `true` when some event valid now may lead to `target`: for a plain event (its own
    /// case) planned and accepted by its guards; for an event with data, declared.
    func canEnter(_ target: State.Case, _ definition: Definition, check: (Guard, Transition) -> Bool) -> Bool {
        for e in definition.validEvents(in: state.case) {
            let declared = definition.destinations(from: state.case, on: e)
            guard let event = e as? Event else {
                if declared.contains(target) { return true }
                continue
            }
            guard case .success(let plan) = definition.plan(event, in: state, leaf: leaf, history: history),
                  plan.transition.to.case == target || declared.contains(target),
                  let c = definition.eventClass(e) else { continue }
            if guards(for: c).allSatisfy({ check($0, plan.transition) }) { return true }
        }
        return false
    }
}
