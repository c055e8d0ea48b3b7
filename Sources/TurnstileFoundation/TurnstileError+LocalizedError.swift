// TurnstileError prints its sentence through `localizedDescription` too: Foundation's default for
// an Error is "The operation could not be completed. (… error 1.)". In a module of
// its own, so the library modules link only the standard library (issue 40).
import Foundation
import Turnstile

extension TurnstileError: LocalizedError {
    /// The error's sentence (its `description`), so `error.localizedDescription` says it.
    public var errorDescription: String? { description }
}
