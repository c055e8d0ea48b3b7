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
///         machine.onDidEnter(.unlocked) { [unowned self] _ in message = "Welcome" }
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
    public typealias Edge = StateMachine<State, Event>.Edge
    public typealias Transition = StateMachine<State, Event>.Transition
    public typealias TransitionError = StateMachine<State, Event>.TransitionError
    public typealias DefinitionError = StateMachine<State, Event>.DefinitionError
    public typealias FireResult = StateMachine<State, Event>.FireResult
    public typealias ObserverID = StateMachine<State, Event>.ObserverID
    /// Called with a transition, on the main actor.
    public typealias Hook = @MainActor (Transition) -> Void
    /// Decides, on the main actor, whether a transition the table allows may happen.
    public typealias Guard = @MainActor (Transition) -> Bool
    typealias Core = MachineCore<State, Event, Hook, Guard, @MainActor (Double) -> Void, @MainActor (TransitionError) -> Void>

    /// The transition table this machine runs.
    public nonisolated let definition: Definition

    private var core: Core
    private nonisolated let registrar = ObservationRegistrar()

    /// Creates a machine running `definition`, in its initial state; the machine
    /// enters it (runs its enter hooks) on ``start()`` or the first event.
    public init(_ definition: Definition) {
        self.definition = definition
        let state = definition.initialState
        self.core = Core(definition: definition, state: state, leaf: definition.position(of: state.case) ?? 0)
    }

    /// Creates a machine running `definition` that starts in `initialState` (a parent
    /// resolves to its initial child).
    ///
    /// - Throws: ``StateMachine/DefinitionError/Kind/unknownState(_:)`` when its case is not in `allCases`.
    public init(_ definition: Definition, initialState: State) throws(DefinitionError) {
        guard let p = definition.position(of: initialState.case) else {
            throw DefinitionError(.unknownState(initialState.case))
        }
        let (state, leaf) = definition.resolved(initialState, at: p, history: Array(repeating: nil, count: definition.states.count))
        self.definition = definition
        self.core = Core(definition: definition, state: state, leaf: leaf)
    }

    /// Builds the definition from `rules` and creates a machine starting in `initial`.
    ///
    /// - Throws: ``StateMachine/DefinitionError``.
    public convenience init(initial: State, rules: [Rule], nesting: [Nesting] = [], limits: Limits = Limits()) throws(DefinitionError) {
        self.init(try Definition(initial: initial, rules: rules, nesting: nesting, limits: limits))
    }

    isolated deinit {
        for subscriber in core.subscribers.values { subscriber.finish() }
        for tasks in core.running { for task in tasks { task.cancel() } }
    }

    // MARK: Reading

    /// The current state (a leaf, with its data); observable.
    public var state: State {
        registrar.access(self, keyPath: \.state)
        return core.state
    }

    /// `true` once the initial state has been entered.
    public var isStarted: Bool { core.started }

    /// `true` when the current state has the case `state` or is nested in it.
    public func isIn(_ state: State.Case) -> Bool {
        guard let p = definition.position(of: state) else { return false }
        return definition.contains(p, core.leaf)
    }

    /// `true` when `event` is valid now, its rule finds a destination and every guard
    /// accepts it; see ``StateMachine/canFire(_:)``.
    public func canFire(_ event: Event) -> Bool {
        core.canFire(event, definition) { g, t in g(t) }
    }

    /// `true` when some event valid now may lead to `state`; see ``StateMachine/canEnter(_:)``.
    public func canEnter(_ state: State.Case) -> Bool {
        core.canEnter(state, definition) { g, t in g(t) }
    }

    // MARK: Registering hooks

    /// Adds a guard; see ``StateMachine/addGuard(for:_:)``.
    public func addGuard(for event: Event.Case? = nil, _ body: @escaping Guard) {
        var c: Int?
        if let event {
            guard let k = definition.eventClass(event) else { return }
            c = k
        }
        core.guards.append((eventClass: c, body: body))
    }

    /// Adds a hook run before the machine leaves `state`.
    public func onWillExit(_ state: State.Case, _ hook: @escaping Hook) { add(hook, to: \.willExit, state) }
    /// Adds a hook run before the machine enters `state`.
    public func onWillEnter(_ state: State.Case, _ hook: @escaping Hook) { add(hook, to: \.willEnter, state) }
    /// Adds a hook run after the machine has left `state`.
    public func onDidExit(_ state: State.Case, _ hook: @escaping Hook) { add(hook, to: \.didExit, state) }
    /// Adds a hook run after the machine has entered `state`.
    public func onDidEnter(_ state: State.Case, _ hook: @escaping Hook) { add(hook, to: \.didEnter, state) }
    /// Adds a hook run when `event` has passed its guards, before any state is left.
    public func onWillFire(_ event: Event.Case, _ hook: @escaping Hook) { add(hook, to: \.willFire, event: event) }
    /// Adds a hook run after `event`'s transition, before the observers.
    public func onDidFire(_ event: Event.Case, _ hook: @escaping Hook) { add(hook, to: \.didFire, event: event) }

    /// Adds a per-state update, called by ``update(deltaTime:)`` while the machine is in `state`.
    public func onUpdate(_ state: State.Case, _ body: @escaping @MainActor (_ deltaTime: Double) -> Void) {
        guard let p = definition.position(of: state) else { return }
        core.updates[p].append(body)
    }

    /// Adds an observer of state changes, called after every completed transition.
    @discardableResult
    public func observe(_ observer: @escaping Hook) -> ObserverID {
        let id = core.makeID()
        core.observers.append((id, observer))
        return ObserverID(raw: id)
    }

    /// Adds an observer of rejected events.
    @discardableResult
    public func observeRejections(_ observer: @escaping @MainActor (TransitionError) -> Void) -> ObserverID {
        let id = core.makeID()
        core.rejectionObservers.append((id, observer))
        return ObserverID(raw: id)
    }

    /// Removes an observer added by ``observe(_:)`` or ``observeRejections(_:)``.
    public func removeObserver(_ id: ObserverID) {
        core.observers.removeAll { $0.id == id.raw }
        core.rejectionObservers.removeAll { $0.id == id.raw }
    }

    /// Every transition from now on, in order, as an `AsyncStream`; each access is a
    /// new stream, which ends when the machine is deinitialized.
    public var transitions: AsyncStream<Transition> {
        let (stream, continuation) = AsyncStream.makeStream(of: Transition.self)
        let id = core.makeID()
        core.subscribers[id] = continuation
        continuation.onTermination = { [weak self] _ in
            Task { @MainActor in self?.core.subscribers.removeValue(forKey: id) }
        }
        return stream
    }

    // MARK: State-scoped work

    /// Runs `operation` on the main actor in a new task each time the machine enters
    /// `state`, and cancels it when the machine leaves `state`.
    ///
    /// ```swift
    /// machine.task(in: .loading) { [unowned machine] _ in
    ///     let articles = await api.articles()
    ///     try? await machine.send(.loaded(articles))
    /// }
    /// ```
    public func task(in state: State.Case, _ operation: @escaping @MainActor (State) async -> Void) {
        guard let p = definition.position(of: state) else { return }
        core.startWork[p].append { [weak self] transition in
            let task = Task { await operation(transition.to) }
            self?.core.running[p].append(task)
        }
    }

    /// Fires `event` when the machine has stayed in `state` for `duration` of `clock`;
    /// leaving `state` earlier cancels the timeout.
    public func timeout<C: Clock>(in state: State.Case, after duration: C.Duration, clock: C, fire event: Event) {
        guard let p = definition.position(of: state) else { return }
        core.startWork[p].append { [weak self] _ in
            guard let self else { return }
            let generation = core.entryCount[p]
            let task = Task { [weak self] in
                do { try await clock.sleep(for: duration) } catch { return }
                self?.submit(.timeout(event, position: p, generation: generation))
            }
            core.running[p].append(task)
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
    /// - Throws: ``StateMachine/TransitionError`` when the event was refused.
    @discardableResult
    public func fire(_ event: Event) throws(TransitionError) -> FireResult {
        guard take(orQueue: .event(event, nil)) else { return .queued }
        let result = execute(.event(event, nil))
        drainQueue()
        switch result {
        case .success(let transition)?: return .completed(transition)
        case .failure(let error)?: throw error
        case nil: throw TransitionError(.invalidEvent(event: event.case, state: core.state.case))
        }
    }

    /// Fires `event` and returns its transition. From main-actor code the event is
    /// processed at once, its hooks running synchronously; a call made while the
    /// machine is busy waits for its turn.
    ///
    /// - Throws: ``StateMachine/TransitionError`` when the event was refused.
    @discardableResult
    public func send(_ event: Event) async throws(TransitionError) -> Transition {
        if !core.busy {
            switch try fire(event) {
            case .completed(let transition): return transition
            case .queued: break   // not reached: the machine was idle
            }
        }
        let result: Result<Transition, TransitionError> = await withCheckedContinuation { continuation in
            core.enqueue(.event(event, continuation))
        }
        return try result.get()
    }

    /// Forwards `deltaTime` to the update handlers of the current state and its parents.
    public func update(deltaTime: Double) {
        submit(.update(deltaTime))
    }

    // MARK: Processing

    private func submit(_ work: Core.Work) {
        guard take(orQueue: work) else { return }
        _ = execute(work)
        drainQueue()
    }

    private func take(orQueue work: Core.Work) -> Bool {
        if core.busy {
            core.enqueue(work)
            return false
        }
        core.busy = true
        if !core.started { _ = execute(.start) }
        return true
    }

    private func execute(_ work: Core.Work) -> Result<Transition, TransitionError>? {
        if case .update(let deltaTime) = work {
            for handler in core.updateHandlers(definition) { handler(deltaTime) }
            return nil
        }
        return Core.perform(
            core.prepare(work, definition),
            call: { hook, t in hook(t) }, check: { g, t in g(t) }, reject: { observer, e in observer(e) }
        ) { plan in
            var cancelled: [Task<Void, Never>] = []
            registrar.withMutation(of: self, keyPath: \.state) {
                cancelled = core.commit(plan)
            }
            for task in cancelled { task.cancel() }
        }
    }

    private func drainQueue() {
        while let work = core.dequeue() {
            let result = execute(work)
            if case .event(let event, let reply?) = work {
                reply.resume(returning: result ?? .failure(.init(.invalidEvent(event: event.case, state: core.state.case))))
            }
        }
        core.busy = false
    }

    private func add(_ hook: @escaping Hook, to list: WritableKeyPath<Core, [[Hook]]>, _ state: State.Case) {
        guard let p = definition.position(of: state) else { return }
        core[keyPath: list][p].append(hook)
    }

    private func add(_ hook: @escaping Hook, to list: WritableKeyPath<Core, [[Hook]]>, event: Event.Case) {
        guard let c = definition.eventClass(event) else { return }
        core[keyPath: list][c].append(hook)
    }
}
