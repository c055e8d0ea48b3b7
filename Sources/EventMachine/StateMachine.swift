// A typed event machine that any thread or task may drive: states and events are
// `Discriminated` values (plain enums, or enums whose cases carry data), driven through
// a dense transition table (StateMachine+Definition.swift) with guards, enter/exit and
// per-event will/did hooks, observers, an AsyncStream of transitions, an observable
// `state`, state-scoped tasks and timeouts, nested states, and run-to-completion event
// processing. MainActorStateMachine.swift is the same machine for main-actor code.
//
// Models: GameplayKit's GKStateMachine (per-state update, canEnterState), TransitionKit
// (events with several source states, guards, will/did hooks per event),
// SwiftyStateMachine (a schema defined apart from the subject, DOT export), Stateful,
// and UML state machines / Harel statecharts (run to completion, internal transitions,
// nested states with history).
//
// Concurrency: all mutable state sits behind one pthread mutex (MachineCore.swift,
// Platform.swift); hooks, guards and observers run *outside* the lock, so they may call
// back into the machine (read `state`, fire events, register hooks) without
// deadlocking. A `busy` flag, set and cleared under the lock, makes one thread at a time
// the processor; every other `fire` enqueues. An event that runs none of the app's code
// is done in one critical section.
//
// Speed: `fire`, `attempt` and `send` are `@inlinable`, so they are specialized for the
// app's State and Event; an event costs a table lookup, the guards and the hooks, and no
// allocation (the numbers are in the README, from Benchmarks/).
import AutomatonCore
import Observation

/// A finite-state machine whose states and events are Swift enums (their cases may
/// carry data), compiled to a ``DenseDFA`` and safe to share across tasks.
///
/// ```swift
/// enum Gate: Discriminated, CaseIterable, Hashable { case locked, unlocked }
/// enum GateEvent: Discriminated, CaseIterable, Hashable { case coin, push }
///
/// let machine = try StateMachine<Gate, GateEvent>(initial: .locked, rules: [
///     .on(.coin, from: [.locked, .unlocked], to: .unlocked),
///     .on(.push, from: [.locked, .unlocked], to: .locked),
/// ])
/// machine.onDidEnter(.unlocked) { transition in print("welcome") }
/// try machine.fire(.coin)      // prints "welcome"
/// machine.state                // .unlocked
/// ```
///
/// Code on the main actor whose hooks touch UI uses ``MainActorStateMachine`` instead:
/// the same definitions, rules and order of calls, with `@MainActor` hooks.
///
/// ## Starting
///
/// ``start()`` enters the initial state: its enter hooks (and those of the parents it
/// is nested in) run with a transition whose `from` and `event` are `nil`, and its
/// state-scoped work starts. The first event, update or `start()` call starts the
/// machine, so an initial state's enter hooks always run before anything leaves it.
///
/// ## Order of calls for one transition
///
/// For an event that the table allows, from `old` to `new`:
///
/// 1. guards (the event's own, then the machine-wide ones, each in registration order;
///    the first `false` refuses the transition and nothing below runs),
/// 2. will-fire hooks of the event (``onWillFire(_:_:)``),
/// 3. will-exit hooks of each state left, innermost first,
/// 4. will-enter hooks of each state entered, outermost first,
/// 5. the state changes (``state`` reads `new` from here on); tasks of the states left
///    are cancelled,
/// 6. did-exit hooks of each state left, innermost first,
/// 7. did-enter hooks of each state entered, outermost first, then their state-scoped
///    work starts (``task(in:_:)``, ``timeout(in:after:fire:)``),
/// 8. did-fire hooks of the event (``onDidFire(_:_:)``),
/// 9. observers (``observe(_:)``), then the ``transitions`` streams.
///
/// An external self-transition (`.on(.push, from: .locked, to: .locked)`) leaves and
/// re-enters its state; an internal one (``Rule/internal(_:in:update:)``) leaves and
/// enters nothing, so steps 3, 4, 6 and 7 are empty. Every hook, guard and observer is
/// given the ``Transition`` (old state, event, new state, with their data). An event
/// that is invalid in the current state, whose rule computes no or an undeclared
/// destination, or that a guard refuses leaves the state unchanged, runs no hook, and
/// is reported as a ``TransitionError`` (thrown to the caller that processed it, and
/// always passed to ``observeRejections(_:)`` observers).
///
/// ## Run to completion and threads
///
/// Events (and ``update(deltaTime:)`` calls) are processed **one at a time, in the
/// order they arrive** (the order in which their calls take the machine's lock). While
/// one is being processed — steps 1–9 above — the machine is *busy*:
///
/// - a ``fire(_:)`` made while the machine is idle processes its event at once,
///   then processes whatever was queued meanwhile, and returns
///   ``FireResult/completed(_:)`` or throws;
/// - a ``fire(_:)`` made while the machine is busy — from inside a hook, guard
///   or observer, or from another thread — enqueues its event and returns
///   ``FireResult/queued`` at once, never waiting and never nesting inside the current
///   transition. The thread that is processing handles it after the current transition
///   (observers included) has finished; its outcome reaches observers, or rejection
///   observers if it fails;
/// - ``send(_:)`` is the `async` form: it suspends until its own event has been
///   processed and returns that event's transition or throws its error.
///
/// So a `fire` that returns `.completed` has also processed every event queued before
/// it returned, and no transition is ever torn: observers see one transition after
/// another, each starting in the state the previous one ended in. The thread that
/// processes may run hooks for events other threads fired, so hooks, guards and
/// observers are `@Sendable`; a hook that blocks waiting for a later event's outcome
/// would wait forever (that event is queued behind it).
///
/// The machine keeps its hooks alive, so a hook should not capture the object that owns
/// the machine: register it with `owner:` (``onDidEnter(_:owner:_:)`` and the other
/// `owner:` forms), and it is handed the owner, which the machine holds weakly, and is
/// skipped once the owner is gone — even when a hook of the same transition freed it.
/// State-scoped tasks are handed a ``TaskContext`` whose `send` does nothing once the
/// task was cancelled or the machine is gone, so they capture neither.
///
/// - Complexity: building the table is O(|states| × |events|); firing an event is O(1)
///   table work plus the hooks it runs (and the depth of nesting).
public final class StateMachine<State: Discriminated, Event: Discriminated>: Sendable, Observable {
    /// Called with a transition: will/did enter/exit/fire hooks and observers.
    public typealias Hook = @Sendable (Transition) -> Void
    /// Decides whether a transition the table allows may happen.
    public typealias Guard = @Sendable (Transition) -> Bool
    /// A per-state update: may change the state's data (not its case).
    public typealias Update = @Sendable (_ state: inout State, _ deltaTime: Double) -> Void
    @usableFromInline
    typealias Core = MachineCore<State, Event, Hook, Guard, Update, @Sendable (TransitionError) -> Void, ThreadLock>

    /// The transition table this machine runs.
    public let definition: Definition

    @usableFromInline let core: Core
    @usableFromInline let registrar = ObservationRegistrar()

    /// Creates a machine running `definition`, in its initial state; the machine
    /// enters it (runs its enter hooks) on ``start()`` or the first event.
    ///
    /// - Complexity: O(|states| × |events|).
    public init(_ definition: Definition) {
        self.definition = definition
        let state = definition.initialState
        // The definition resolved its initial state to a known leaf.
        let leaf = definition.position(of: state.case) ?? 0
        self.core = Core(definition: definition, state: state, leaf: leaf, lock: ThreadLock())
        startDelays(clock: ContinuousClock())
    }

    /// Creates a machine running `definition` whose delayed transitions
    /// (``Definition/delays``) are measured on `clock` (a `TestClock` in tests).
    ///
    /// - Complexity: O(|states| × |events|).
    public init<C: Clock>(_ definition: Definition, clock: C) where C.Duration == Duration {
        self.definition = definition
        let state = definition.initialState
        let leaf = definition.position(of: state.case) ?? 0
        self.core = Core(definition: definition, state: state, leaf: leaf, lock: ThreadLock())
        startDelays(clock: clock)
    }

    /// Registers the definition's delayed transitions as timeouts on `clock`.
    private func startDelays<C: Clock>(clock: C) where C.Duration == Duration {
        for delay in definition.delays { timeout(in: delay.state, after: delay.duration, clock: clock, fire: delay.event) }
    }

    /// Creates a machine running `definition` that starts in `initialState` (a parent
    /// resolves to its initial child), to restore a machine or test from one state.
    ///
    /// - Throws: ``DefinitionError/Kind/unknownState(_:)`` when its case is not in `allCases`.
    public init(_ definition: Definition, initialState: State) throws(DefinitionError) {
        guard let p = definition.position(of: initialState.case) else {
            throw DefinitionError(.unknownState(initialState.case))
        }
        let (state, leaf) = definition.table.resolved(initialState, at: p, history: Array(repeating: nil, count: definition.states.count))
        self.definition = definition
        self.core = Core(definition: definition, state: state, leaf: leaf, lock: ThreadLock())
        startDelays(clock: ContinuousClock())
    }

    /// Builds the definition from `rules` and creates a machine starting in `initial`.
    ///
    /// - Throws: ``DefinitionError``; see ``Definition/init(initial:rules:nesting:limits:)``.
    public convenience init(
        initial: State, rules: [Rule], nesting: [Nesting] = [], delays: [Delay] = [], limits: Limits = Limits()
    ) throws(DefinitionError) {
        self.init(try Definition(initial: initial, rules: rules, nesting: nesting, delays: delays, limits: limits))
    }

    // MARK: Reading

    /// The current state (a leaf, with its data). While a transition runs it is the old
    /// state up to and including the will-enter hooks, and the new state from the
    /// did-exit hooks on. Observable: SwiftUI views and `withObservationTracking` see
    /// every change.
    ///
    /// PERF: a change is announced to Observation only when `state` was read since the
    /// last announcement — a tracker registers by reading it — so a machine nobody
    /// reads pays nothing for being observable.
    public var state: State {
        registrar.access(self, keyPath: \.state)
        return core.readState()
    }

    /// `true` once the initial state has been entered (by ``start()`` or the first event).
    public var isStarted: Bool { core.locked { core.started } }

    /// `true` when the current state has the case `state` or is nested in it.
    ///
    /// - Complexity: O(depth of nesting).
    public func isIn(_ state: State.Case) -> Bool {
        guard let p = definition.position(of: state) else { return false }
        return definition.table.contains(p, core.locked { core.leaf })
    }

    /// `true` when `event` is valid in the current state, its rule finds a destination
    /// and every guard accepts it.
    ///
    /// It runs the rule's destination function and the guards, so `if canFire(e) {
    /// fire(e) }` runs them twice: to act on the answer, call ``attempt(_:)`` once and
    /// look at its ``FireOutcome``. With other threads firing events this is a
    /// snapshot: the state may change before a following `fire`.
    ///
    /// - Complexity: O(1) plus the rule's destination function and the guards.
    public func canFire(_ event: Event) -> Bool {
        let (state, leaf, hooks, history) = core.locked { (core.state, core.leaf, core.hooks, core.history) }
        guard case .success(let plan) = definition.table.plan(event, in: state, leaf: leaf, history: history),
              let c = definition.eventClass(event.case) else { return false }
        return hooks.guards[c].allSatisfy { $0(plan.transition) }
    }

    /// `true` when firing some event now would put the machine in `state` (or in a state
    /// nested in it), as GameplayKit's `canEnterState(_:)` answers what `enter` would do.
    ///
    /// For every event case without data — the cases of a `CaseIterable` event type,
    /// or those its ``Discriminated/valuesWithoutData`` lists — the answer is what `fire`
    /// would decide: the rule is planned (a computed destination included) and the
    /// guards are asked. An event case that carries data counts when the table declares
    /// an edge into `state`: its rule and guards need the data, so `canFire` with the
    /// event is the exact question.
    ///
    /// - Complexity: O(|events|) plus the guards.
    public func canEnter(_ state: State.Case) -> Bool {
        let (current, leaf, hooks, history) = core.locked { (core.state, core.leaf, core.hooks, core.history) }
        return definition.canEnter(state, from: current, leaf: leaf, history: history) { c, t in
            hooks.guards[c].allSatisfy { $0(t) }
        }
    }

    // MARK: Registering hooks

    /// Adds a guard: a transition happens only when every guard that applies returns
    /// `true`. A guard with an `event` applies to that event case only, one without to
    /// every event. Guards should be quick and free of side effects: ``canFire(_:)``
    /// and ``canEnter(_:)`` call them too.
    ///
    /// ```swift
    /// machine.addGuard(for: .coin) { transition in transition.event?.cents == 25 }
    /// ```
    @discardableResult
    public func addGuard(for event: Event.Case? = nil, _ body: @escaping Guard) -> HookID {
        let id = core.makeID()
        var c: Int?
        if let event {
            guard let k = definition.eventClass(event) else { return HookID(raw: id) }   // never fired: outside allCases
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
        for event: Event.Case? = nil, _ body: @escaping @Sendable (_ from: State, _ event: Event, _ to: State) -> Bool
    ) -> HookID {
        addGuard(for: event) { (t: Transition) -> Bool in
            guard let from = t.from, let e = t.event else { return true }   // not reached: guards run for events only
            return body(from, e, t.to)
        }
    }

    /// Adds a will-fire hook given the transition's parts without optionals (a fire hook
    /// only runs for an event); see ``onWillFire(_:_:)``.
    @discardableResult
    public func onWillFire(_ event: Event.Case, _ hook: @escaping @Sendable (_ from: State, _ event: Event, _ to: State) -> Void) -> HookID {
        onWillFire(event) { (t: Transition) in
            if let from = t.from, let e = t.event { hook(from, e, t.to) }
        }
    }

    /// Adds a did-fire hook given the transition's parts without optionals; see
    /// ``onDidFire(_:_:)``.
    @discardableResult
    public func onDidFire(_ event: Event.Case, _ hook: @escaping @Sendable (_ from: State, _ event: Event, _ to: State) -> Void) -> HookID {
        onDidFire(event) { (t: Transition) in
            if let from = t.from, let e = t.event { hook(from, e, t.to) }
        }
    }

    /// Adds a hook run before the machine leaves `state` (step 3). A case outside
    /// `allCases` is never entered, so its hooks never run.
    @discardableResult
    public func onWillExit(_ state: State.Case, _ hook: @escaping Hook) -> HookID { add(hook, to: \.willExit, state) }

    /// Adds a hook run before the machine enters `state` (step 4).
    @discardableResult
    public func onWillEnter(_ state: State.Case, _ hook: @escaping Hook) -> HookID { add(hook, to: \.willEnter, state) }

    /// Adds a hook run after the machine has left `state` (step 6).
    @discardableResult
    public func onDidExit(_ state: State.Case, _ hook: @escaping Hook) -> HookID { add(hook, to: \.didExit, state) }

    /// Adds a hook run after the machine has entered `state` (step 7).
    @discardableResult
    public func onDidEnter(_ state: State.Case, _ hook: @escaping Hook) -> HookID { add(hook, to: \.didEnter, state) }

    /// Adds a hook run when `event` has passed its guards, before any state is left
    /// (step 2; TransitionKit's `willFireEvent`).
    @discardableResult
    public func onWillFire(_ event: Event.Case, _ hook: @escaping Hook) -> HookID { add(hook, to: \.willFire, event: event) }

    /// Adds a hook run after `event`'s transition, before the observers (step 8;
    /// TransitionKit's `didFireEvent`).
    @discardableResult
    public func onDidFire(_ event: Event.Case, _ hook: @escaping Hook) -> HookID { add(hook, to: \.didFire, event: event) }

    /// Adds a per-state update, called by ``update(deltaTime:)`` while the machine is in
    /// `state` (or in a state nested in it).
    ///
    /// ```swift
    /// machine.onUpdate(.loading) { deltaTime in spinner.advance(by: deltaTime) }
    /// ```
    @discardableResult
    public func onUpdate(_ state: State.Case, _ body: @escaping @Sendable (_ deltaTime: Double) -> Void) -> HookID {
        onUpdate(state) { (_: inout State, deltaTime: Double) in body(deltaTime) }
    }

    /// Adds a per-state update that may change the state's data, as a `GKState`
    /// subclass changes its stored properties in `update(deltaTime:)`. The handler is
    /// given the current state (the leaf, with its data) to change in place; the change
    /// is kept when its case is unchanged (changing the case takes an event) and is seen
    /// by Observation, not by transition observers (it is not a transition).
    ///
    /// ```swift
    /// machine.onUpdate(.charging) { state, deltaTime in
    ///     if case .charging(let level) = state { state = .charging(level: min(level + deltaTime, 1)) }
    /// }
    /// ```
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

    /// Adds an observer of state changes, called after every completed transition
    /// (step 9), in registration order, the start included.
    @discardableResult
    public func observe(_ observer: @escaping Hook) -> ObserverID {
        let id = core.makeID()
        core.register { $0.observers.append((id, observer)) }
        return ObserverID(raw: id)
    }

    /// Adds an observer of rejected events: every event that was invalid or refused,
    /// including queued events whose caller could not be told.
    @discardableResult
    public func observeRejections(_ observer: @escaping @Sendable (TransitionError) -> Void) -> ObserverID {
        let id = core.makeID()
        core.register { $0.rejections.append((id, observer)) }
        return ObserverID(raw: id)
    }

    /// Removes an observer added by ``observe(_:)`` or ``observeRejections(_:)``.
    /// A transition already under way may still call it.
    public func removeObserver(_ id: ObserverID) {
        core.register { h in
            h.observers.removeAll { $0.id == id.raw }
            h.rejections.removeAll { $0.id == id.raw }
        }
    }

    /// Every transition from now on (the start included, if it has not happened yet),
    /// in order, as an `AsyncStream`; each access is a new stream. The stream ends when
    /// the machine is deinitialized.
    ///
    /// ```swift
    /// for await transition in machine.transitions { print(transition) }
    /// ```
    public var transitions: AsyncStream<Transition> {
        let (stream, continuation) = AsyncStream.makeStream(of: Transition.self)
        let id = core.makeID()
        core.register { $0.subscribers.append((id, continuation)) }
        continuation.onTermination = { [weak self] _ in
            self?.core.register { h in h.subscribers.removeAll { $0.id == id } }
        }
        return stream
    }

    // MARK: State-scoped work

    /// Runs `operation` in a new task each time the machine enters `state` (after its
    /// did-enter hooks), and cancels that task when the machine leaves `state`.
    ///
    /// The operation is given a ``TaskContext``: the state entered (the leaf, with its
    /// data) and a `send` that fires events back into the machine — and does nothing
    /// once the task is cancelled (the state was left) or the machine is gone. So the
    /// operation needs to capture neither the machine nor its owner: capturing an
    /// owner `[unowned self]` crashes when the owner is released while the task waits.
    ///
    /// ```swift
    /// machine.task(in: .loading) { context in
    ///     let response = await api.fetch()
    ///     await context.send(.loaded(response))
    /// }
    /// ```
    public func task(in state: State.Case, _ operation: @escaping @Sendable (TaskContext) async -> Void) {
        guard let p = definition.position(of: state) else { return }
        let start: Hook = { [weak self] transition in
            guard let self else { return }
            let context = TaskContext(state: transition.to) { [weak self] event in
                guard let self, !Task.isCancelled else { return .cancelled }
                return await self.sendOutcome(event)
            }
            core.addTask(Task { await operation(context) }, at: p)
        }
        core.register { $0.startWork[p].append(start) }
    }

    /// Fires `event` when the machine has stayed in `state` for `duration` of `clock`
    /// since entering it; leaving `state` earlier cancels the timeout.
    ///
    /// The deadline is taken when the state is entered (`clock.now` during the
    /// transition), not when the timeout's task first runs, so a test may fire an event
    /// and advance a manual clock at once (see the `EventMachineTesting` product's
    /// `TestClock`).
    ///
    /// ```swift
    /// machine.timeout(in: .loading, after: .seconds(10), clock: ContinuousClock(), fire: .timedOut)
    /// ```
    public func timeout<C: Clock>(in state: State.Case, after duration: C.Duration, clock: C, fire event: Event) {
        guard let p = definition.position(of: state) else { return }
        let start: Hook = { [weak self] _ in
            guard let self else { return }
            // The processing caller runs this hook: it alone writes entryCount.
            let generation = core.entryCount[p]
            let deadline = clock.now.advanced(by: duration)
            let task = Task { [weak self] in
                do { try await clock.sleep(until: deadline, tolerance: nil) } catch { return }
                self?.submit(.timeout(event, position: p, generation: generation))
            }
            core.addTask(task, at: p)
        }
        core.register { $0.startWork[p].append(start) }
    }

    /// ``timeout(in:after:clock:fire:)`` on the `ContinuousClock`.
    public func timeout(in state: State.Case, after duration: Duration, fire event: Event) {
        timeout(in: state, after: duration, clock: ContinuousClock(), fire: event)
    }

    // MARK: Firing

    /// Enters the initial state (its enter hooks run with `from == nil`); does nothing
    /// once the machine has started. Queued behind the current transition when busy.
    public func start() {
        submit(.start)
    }

    /// Fires `event` (which carries its own data).
    ///
    /// When the machine is idle the event is processed now (see the order of calls in
    /// ``StateMachine``), then every event queued meanwhile, and the result is returned
    /// or thrown. When the machine is busy — the call comes from a hook, guard or
    /// observer, or another thread is processing — the event is queued and
    /// ``FireResult/queued`` is returned at once.
    ///
    /// ```swift
    /// try machine.fire(.coin)                 // .completed(locked --coin--> unlocked)
    /// ```
    ///
    /// - Throws: ``TransitionError`` when this call processed the event and it was
    ///   refused; the state is unchanged. ``attempt(_:)`` returns it instead.
    /// - Complexity: O(1) table work plus the hooks, guards and observers that run; no
    ///   allocation.
    @inlinable
    @discardableResult
    public func fire(_ event: Event) throws(TransitionError) -> FireResult {
        // PERF: straight from the core's answer, not through `attempt`'s FireOutcome: in
        // a debug build (unspecialized generic code) the conversion cost a fifth of an
        // event (issue 47; event-table built without -c release).
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

    /// Fires `event` as ``fire(_:)`` does, and returns what happened instead of throwing:
    /// ``FireOutcome/completed(_:)``, ``FireOutcome/queued`` or
    /// ``FireOutcome/refused(_:)``. Its result may be ignored without a warning, and it
    /// runs the guards once where `if canFire(e) { try fire(e) }` runs them twice.
    ///
    /// ```swift
    /// machine.attempt(.coin)                      // ignore a refusal
    /// if case .refused(let error) = machine.attempt(.push) { print(error) }
    /// ```
    ///
    /// - Complexity: as ``fire(_:)``.
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

    /// Fires `event` and waits until it has been processed, behind any events queued
    /// before it; returns its transition.
    ///
    /// Use this from tasks that share a machine and need each event's own outcome. It
    /// never blocks a thread: when the machine is busy the task suspends until the
    /// processing thread reaches its event; when it is idle the event is processed at
    /// once, on the caller's executor, without suspending. (Hooks are synchronous, so
    /// they use ``fire(_:)``, which queues.) Cancellation does not withdraw the event.
    ///
    /// ```swift
    /// let transition = try await machine.send(.coin)
    /// ```
    ///
    /// - Throws: ``TransitionError`` when the event is refused in the state it meets.
    /// - Complexity: as ``fire(_:)``.
    @inlinable @inline(__always)
    @discardableResult
    public nonisolated(nonsending) func send(_ event: Event) async throws(TransitionError) -> Transition {
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
    nonisolated(nonsending) func sendOutcome(_ event: Event) async -> FireOutcome {
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
            switch core.begin(event, reply: continuation) {
            case .busy:
                return   // queued with the continuation, resumed by the processing caller
            case .done(let outcome, let notify):
                if notify { announce() }
                continuation.resume(returning: outcome)
            case .taken(let hooks):
                continuation.resume(returning: processTaken(event, hooks))
                drain()
            }
        }
        return FireOutcome(outcome)
    }

    /// Forwards `deltaTime` to the update handlers of the current state and the states
    /// it is nested in (outermost first), as `GKStateMachine.update(deltaTime:)` does.
    ///
    /// Updates take their turn with events: when the machine is busy the update is
    /// queued and runs, in the state current at that time, after the events before it.
    /// An event fired by an update handler is queued and processed after the update.
    ///
    /// ```swift
    /// machine.update(deltaTime: 1.0 / 60)
    /// ```
    /// - Complexity: O(1) plus the handlers that run.
    public func update(deltaTime: Double) {
        submit(.update(deltaTime))
    }

    // MARK: Processing (only the caller that set `busy` runs these)

    /// Processes `work` now if the machine is idle (then drains the queue), else queues it.
    @usableFromInline
    func submit(_ work: Core.Work) {
        guard core.take(orQueue: work) else { return }
        _ = process(work)
        drain()
    }

    /// Processes an event for the caller that took the machine.
    @inlinable
    func processTaken(_ event: Event, _ hooks: Core.Hooks) -> Core.Outcome {
        core.processTaken(
            event, hooks: hooks, call: { hook, t in hook(t) }, check: { g, t in g(t) }, reject: { observer, e in observer(e) },
            announce: announce)
    }

    /// Processes one piece of work with this machine's closures.
    @inlinable
    func process(_ work: Core.Work) -> Core.Outcome? {
        core.process(
            work,
            call: { hook, t in hook(t) }, check: { g, t in g(t) }, reject: { observer, e in observer(e) },
            update: { handler, state, deltaTime in handler(&state, deltaTime) },
            announce: announce
        )
    }

    /// Processes queued work until the queue is empty, then hands the machine back.
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


    /// Tells Observation that `state` changed (after the fact: see ``state``).
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
