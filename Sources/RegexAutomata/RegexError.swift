import AutomatonCore

/// Why a regex could not be compiled: a syntax error (with the byte offset and the
/// pattern) or a size limit.
///
/// ```swift
/// do { _ = try RegexCompiler().compile("a(") }
/// catch { print(error) }   // the syntax error, with a caret under the offset
/// ```
public struct RegexError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: Sendable, Equatable {
        /// The pattern at `patternIndex` (0 for a single pattern) does not parse.
        case syntax(RegexSyntaxError, patternIndex: Int)
        /// The NFA exceeds a limit (``Limits/maxStates``); the DFA never fails this
        /// way because past its limits the compiler switches to the lazy DFA.
        case limit(AutomatonError)
    }

    /// What went wrong.
    public var kind: Kind

    public init(_ kind: Kind) { self.kind = kind }

    public var description: String {
        switch kind {
        case .syntax(let e, let index):
            return index == 0 ? e.description : "pattern \(index): \(e.description)"
        case .limit(let e):
            return e.description
        }
    }
}
