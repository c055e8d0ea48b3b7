// RegexError prints its sentence through `localizedDescription` too: Foundation's default for
// an Error is "The operation could not be completed. (… error 1.)". Only where
// Foundation exists, so the module itself does not depend on it elsewhere.
#if canImport(Foundation)
import Foundation

extension RegexError: LocalizedError {
    /// The error's sentence (its `description`), so `error.localizedDescription` says it.
    public var errorDescription: String? { description }
}
#endif
