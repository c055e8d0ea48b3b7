// The two typed errors of the event machine: one for building a transition table,
// one for firing an event the table, a rule or a guard does not allow. Both name cases,
// not values: a case is always Hashable and printable, a value with data need not be.
import AutomatonCore

extension StateMachine {
    /// An event that could not be fired: it has no transition from the current state,
    /// its rule computed no destination or one outside its declared cases, or a guard
    /// refused the transition. The machine's state is unchanged.
    ///
    /// ```swift
    /// do {
    ///     try machine.fire(.push)
    /// } catch {
    ///     print(error)        // "event push is not valid in state locked"
    ///     error.state         // .locked
    ///     error.event         // .push
    /// }
    /// ```
    public struct TransitionError: Error, Sendable, Equatable, CustomStringConvertible {
        /// Why the event was not fired.
        public enum Kind: Sendable, Equatable {
            /// The table has no transition for `event` from `state` (or `event` is not
            /// one of `Event.Case.allCases`).
            case invalidEvent(event: Event.Case, state: State.Case)
            /// The table leads from `state` to `destination` on `event`, but a guard
            /// returned `false`.
            case refusedByGuard(event: Event.Case, state: State.Case, destination: State.Case)
            /// The rule's destination function returned `nil`.
            case noDestination(event: Event.Case, state: State.Case)
            /// The rule's destination function (or an internal rule's update) returned a
            /// state whose case the rule does not declare.
            case undeclaredDestination(event: Event.Case, state: State.Case, destination: State.Case)
        }

        /// Why the event was not fired.
        public var kind: Kind

        public init(_ kind: Kind) { self.kind = kind }

        /// The case of the state the machine was in (and still is).
        public var state: State.Case {
            switch kind {
            case .invalidEvent(_, let state), .refusedByGuard(_, let state, _), .noDestination(_, let state),
                 .undeclaredDestination(_, let state, _):
                return state
            }
        }

        /// The case of the event that was not fired.
        public var event: Event.Case {
            switch kind {
            case .invalidEvent(let event, _), .refusedByGuard(let event, _, _), .noDestination(let event, _),
                 .undeclaredDestination(let event, _, _):
                return event
            }
        }

        public var description: String {
            switch kind {
            case .invalidEvent(let event, let state):
                return "event \(event) is not valid in state \(state)"
            case .refusedByGuard(let event, let state, let destination):
                return "event \(event) in state \(state) was refused by a guard (it would lead to \(destination))"
            case .noDestination(let event, let state):
                return "event \(event) in state \(state) has no destination: its rule returned none"
            case .undeclaredDestination(let event, let state, let destination):
                return "event \(event) in state \(state) would lead to \(destination), which its rule does not declare"
            }
        }
    }

    /// A transition table that cannot be built.
    ///
    /// ```swift
    /// let rules: [StateMachine<Light, Switch>.Rule] = [
    ///     .on(.toggle, from: .off, to: .on),
    ///     .on(.toggle, from: .off, to: .off),   // conflicts with the rule above
    /// ]
    /// // throws: "event toggle from state off is defined twice, to on and to off"
    /// let definition = try StateMachine.Definition(initial: .off, rules: rules)
    /// ```
    public struct DefinitionError: Error, Sendable, Equatable, CustomStringConvertible {
        /// What is wrong with the table.
        public enum Kind: Sendable, Equatable {
            /// Two rules give the same (state, event) different destinations.
            case conflictingTransition(event: Event.Case, state: State.Case, existing: State.Case, new: State.Case)
            /// The event type has more cases than the 256 byte classes a table can hold.
            case tooManyEvents(count: Int)
            /// The dense table exceeds the ``Limits`` it was built with.
            case automaton(AutomatonError)
            /// A state case used by a rule, a nesting or the initial state is not in
            /// `State.Case.allCases`.
            case unknownState(State.Case)
            /// An event case used by a rule is not in `Event.Case.allCases`.
            case unknownEvent(Event.Case)
            /// A rule declares no destination case.
            case noDestinationCases(event: Event.Case)
            /// A state is declared a child of two parents (or of itself).
            case childWithTwoParents(State.Case)
            /// A state is declared a parent twice.
            case parentDeclaredTwice(State.Case)
            /// A parent's initial state is not one of its children.
            case initialNotAChild(parent: State.Case, initial: State.Case)
            /// A state is nested inside itself.
            case nestingCycle(State.Case)
            /// A delayed transition fires an event that is not valid in its state.
            case delayedEventInvalid(event: Event.Case, state: State.Case)
        }

        /// What is wrong with the table.
        public var kind: Kind

        public init(_ kind: Kind) { self.kind = kind }

        public var description: String {
            switch kind {
            case .conflictingTransition(let event, let state, let existing, let new):
                return "event \(event) from state \(state) is defined twice, to \(existing) and to \(new)"
            case .tooManyEvents(let count):
                return "the event type has \(count) cases, but a transition table holds at most 256 events"
            case .automaton(let error):
                return "cannot build the transition table: \(error)"
            case .unknownState(let state):
                return "state \(state) is not one of the state type's allCases"
            case .unknownEvent(let event):
                return "event \(event) is not one of the event type's allCases"
            case .noDestinationCases(let event):
                return "a rule for event \(event) declares no destination"
            case .childWithTwoParents(let state):
                return "state \(state) is nested in two parents (or in itself)"
            case .parentDeclaredTwice(let state):
                return "parent state \(state) is declared twice"
            case .initialNotAChild(let parent, let initial):
                return "the initial state \(initial) of parent \(parent) is not one of its children"
            case .nestingCycle(let state):
                return "state \(state) is nested inside itself"
            case .delayedEventInvalid(let event, let state):
                return "the delayed event \(event) is not valid in state \(state)"
            }
        }
    }
}
