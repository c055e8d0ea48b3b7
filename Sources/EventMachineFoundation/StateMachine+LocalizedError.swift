// The event machine's errors print their sentences through `localizedDescription` too:
// Foundation's default for an Error is "The operation could not be completed. (… error
// 1.)". In a module of its own, so EventMachine links only the standard library (issue 40).
import Foundation
import EventMachine

extension StateMachine.TransitionError: LocalizedError {
    /// The error's sentence (its `description`), so `error.localizedDescription` says it.
    public var errorDescription: String? { description }
}

extension StateMachine.DefinitionError: LocalizedError {
    /// The error's sentence (its `description`), so `error.localizedDescription` says it.
    public var errorDescription: String? { description }
}
