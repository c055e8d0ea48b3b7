// The event machine for app code on the main actor: the same definitions, plans and
// order of calls as StateMachine (MachineCore.swift, TransitionPlan.swift), but the
// machine is isolated to the main actor and its hooks, guards, observers and
// state-scoped tasks are `@MainActor` closures, so they may touch UI. `fire` from the
// main actor runs them synchronously there; `await send` from main-actor code does
// too (no hop, no `assumeIsolated`). Code off the main actor reaches the machine with
// `await`, as it reaches any main-actor object.
//
// No lock: the main actor serializes every access. Run to completion still holds: an
// event fired from a hook is queued and processed after the current transition.
import AutomatonCore
import Observation

/// A typed event machine isolated to the main actor, whose hooks, guards and observers
/// run on the main actor and may update UI; its ``state`` is observable (SwiftUI
/// redraws views that read it).
///
/// ```swift
/// @MainActor final class GateViewModel {
///     var message = ""
///     let machine: MainActorStateMachine<Gate, GateEvent>
///
///     init() throws {
///         machine = try MainActorStateMachine(initial: .locked, rules: [
///             .on(.coin, from: [.locked, .unlocked], to: .unlocked),
///             .on(.push, from: [.locked, .unlocked], to: .locked),
///         ])
///         machine.onDidEnter(.unlocked, owner: self) { model, _ in model.message = "Welcome" }
///         machine.start()
///     }
/// }
/// ```
///
/// See ``StateMachine`` for the order of calls, starting, run to completion, internal
/// transitions, nesting and state-scoped work: they are the same here.
///
/// - Complexity: as ``StateMachine``, without the lock.
@MainActor
public final class MainActorStateMachine<State: Discriminated, Event: Discriminated>: Observable {
    public typealias Definition = StateMachine<State, Event>.Definition
    public typealias Rule = StateMachine<State, Event>.Rule
    public typealias Nesting = StateMachine<State, Event>.Nesting
    public typealias Delay = StateMachine<State, Event>.Delay
    public typealias Next = StateMachine<State, Event>.Next
    public typealias Edge = StateMachine<State, Event>.Edge
    public typealias Transition = StateMachine<State, Event>.Transition
    public typealias TransitionError = StateMachine<State, Event>.TransitionError
    public typealias DefinitionError = StateMachine<State, Event>.DefinitionError
    public typealias FireResult = StateMachine<State, Event>.FireResult
    public typealias FireOutcome = StateMachine<State, Event>.FireOutcome
    public typealias ObserverID = StateMachine<State, Event>.ObserverID
    public typealias HookID = StateMachine<State, Event>.HookID
    /// Called with a transition, on the main actor.
    public typealias Hook = @MainActor (Transition) -> Void
    /// Decides, on the main actor, whether a transition the table allows may happen.
    public typealias Guard = @MainActor (Transition) -> Bool
    /// A per-state update, on the main actor: may change the state's data (not its case).
    public typealias Update = @MainActor (_ state: inout State, _ deltaTime: Double) -> Void
    @usableFromInline
    typealias Core = MachineCore<State, Event, Hook, Guard, Update, @MainActor (TransitionError) -> Void, NoLock>

    /// The transition table this machine runs.
    public nonisolated let definition: Definition

    @usableFromInline let core: Core
    @usableFromInline nonisolated let registrar = ObservationRegistrar()

    /// Creates a machine running `definition`, in its initial state; the machine
    /// enters it (runs its enter hooks) on ``start()`` or the first event.
    public init(_ definition: Definition) {
        self.definition = definition
        let state = definition.initialState
        self.core = Core(definition: definition, state: state, leaf: definition.position(of: state.case) ?? 0, lock: NoLock())
        startDelays(clock: ContinuousClock())
    }

    /// Creates a machine running `definition` whose delayed transitions are measured on
    /// `clock`; see ``StateMachine/init(_:clock:)``.
    public init<C: Clock>(_ definition: Definition, clock: C) where C.Duration == Duration {
        self.definition = definition
        let state = definition.initialState
        self.core = Core(definition: definition, state: state, leaf: definition.position(of: state.case) ?? 0, lock: NoLock())
        startDelays(clock: clock)
    }

    /// Registers the definition's delayed transitions as timeouts on `clock`.
    private func startDelays<C: Clock>(clock: C) where C.Duration == Duration {
        for delay in definition.delays { timeout(in: delay.state, after: delay.duration, clock: clock, fire: delay.event) }
    }

    /// Creates a machine running `definition` that starts in `initialState` (a parent
    /// resolves to its initial child).
    ///
    /// - Throws: ``StateMachine/DefinitionError/Kind/unknownState(_:)`` when its case is not in `allCases`.
    public init(_ definition: Definition, initialState: State) throws(DefinitionError) {
        guard let p = definition.position(of: initialState.case) else {
            throw DefinitionError(.unknownState(initialState.case))
        }
        let (state, leaf) = definition.table.resolved(initialState, at: p, history: Array(repeating: nil, count: definition.states.count))
        self.definition = definition
        self.core = Core(definition: definition, state: state, leaf: leaf, lock: NoLock())
        startDelays(clock: ContinuousClock())
    }

    /// Builds the definition from `rules` and creates a machine starting in `initial`.
    ///
    /// - Throws: ``StateMachine/DefinitionError``.
    public convenience init(
        initial: State, rules: [Rule], nesting: [Nesting] = [], delays: [Delay] = [], limits: Limits = Limits()
    ) throws(DefinitionError) {
        self.init(try Definition(initial: initial, rules: rules, nesting: nesting, delays: delays, limits: limits))
    }

    // MARK: Reading

    /// The current state (a leaf, with its data); observable (see ``StateMachine/state``).
    public var state: State {
        registrar.access(self, keyPath: \.state)
        return core.readState()
    }

    /// `true` once the initial state has been entered.
    public var isStarted: Bool { core.started }

    /// `true` when the current state has the case `state` or is nested in it.
    public func isIn(_ state: State.Case) -> Bool {
        guard let p = definition.position(of: state) else { return false }
        return definition.table.contains(p, core.leaf)
    }

    /// `true` when `event` is valid now, its rule finds a destination and every guard
    /// accepts it; it runs them, so ``attempt(_:)`` is the one-call form of `if
    /// canFire(e) { fire(e) }`. See ``StateMachine/canFire(_:)``.
    public func canFire(_ event: Event) -> Bool {
        guard case .success(let plan) = definition.table.plan(event, in: core.state, leaf: core.leaf, history: core.history),
              let c = definition.eventClass(event.case) else { return false }
        return core.hooks.guards[c].allSatisfy { $0(plan.transition) }
    }

    /// `true` when some event valid now may lead to `state`; see ``StateMachine/canEnter(_:)``.
    public func canEnter(_ state: State.Case) -> Bool {
        let hooks = core.hooks
        return definition.canEnter(state, from: core.state, leaf: core.leaf, history: core.history) { c, t in
            hooks.guards[c].allSatisfy { $0(t) }
        }
    }

    // MARK: Registering hooks

    /// Adds a guard; see ``StateMachine/addGuard(for:_:)``.
    @discardableResult
    public func addGuard(for event: Event.Case? = nil, _ body: @escaping Guard) -> HookID {
        let id = core.makeID()
        var c: Int?
        if let event {
            guard let k = definition.eventClass(event) else { return HookID(raw: id) }
            c = k
        }
        core.register { [c] in $0.registeredGuards.append((id: id, eventClass: c, body: body)) }
        return HookID(raw: id)
    }

    /// Adds a guard that is given the transition's parts without optionals: a guard
    /// only ever runs for an event, so the state left and the event are always there
    /// (``Transition/from`` and ``Transition/event`` are optional only for the start).
    ///
    /// ```swift
    /// machine.addGuard(for: .coin) { from, event, to in
    ///     if case .coin(let cents) = event { cents >= 25 } else { false }
    /// }
    /// ```
    @discardableResult
    public func addGuard(
        for event: Event.Case? = nil, _ body: @escaping @MainActor (_ from: State, _ event: Event, _ to: State) -> Bool
    ) -> HookID {
        addGuard(for: event) { (t: Transition) -> Bool in
            guard let from = t.from, let e = t.event else { return true }   // not reached: guards run for events only
            return body(from, e, t.to)
        }
    }

    /// Adds a will-fire hook given the transition's parts without optionals (a fire hook
    /// only runs for an event); see ``onWillFire(_:_:)``.
    @discardableResult
    public func onWillFire(_ event: Event.Case, _ hook: @escaping @MainActor (_ from: State, _ event: Event, _ to: State) -> Void) -> HookID {
        onWillFire(event) { (t: Transition) in
            if let from = t.from, let e = t.event { hook(from, e, t.to) }
        }
    }

    /// Adds a did-fire hook given the transition's parts without optionals; see
    /// ``onDidFire(_:_:)``.
    @discardableResult
    public func onDidFire(_ event: Event.Case, _ hook: @escaping @MainActor (_ from: State, _ event: Event, _ to: State) -> Void) -> HookID {
        onDidFire(event) { (t: Transition) in
            if let from = t.from, let e = t.event { hook(from, e, t.to) }
        }
    }

    /// Adds a hook run before the machine leaves `state`.
    @discardableResult
    public func onWillExit(_ state: State.Case, _ hook: @escaping Hook) -> HookID { add(hook, to: \.willExit, state) }
    /// Adds a hook run before the machine enters `state`.
    @discardableResult
    public func onWillEnter(_ state: State.Case, _ hook: @escaping Hook) -> HookID { add(hook, to: \.willEnter, state) }
    /// Adds a hook run after the machine has left `state`.
    @discardableResult
    public func onDidExit(_ state: State.Case, _ hook: @escaping Hook) -> HookID { add(hook, to: \.didExit, state) }
    /// Adds a hook run after the machine has entered `state`.
    @discardableResult
    public func onDidEnter(_ state: State.Case, _ hook: @escaping Hook) -> HookID { add(hook, to: \.didEnter, state) }
    /// Adds a hook run when `event` has passed its guards, before any state is left.
    @discardableResult
    public func onWillFire(_ event: Event.Case, _ hook: @escaping Hook) -> HookID { add(hook, to: \.willFire, event: event) }
    /// Adds a hook run after `event`'s transition, before the observers.
    @discardableResult
    public func onDidFire(_ event: Event.Case, _ hook: @escaping Hook) -> HookID { add(hook, to: \.didFire, event: event) }

    /// Adds a per-state update, called by ``update(deltaTime:)`` while the machine is in `state`.
    @discardableResult
    public func onUpdate(_ state: State.Case, _ body: @escaping @MainActor (_ deltaTime: Double) -> Void) -> HookID {
        onUpdate(state) { (_: inout State, deltaTime: Double) in body(deltaTime) }
    }

    /// Adds a per-state update that may change the state's data (not its case); see
    /// the `inout` form of ``StateMachine/onUpdate(_:_:)``.
    @discardableResult
    public func onUpdate(_ state: State.Case, _ body: @escaping Update) -> HookID {
        let id = core.makeID()
        guard let p = definition.position(of: state) else { return HookID(raw: id) }
        core.register { h in
            h.updates[p].append(body)
            h.updateIDs[p].append(id)
        }
        return HookID(raw: id)
    }

    /// Adds an observer of state changes, called after every completed transition.
    @discardableResult
    public func observe(_ observer: @escaping Hook) -> ObserverID {
        let id = core.makeID()
        core.register { $0.observers.append((id, observer)) }
        return ObserverID(raw: id)
    }

    /// Adds an observer of rejected events.
    @discardableResult
    public func observeRejections(_ observer: @escaping @MainActor (TransitionError) -> Void) -> ObserverID {
        let id = core.makeID()
        core.register { $0.rejections.append((id, observer)) }
        return ObserverID(raw: id)
    }

    /// Removes an observer added by ``observe(_:)`` or ``observeRejections(_:)``.
    public func removeObserver(_ id: ObserverID) {
        core.register { h in
            h.observers.removeAll { $0.id == id.raw }
            h.rejections.removeAll { $0.id == id.raw }
        }
    }

    /// Every transition from now on, in order, as an `AsyncStream`; each access is a
    /// new stream, which ends when the machine is deinitialized.
    public var transitions: AsyncStream<Transition> {
        let (stream, continuation) = AsyncStream.makeStream(of: Transition.self)
        let id = core.makeID()
        core.register { $0.subscribers.append((id, continuation)) }
        continuation.onTermination = { [weak self] _ in
            Task { @MainActor in self?.core.register { h in h.subscribers.removeAll { $0.id == id } } }
        }
        return stream
    }

    // MARK: State-scoped work

    /// What a state-scoped task is given: the state entered, and a `send` that does
    /// nothing once the task is cancelled or the machine is gone; see
    /// ``StateMachine/TaskContext``.
    public struct TaskContext {
        /// The state entered, with its data.
        public let state: State
        private weak var machine: MainActorStateMachine?

        init(state: State, machine: MainActorStateMachine) {
            self.state = state
            self.machine = machine
        }

        /// Fires `event` and waits for its outcome, unless the task was cancelled (the
        /// state was left) or the machine is gone: then ``FireOutcome/cancelled``.
        @MainActor
        @discardableResult
        public func send(_ event: Event) async -> FireOutcome {
            guard !Task.isCancelled, let machine else { return .cancelled }
            return await machine.sendOutcome(event)
        }

        /// `true` once the state was left or the machine released.
        public var isCancelled: Bool { Task.isCancelled }
    }

    /// Runs `operation` on the main actor in a new task each time the machine enters
    /// `state`, and cancels it when the machine leaves `state`. The operation is given
    /// a ``TaskContext``, so it needs to capture neither the machine nor its owner
    /// (an owner captured `[unowned self]` crashes if released while the task waits).
    ///
    /// ```swift
    /// machine.task(in: .loading) { context in
    ///     let articles = await api.articles()
    ///     await context.send(.loaded(articles))
    /// }
    /// ```
    public func task(in state: State.Case, _ operation: @escaping @MainActor (TaskContext) async -> Void) {
        guard let p = definition.position(of: state) else { return }
        core.register {
            $0.startWork[p].append { [weak self] transition in
                guard let self else { return }
                let context = TaskContext(state: transition.to, machine: self)
                core.addTask(Task { await operation(context) }, at: p)
            }
        }
    }

    /// Fires `event` when the machine has stayed in `state` for `duration` of `clock`
    /// since entering it (the deadline is taken on entry); leaving `state` earlier
    /// cancels the timeout. See ``StateMachine/timeout(in:after:clock:fire:)``.
    public func timeout<C: Clock>(in state: State.Case, after duration: C.Duration, clock: C, fire event: Event) {
        guard let p = definition.position(of: state) else { return }
        core.register {
            $0.startWork[p].append { [weak self] _ in
                guard let self else { return }
                let generation = core.entryCount[p]
                let deadline = clock.now.advanced(by: duration)
                let task = Task { [weak self] in
                    do { try await clock.sleep(until: deadline, tolerance: nil) } catch { return }
                    self?.submit(.timeout(event, position: p, generation: generation))
                }
                core.addTask(task, at: p)
            }
        }
    }

    /// ``timeout(in:after:clock:fire:)`` on the `ContinuousClock`.
    public func timeout(in state: State.Case, after duration: Duration, fire event: Event) {
        timeout(in: state, after: duration, clock: ContinuousClock(), fire: event)
    }

    // MARK: Firing

    /// Enters the initial state (its enter hooks run with `from == nil`); does nothing
    /// once the machine has started.
    public func start() {
        submit(.start)
    }

    /// Fires `event`: processed now, with its hooks running synchronously on the main
    /// actor, or queued when called from a hook; see ``StateMachine/fire(_:)``.
    ///
    /// - Throws: ``StateMachine/TransitionError`` when the event was refused;
    ///   ``attempt(_:)`` returns it instead.
    @inlinable
    @discardableResult
    public func fire(_ event: Event) throws(TransitionError) -> FireResult {
        // PERF: straight from the core's answer, as StateMachine.fire (debug builds).
        let outcome: Core.Outcome
        switch core.begin(event) {
        case .busy:
            return .queued
        case .done(let done, let notify):
            if notify { announce() }
            outcome = done
        case .taken(let hooks):
            outcome = processTaken(event, hooks)
            drain()
        }
        switch outcome {
        case .success(let transition): return .completed(transition)
        case .failure(let error): throw error
        }
    }

    /// Fires `event` and returns what happened instead of throwing; see
    /// ``StateMachine/attempt(_:)``.
    @inlinable
    @discardableResult
    public func attempt(_ event: Event) -> FireOutcome {
        switch core.begin(event) {
        case .busy:
            return .queued
        case .done(let outcome, let notify):
            if notify { announce() }
            return FireOutcome(outcome)
        case .taken(let hooks):
            let outcome = processTaken(event, hooks)
            drain()
            return FireOutcome(outcome)
        }
    }

    /// Fires `event` and returns its transition. From main-actor code the event is
    /// processed at once, its hooks running synchronously; a call made while the
    /// machine is busy waits for its turn.
    ///
    /// - Throws: ``StateMachine/TransitionError`` when the event was refused.
    @inlinable
    @discardableResult
    public func send(_ event: Event) async throws(TransitionError) -> Transition {
        // PERF: an idle machine runs the event here, with no further async call and no
        // continuation (event-table, "await send").
        switch core.beginIfIdle(event) {
        case .done(let outcome, let notify):
            if notify { announce() }
            return try outcome.get()
        case .taken(let hooks):
            let outcome = processTaken(event, hooks)
            drain()
            return try outcome.get()
        case .busy:
            return try await sendOutcome(event).get()
        }
    }

    /// ``send(_:)`` without throwing.
    @inlinable
    func sendOutcome(_ event: Event) async -> FireOutcome {
        switch core.beginIfIdle(event) {
        case .done(let outcome, let notify):
            if notify { announce() }
            return FireOutcome(outcome)
        case .taken(let hooks):
            let outcome = processTaken(event, hooks)
            drain()
            return FireOutcome(outcome)
        case .busy:
            break
        }
        let outcome: Core.Outcome = await withCheckedContinuation { continuation in
            core.queue.append(.event(event, continuation))
        }
        return FireOutcome(outcome)
    }

    /// Forwards `deltaTime` to the update handlers of the current state and its parents.
    public func update(deltaTime: Double) {
        submit(.update(deltaTime))
    }

    // MARK: Processing

    @usableFromInline
    func submit(_ work: Core.Work) {
        guard core.take(orQueue: work) else { return }
        _ = process(work)
        drain()
    }

    @inlinable
    func processTaken(_ event: Event, _ hooks: Core.Hooks) -> Core.Outcome {
        core.processTaken(
            event, hooks: hooks, call: { hook, t in hook(t) }, check: { g, t in g(t) }, reject: { observer, e in observer(e) },
            announce: announce)
    }

    @inlinable
    func process(_ work: Core.Work) -> Core.Outcome? {
        core.process(
            work,
            call: { hook, t in hook(t) }, check: { g, t in g(t) }, reject: { observer, e in observer(e) },
            update: { handler, state, deltaTime in handler(&state, deltaTime) },
            announce: announce
        )
    }

    @inlinable
    func drain() {
        while !core.handBack() {
            let work = core.dequeue()
            let outcome = process(work)
            if case .event(let event, let reply?) = work {
                reply.resume(returning: outcome ?? .failure(.init(.invalidEvent(event: event.case, state: core.locked { core.state.case }))))
            }
        }
    }


    @inlinable
    func announce() {
        registrar.withMutation(of: self, keyPath: \.state) {}
    }

    private func add(_ hook: @escaping Hook, to list: ReferenceWritableKeyPath<Core.Hooks, [[Hook]]>, _ state: State.Case) -> HookID {
        let id = core.makeID()
        guard let p = definition.position(of: state) else { return HookID(raw: id) }
        core.register { $0.add(hook, id: id, to: list, at: p) }
        return HookID(raw: id)
    }

    private func add(_ hook: @escaping Hook, to list: ReferenceWritableKeyPath<Core.Hooks, [[Hook]]>, event: Event.Case) -> HookID {
        let id = core.makeID()
        guard let c = definition.eventClass(event) else { return HookID(raw: id) }
        core.register { $0.add(hook, id: id, to: list, at: c) }
        return HookID(raw: id)
    }

    /// Removes a hook, guard or update added by one of the `on…` methods or
    /// ``addGuard(for:_:)-(_,_)``, by the ``HookID`` it returned; a transition already
    /// under way may still call it. Observers are removed by ``removeObserver(_:)``.
    ///
    /// ```swift
    /// let id = machine.onDidEnter(.playing) { _ in analytics.log("play") }
    /// machine.removeHook(id)
    /// ```
    public func removeHook(_ id: HookID) {
        core.register { $0.remove(id: id.raw) }
    }
}
