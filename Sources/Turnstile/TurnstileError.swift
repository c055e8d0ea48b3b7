import AutomatonCore
import RegexAutomata

/// Every error the `Turnstile` module reports: one human sentence per kind.
///
/// A struct wrapping a ``Kind`` (as ``AutomatonError`` does) so new kinds can be added
/// without breaking callers that only print the error.
///
/// ```swift
/// do { _ = try Matcher(patterns: ["a("], options: .init()) }
/// catch { print(error) }   // one sentence, plus the pattern with a caret for regex errors
/// ```
public struct TurnstileError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: Sendable, Equatable {
        /// A builder or the loader failed.
        case automaton(AutomatonError)
        /// Regex pattern `patternIndex` (0-based) could not be parsed; the error carries
        /// the byte offset and the pattern.
        case regexSyntax(RegexSyntaxError, patternIndex: Int)
        /// The regex compiler failed (a size limit).
        case regex(RegexError)
        /// A rule file line could not be read. `line` is 1-based.
        case invalidRule(source: String, line: Int, message: String)
        /// Options that cannot be combined.
        case invalidOptions(String)
        /// A line of a data file (labelled records) could not be read. `line` is 1-based.
        case invalidInput(source: String, line: Int, message: String)
    }

    /// What went wrong.
    public var kind: Kind

    public init(_ kind: Kind) { self.kind = kind }

    public var description: String {
        switch kind {
        case .automaton(let error):
            return error.description
        case .regexSyntax(let error, let index):
            // RegexSyntaxError renders "error: <message>", the pattern, and a caret line.
            let lines = error.description.split(separator: "\n", omittingEmptySubsequences: false).dropFirst()
            return "pattern \(index) is not a valid regex: \(error.message) (at byte \(error.offset))\n"
                + lines.joined(separator: "\n")
        case .regex(let error):
            return error.description
        case .invalidRule(let source, let line, let message):
            return "\(source), line \(line): \(message)"
        case .invalidOptions(let what):
            return what
        case .invalidInput(let source, let line, let message):
            return "\(source), line \(line): \(message)"
        }
    }

}
