// What hooks, guards, observers and callers are told about one step of a machine: the
// transition (with the states' and the event's data), and what `fire` did with an event.

extension StateMachine {
    /// One transition: the state it leaves, the event, and the state it enters, each
    /// with its data. ``StateMachine/start()`` reports a transition with `from` and
    /// `event` both `nil`.
    ///
    /// ```swift
    /// machine.onDidEnter(.articles) { transition in
    ///     if case .articles(let items) = transition.to { print("\(items.count) articles") }
    /// }
    /// ```
    ///
    /// - Complexity: O(1) to create and read.
    public struct Transition: Sendable, CustomStringConvertible {
        /// The state being left; `nil` when the machine starts.
        public var from: State?
        /// The event that caused the transition; `nil` when the machine starts and for
        /// ``StateMachine/enter(_:)``.
        public var event: Event?
        /// The state being entered (always a leaf: never a parent alone).
        public var to: State
        /// `true` for an internal transition: the machine stayed in its state and ran no
        /// exit or enter hook.
        public var isInternal: Bool

        public init(from: State?, event: Event?, to: State, isInternal: Bool = false) {
            self.from = from
            self.event = event
            self.to = to
            self.isInternal = isInternal
        }

        /// The table edge this transition follows, by cases; `nil` for the start.
        public var edge: Edge? {
            guard let from, let event else { return nil }
            return Edge(from: from.case, event: event.case, to: to.case, isInternal: isInternal)
        }

        public var description: String {
            guard let from else { return "start --> \(to)" }
            guard let event else { return "\(from) --> \(to)" }   // enter(_:)
            return "\(from) --\(event)--> \(to)\(isInternal ? " (internal)" : "")"
        }
    }

    /// What ``StateMachine/fire(_:)`` did with its event.
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

    /// What ``StateMachine/attempt(_:)`` (or a task's ``TaskContext/send(_:)``) did with
    /// its event: the non-throwing form of ``FireResult``.
    ///
    /// ```swift
    /// switch machine.attempt(.coin) {
    /// case .completed(let transition): print(transition)
    /// case .refused(let error): print(error)
    /// case .queued, .cancelled: break
    /// }
    /// ```
    public enum FireOutcome: Sendable {
        /// The event was processed by this call; the transition is complete.
        case completed(Transition)
        /// The machine was busy: the event is queued (see ``FireResult/queued``).
        case queued
        /// The event was processed and refused; the state is unchanged.
        case refused(TransitionError)
        /// Not fired: the state-scoped task that sent it was cancelled (its state was
        /// left) or the machine is gone. Only ``TaskContext/send(_:)`` returns it.
        case cancelled

        @inlinable
        init(_ result: Result<Transition, TransitionError>) {
            switch result {
            case .success(let t): self = .completed(t)
            case .failure(let e): self = .refused(e)
            }
        }

        /// The transition, when the event was processed by this call and completed.
        public var transition: Transition? {
            if case .completed(let t) = self { return t }
            return nil
        }

        /// The transition, or the refusal thrown; `.queued` and `.cancelled` throw
        /// ``TransitionError/Kind/invalidEvent(event:state:)`` — use them only where they
        /// cannot happen (``StateMachine/send(_:)`` never queues without waiting).
        @inlinable
        func get() throws(TransitionError) -> Transition {
            switch self {
            case .completed(let t): return t
            case .refused(let e): throw e
            case .queued, .cancelled: preconditionFailure("send waits for its own outcome")
            }
        }
    }

    /// What a state-scoped task (``StateMachine/task(in:_:)``) is given: the state it
    /// was started for and a way to fire events back that is safe whatever happened
    /// meanwhile.
    ///
    /// `send` does nothing and returns ``FireOutcome/cancelled`` once the task is
    /// cancelled — the machine left the state, or the machine itself was released —
    /// so a task that outlives its screen never touches it. The context holds the
    /// machine weakly: a task keeps neither the machine nor its owner alive.
    ///
    /// ```swift
    /// machine.task(in: .loading) { context in
    ///     do {
    ///         await context.send(.loaded(try await api.articles()))
    ///     } catch {
    ///         await context.send(.failed("\(error)"))
    ///     }
    /// }
    /// ```
    public struct TaskContext: Sendable {
        /// The state entered, with its data.
        public let state: State
        private let sender: @Sendable (Event) async -> FireOutcome

        init(state: State, sender: @escaping @Sendable (Event) async -> FireOutcome) {
            self.state = state
            self.sender = sender
        }

        /// Fires `event` into the machine and waits for its outcome (as
        /// ``StateMachine/send(_:)``), unless the task was cancelled or the machine is
        /// gone: then nothing is fired and the outcome is ``FireOutcome/cancelled``.
        @discardableResult
        public func send(_ event: Event) async -> FireOutcome {
            guard !Task.isCancelled else { return .cancelled }
            return await sender(event)
        }

        /// `true` once the state was left or the machine released (the task's cancellation).
        public var isCancelled: Bool { Task.isCancelled }
    }

    /// Identifies a hook, guard or update, for ``StateMachine/removeHook(_:)``.
    public struct HookID: Hashable, Sendable {
        internal let raw: Int
    }

    /// Identifies an observer, for ``StateMachine/removeObserver(_:)``.
    public struct ObserverID: Hashable, Sendable {
        internal let raw: Int
    }
}
