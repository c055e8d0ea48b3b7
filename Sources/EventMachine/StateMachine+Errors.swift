// The two typed errors of the event machine: one for building a transition table,
// one for firing an event the table or a guard does not allow.
import AutomatonCore

extension StateMachine {
    /// An event that could not be fired: it has no transition from the current state,
    /// or a guard refused the transition. The machine's state is unchanged.
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
            /// The table has no transition for `event` from `state`.
            case invalidEvent(event: Event, state: State)
            /// The table leads from `state` to `destination` on `event`, but a guard
            /// returned `false`.
            case refusedByGuard(event: Event, state: State, destination: State)
        }

        /// Why the event was not fired.
        public var kind: Kind

        public init(_ kind: Kind) { self.kind = kind }

        /// The state the machine was in (and still is).
        public var state: State {
            switch kind {
            case .invalidEvent(_, let state), .refusedByGuard(_, let state, _): return state
            }
        }

        /// The event that was not fired.
        public var event: Event {
            switch kind {
            case .invalidEvent(let event, _), .refusedByGuard(let event, _, _): return event
            }
        }

        public var description: String {
            switch kind {
            case .invalidEvent(let event, let state):
                return "event \(event) is not valid in state \(state)"
            case .refusedByGuard(let event, let state, let destination):
                return "event \(event) in state \(state) was refused by a guard (it would lead to \(destination))"
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
            case conflictingTransition(event: Event, state: State, existing: State, new: State)
            /// The event type has more cases than the 256 byte classes a table can hold.
            case tooManyEvents(count: Int)
            /// The dense table exceeds the ``Limits`` it was built with.
            case automaton(AutomatonError)
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
            }
        }
    }
}
