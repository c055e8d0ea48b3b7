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
        /// The event that caused the transition; `nil` when the machine starts.
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
            guard let from, let event else { return "start --> \(to)" }
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

    /// Identifies an observer, for ``StateMachine/removeObserver(_:)``.
    public struct ObserverID: Hashable, Sendable {
        internal let raw: Int
    }
}
