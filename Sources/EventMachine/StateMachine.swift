// A typed event machine: enum states and events driven through a dense transition
// table (see StateMachine+Definition.swift), with guards, enter/exit hooks, observers,
// payloads, per-state updates and run-to-completion event processing.
//
// Models: GameplayKit's GKStateMachine (per-state update, canEnterState), TransitionKit
// (events with several source states, guards, will/did hooks), SwiftyStateMachine
// (a schema defined apart from the subject, DOT export), and the run-to-completion
// rule of UML state machines / Harel statecharts: an event is handled completely
// before the next one starts.
//
// Concurrency: all mutable state sits behind one lock (`LockedValue`, a pthread
// mutex that ThreadSanitizer understands, see LockedValue.swift); hooks, guards and observers
// run *outside* the lock, so they may call back into the machine (read `state`, fire
// events, register hooks) without deadlocking. A `busy` flag, set and cleared under the
// lock, makes one thread at a time the processor; every other `fire` enqueues.
import AutomatonCore

/// A finite-state machine whose states and events are Swift enums, compiled to a
/// ``DenseDFA`` and safe to share across tasks.
///
/// ```swift
/// enum Gate: CaseIterable, Hashable, Sendable { case locked, unlocked }
/// enum GateEvent: CaseIterable, Hashable, Sendable { case coin, push }
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
/// ## Order of calls for one transition
///
/// For an event that the table allows, from `old` to `new` (`old` may equal `new`: a
/// self-transition runs the exit and enter hooks of that state too):
///
/// 1. guards (the event's own, then the machine-wide ones, each in registration order;
///    the first `false` refuses the transition and nothing below runs),
/// 2. will-exit hooks of `old`,
/// 3. will-enter hooks of `new`,
/// 4. the state changes (``state`` reads `new` from here on),
/// 5. did-exit hooks of `old`,
/// 6. did-enter hooks of `new`,
/// 7. observers (``observe(_:)``).
///
/// Every hook, guard and observer is given the ``Transition`` (old state, event, new
/// state, payload). An event that is invalid in the current state, or refused by a
/// guard, leaves the state unchanged, runs no hook, and is reported as a
/// ``TransitionError`` (thrown to the caller that processed it, and always passed to
/// ``observeRejections(_:)`` observers).
///
/// ## Run to completion and threads
///
/// Events (and ``update(deltaTime:)`` calls) are processed **one at a time, in the
/// order they arrive** (the order in which their calls take the machine's lock). While
/// one is being processed — steps 1–7 above — the machine is *busy*:
///
/// - a ``fire(_:payload:)`` made while the machine is idle processes its event at once,
///   then processes whatever was queued meanwhile, and returns
///   ``FireResult/completed(_:)`` or throws;
/// - a ``fire(_:payload:)`` made while the machine is busy — from inside a hook, guard
///   or observer, or from another thread — enqueues its event and returns
///   ``FireResult/queued`` at once, never waiting and never nesting inside the current
///   transition. The thread that is processing handles it after the current transition
///   (observers included) has finished; its outcome reaches observers, or rejection
///   observers if it fails;
/// - ``send(_:payload:)`` is the `async` form: it suspends until its own event has
///   been processed and returns that event's transition or throws its error.
///
/// So a `fire` that returns `.completed` has also processed every event queued before
/// it returned, and no transition is ever torn: observers see one transition after
/// another, each starting in the state the previous one ended in. The thread that
/// processes may run hooks for events other threads fired, so hooks, guards and
/// observers are `@Sendable`; a hook that blocks waiting for a later event's outcome
/// would wait forever (that event is queued behind it). For the same reason a call
/// that processes keeps going while other threads keep firing: it returns once the
/// queue is empty.
///
/// The machine keeps its hooks alive: a hook that uses the machine should capture it
/// `[unowned machine]` (or `weak`) to avoid a reference cycle.
///
/// - Complexity: building the table is O(|states| × |events|); firing an event is O(1)
///   table work plus the hooks it runs.
public final class StateMachine<State, Event>: Sendable
where State: CaseIterable & Hashable & Sendable, Event: CaseIterable & Hashable & Sendable {
    /// Called with a transition: will/did enter/exit hooks and observers.
    public typealias Hook = @Sendable (Transition) -> Void
    /// Decides whether a transition the table allows may happen.
    public typealias Guard = @Sendable (Transition) -> Bool

    /// One transition: the event, the state it leaves and the state it enters, and the
    /// payload fired with the event. Hooks, guards and observers receive it.
    ///
    /// ```swift
    /// machine.onDidEnter(.articles) { transition in
    ///     let count = transition.payload(as: [Article].self)?.count ?? 0
    ///     print("\(transition.from) → \(transition.to): \(count) articles")
    /// }
    /// ```
    ///
    /// - Complexity: O(1) to create and read.
    public struct Transition: Sendable, CustomStringConvertible {
        /// The state being left.
        public var from: State
        /// The event that caused the transition.
        public var event: Event
        /// The state being entered.
        public var to: State
        /// The value passed to ``StateMachine/fire(_:payload:)``, if any.
        public var payload: (any Sendable)?

        public init(from: State, event: Event, to: State, payload: (any Sendable)? = nil) {
            self.from = from
            self.event = event
            self.to = to
            self.payload = payload
        }

        /// The table entry this transition follows (without the payload).
        public var edge: Edge { Edge(from: from, event: event, to: to) }

        /// The payload as a `T`, or `nil` when there is none or it has another type.
        public func payload<T>(as type: T.Type = T.self) -> T? { payload as? T }

        public var description: String { "\(from) --\(event)--> \(to)" }
    }

    /// What ``StateMachine/fire(_:payload:)`` did with its event.
    ///
    /// ```swift
    /// if case .completed(let transition) = try machine.fire(.coin) { print(transition) }
    /// ```
    public enum FireResult: Sendable {
        /// The event was processed by this call; the transition is complete.
        case completed(Transition)
        /// The machine was busy (the call came from a hook, or another thread was
        /// processing): the event is queued and will be processed after the current
        /// transition, by the thread that is processing.
        case queued

        /// The transition, when the event was processed by this call.
        public var transition: Transition? {
            if case .completed(let t) = self { return t }
            return nil
        }
    }

    /// Identifies an observer, for ``StateMachine/removeObserver(_:)``.
    public struct ObserverID: Hashable, Sendable {
        fileprivate let raw: Int
    }

    /// The transition table this machine runs.
    public let definition: Definition

    private let storage: LockedValue<Storage>

    /// Creates a machine running `definition`, starting in `initialState` (by default
    /// the definition's initial state). No hook runs for the initial state.
    ///
    /// - Complexity: O(|states|).
    public init(_ definition: Definition, initialState: State? = nil) {
        self.definition = definition
        let start = definition.id(of: initialState ?? definition.initialState)
        self.storage = LockedValue(Storage(current: start, stateCount: definition.states.count))
    }

    /// Builds the definition from `rules` and creates a machine starting in `initial`.
    ///
    /// - Throws: ``DefinitionError``; see ``Definition/init(initial:rules:limits:)``.
    public convenience init(initial: State, rules: [Rule], limits: Limits = Limits()) throws(DefinitionError) {
        self.init(try Definition(initial: initial, rules: rules, limits: limits))
    }

    // MARK: Reading

    /// The current state. While a transition runs it is the old state up to and
    /// including the will-enter hooks, and the new state from the did-exit hooks on.
    public var state: State {
        let id = storage.withLock { $0.current }
        return definition.state(ofID: id)
    }

    /// `true` when `event` is valid in the current state and every guard accepts it
    /// (guards are called with `payload`).
    ///
    /// With other threads firing events this is a snapshot: the state may change
    /// before a following `fire`.
    ///
    /// - Complexity: O(1) plus the guards.
    public func canFire(_ event: Event, payload: (any Sendable)? = nil) -> Bool {
        let (from, guards) = storage.withLock { ($0.current, $0.guards(for: definition.eventClass(event))) }
        let to = definition.automaton.next(from, class: definition.eventClass(event))
        if to == DenseDFA.deadState { return false }
        let t = Transition(from: definition.state(ofID: from), event: event, to: definition.state(ofID: to), payload: payload)
        return guards.allSatisfy { $0(t) }
    }

    /// `true` when some event valid in the current state leads to `state` and its
    /// guards accept it (guards are called without a payload), as GameplayKit's
    /// `canEnterState(_:)`.
    ///
    /// - Complexity: O(|events|) plus the guards.
    public func canEnter(_ state: State) -> Bool {
        let from = storage.withLock { $0.current }
        let target = definition.id(of: state)
        for event in definition.events {
            let c = definition.eventClass(event)
            guard definition.automaton.next(from, class: c) == target else { continue }
            let guards = storage.withLock { $0.guards(for: c) }
            let t = Transition(from: definition.state(ofID: from), event: event, to: state)
            if guards.allSatisfy({ $0(t) }) { return true }
        }
        return false
    }

    // MARK: Registering hooks

    /// Adds a guard: a transition happens only when every guard that applies returns
    /// `true`. A guard with an `event` applies to that event only, one without to
    /// every event. Guards should be quick and free of side effects: ``canFire(_:payload:)``
    /// and ``canEnter(_:)`` call them too.
    ///
    /// ```swift
    /// machine.addGuard(for: .coin) { transition in transition.payload(as: Int.self) == 25 }
    /// ```
    public func addGuard(for event: Event? = nil, _ body: @escaping Guard) {
        let c = event.map { definition.eventClass($0) }
        storage.withLock { $0.guardList.append(GuardEntry(eventClass: c, body: body)) }
    }

    /// Adds a hook run before the machine leaves `state` (step 2).
    public func onWillExit(_ state: State, _ hook: @escaping Hook) {
        let i = index(of: state)
        storage.withLock { $0.willExit[i].append(hook) }
    }

    /// Adds a hook run before the machine enters `state` (step 3).
    public func onWillEnter(_ state: State, _ hook: @escaping Hook) {
        let i = index(of: state)
        storage.withLock { $0.willEnter[i].append(hook) }
    }

    /// Adds a hook run after the machine has left `state` (step 5).
    public func onDidExit(_ state: State, _ hook: @escaping Hook) {
        let i = index(of: state)
        storage.withLock { $0.didExit[i].append(hook) }
    }

    /// Adds a hook run after the machine has entered `state` (step 6).
    public func onDidEnter(_ state: State, _ hook: @escaping Hook) {
        let i = index(of: state)
        storage.withLock { $0.didEnter[i].append(hook) }
    }

    /// Adds a per-state update, called by ``update(deltaTime:)`` while `state` is current.
    ///
    /// ```swift
    /// machine.onUpdate(.loading) { deltaTime in spinner.advance(by: deltaTime) }
    /// ```
    public func onUpdate(_ state: State, _ body: @escaping @Sendable (_ deltaTime: Double) -> Void) {
        let i = index(of: state)
        storage.withLock { $0.updates[i].append(body) }
    }

    /// Adds an observer of state changes, called after every completed transition
    /// (step 7), in registration order.
    @discardableResult
    public func observe(_ observer: @escaping Hook) -> ObserverID {
        storage.withLock { s in
            let id = s.makeObserverID()
            s.observers.append((id, observer))
            return id
        }
    }

    /// Adds an observer of rejected events: every event that was invalid or refused by
    /// a guard, including queued events whose caller could not be told.
    @discardableResult
    public func observeRejections(_ observer: @escaping @Sendable (TransitionError) -> Void) -> ObserverID {
        storage.withLock { s in
            let id = s.makeObserverID()
            s.rejectionObservers.append((id, observer))
            return id
        }
    }

    /// Removes an observer added by ``observe(_:)`` or ``observeRejections(_:)``.
    /// A transition already under way may still call it.
    public func removeObserver(_ id: ObserverID) {
        storage.withLock { s in
            s.observers.removeAll { $0.id == id }
            s.rejectionObservers.removeAll { $0.id == id }
        }
    }

    // MARK: Firing

    /// Fires `event` with an optional `payload`.
    ///
    /// When the machine is idle the event is processed now (see the order of calls in
    /// ``StateMachine``), then every event queued meanwhile, and the result is returned
    /// or thrown. When the machine is busy — the call comes from a hook, guard or
    /// observer, or another thread is processing — the event is queued and
    /// ``FireResult/queued`` is returned at once.
    ///
    /// ```swift
    /// try machine.fire(.coin)                 // .completed(locked --coin--> unlocked)
    /// try machine.fire(.loaded, payload: 12)  // hooks read transition.payload(as: Int.self)
    /// ```
    ///
    /// - Throws: ``TransitionError`` when this call processed the event and it is not
    ///   valid in the current state or a guard refused it; the state is unchanged.
    /// - Complexity: O(1) table work plus the hooks, guards and observers that run.
    @discardableResult
    public func fire(_ event: Event, payload: (any Sendable)? = nil) throws(TransitionError) -> FireResult {
        let runNow = storage.withLock { s in
            if s.busy {
                s.enqueue(.event(event, payload, nil))
                return false
            }
            s.busy = true
            return true
        }
        guard runNow else { return .queued }
        let result = process(event, payload: payload)
        drainQueue()
        switch result {
        case .success(let transition): return .completed(transition)
        case .failure(let error): throw error
        }
    }

    /// Fires `event` and waits until it has been processed, behind any events queued
    /// before it; returns its transition.
    ///
    /// Use this from tasks that share a machine and need each event's own outcome. It
    /// never blocks a thread: when the machine is busy the task suspends until the
    /// processing thread reaches its event. (Hooks are synchronous, so they use
    /// ``fire(_:payload:)``, which queues.) Cancellation does not withdraw the event.
    ///
    /// ```swift
    /// let transition = try await machine.send(.coin)
    /// ```
    ///
    /// - Throws: ``TransitionError`` when the event is invalid in the state it meets,
    ///   or refused by a guard.
    /// - Complexity: as ``fire(_:payload:)``.
    @discardableResult
    public func send(_ event: Event, payload: (any Sendable)? = nil) async throws(TransitionError) -> Transition {
        let result: Result<Transition, TransitionError> = await withCheckedContinuation { continuation in
            let runNow = storage.withLock { s in
                if s.busy {
                    s.enqueue(.event(event, payload, continuation))
                    return false
                }
                s.busy = true
                return true
            }
            guard runNow else { return }
            continuation.resume(returning: process(event, payload: payload))
            drainQueue()
        }
        return try result.get()
    }

    /// Forwards `deltaTime` to the update handlers of the current state, as
    /// `GKStateMachine.update(deltaTime:)` does.
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
        let runNow = storage.withLock { s in
            if s.busy {
                s.enqueue(.update(deltaTime))
                return false
            }
            s.busy = true
            return true
        }
        guard runNow else { return }
        runUpdate(deltaTime)
        drainQueue()
    }

    // MARK: Processing (only the thread that set `busy` runs these)

    /// Processes one event: guards, hooks, state change, observers. Called only by the
    /// thread that owns `busy`, so nothing else changes `current` meanwhile.
    private func process(_ event: Event, payload: (any Sendable)?) -> Result<Transition, TransitionError> {
        let c = definition.eventClass(event)
        let prepared: Prepared = storage.withLock { s in
            let from = s.current
            let to = definition.automaton.next(from, class: c)
            if to == DenseDFA.deadState {
                return .invalid(definition.state(ofID: from), s.rejectionObservers.map(\.body))
            }
            let fromIndex = definition.position(ofID: from)
            let toIndex = definition.position(ofID: to)
            return .valid(Steps(
                from: definition.state(ofID: from), to: definition.state(ofID: to), toID: to,
                guards: s.guards(for: c),
                willExit: s.willExit[fromIndex], willEnter: s.willEnter[toIndex],
                didExit: s.didExit[fromIndex], didEnter: s.didEnter[toIndex],
                observers: s.observers.map(\.body), rejectionObservers: s.rejectionObservers.map(\.body)))
        }
        switch prepared {
        case .invalid(let state, let rejectionObservers):
            let error = TransitionError(.invalidEvent(event: event, state: state))
            for observer in rejectionObservers { observer(error) }
            return .failure(error)
        case .valid(let steps):
            let t = Transition(from: steps.from, event: event, to: steps.to, payload: payload)
            for g in steps.guards where !g(t) {
                let error = TransitionError(.refusedByGuard(event: event, state: steps.from, destination: steps.to))
                for observer in steps.rejectionObservers { observer(error) }
                return .failure(error)
            }
            for hook in steps.willExit { hook(t) }
            for hook in steps.willEnter { hook(t) }
            storage.withLock { $0.current = steps.toID }
            for hook in steps.didExit { hook(t) }
            for hook in steps.didEnter { hook(t) }
            for observer in steps.observers { observer(t) }
            return .success(t)
        }
    }

    /// Runs the current state's update handlers (by the thread that owns `busy`).
    private func runUpdate(_ deltaTime: Double) {
        let handlers = storage.withLock { s in s.updates[definition.position(ofID: s.current)] }
        for handler in handlers { handler(deltaTime) }
    }

    /// Processes queued work until the queue is empty, then clears `busy` — in the same
    /// critical section as the empty check, so an event enqueued concurrently is either
    /// seen here or finds the machine idle and processes itself.
    private func drainQueue() {
        while true {
            let work: Work? = storage.withLock { s in
                if let next = s.dequeue() { return next }
                s.busy = false
                return nil
            }
            guard let work else { return }
            switch work {
            case .event(let event, let payload, let continuation):
                let result = process(event, payload: payload)
                continuation?.resume(returning: result)
            case .update(let deltaTime):
                runUpdate(deltaTime)
            }
        }
    }

    private func index(of state: State) -> Int { definition.stateIndices[state]! }
}

// MARK: - Locked storage

extension StateMachine {
    fileprivate struct GuardEntry {
        /// The event class the guard applies to; nil for every event.
        var eventClass: Int?
        var body: Guard
    }

    fileprivate enum Work {
        case event(Event, (any Sendable)?, CheckedContinuation<Result<Transition, TransitionError>, Never>?)
        case update(Double)
    }

    /// Hooks snapshotted under the lock for one transition, run outside it.
    fileprivate struct Steps {
        var from: State
        var to: State
        var toID: DenseDFA.StateID
        var guards: [Guard]
        var willExit: [Hook]
        var willEnter: [Hook]
        var didExit: [Hook]
        var didEnter: [Hook]
        var observers: [Hook]
        var rejectionObservers: [@Sendable (TransitionError) -> Void]
    }

    fileprivate enum Prepared {
        case invalid(State, [@Sendable (TransitionError) -> Void])
        case valid(Steps)
    }

    /// Everything mutable, guarded by the machine's mutex.
    fileprivate struct Storage {
        /// Pre-multiplied DFA id of the current state; never the dead state.
        var current: DenseDFA.StateID
        /// `true` while one thread is processing events; only that thread changes `current`.
        var busy = false
        /// Pending work in arrival order: `queue[head...]`. Non-empty only while `busy`.
        var queue: [Work] = []
        var head = 0
        var guardList: [GuardEntry] = []
        /// Hooks by state index.
        var willExit: [[Hook]]
        var willEnter: [[Hook]]
        var didExit: [[Hook]]
        var didEnter: [[Hook]]
        var updates: [[@Sendable (Double) -> Void]]
        var observers: [(id: ObserverID, body: Hook)] = []
        var rejectionObservers: [(id: ObserverID, body: @Sendable (TransitionError) -> Void)] = []
        var nextObserverID = 0

        init(current: DenseDFA.StateID, stateCount: Int) {
            self.current = current
            self.willExit = Array(repeating: [], count: stateCount)
            self.willEnter = Array(repeating: [], count: stateCount)
            self.didExit = Array(repeating: [], count: stateCount)
            self.didEnter = Array(repeating: [], count: stateCount)
            self.updates = Array(repeating: [], count: stateCount)
        }

        /// The guards for an event class: the event's own first, then machine-wide
        /// ones, each in registration order.
        func guards(for eventClass: Int) -> [Guard] {
            guardList.filter { $0.eventClass == eventClass }.map(\.body)
                + guardList.filter { $0.eventClass == nil }.map(\.body)
        }

        mutating func makeObserverID() -> ObserverID {
            nextObserverID += 1
            return ObserverID(raw: nextObserverID)
        }

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
}
