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
        /// A regex pattern could not be parsed. `offset` is a byte offset into `pattern`.
        case regexSyntax(message: String, pattern: String, offset: Int)
        /// The requested feature needs an engine this build does not have yet.
        case unsupported(String)
        /// A rule file line could not be read. `line` is 1-based.
        case invalidRule(source: String, line: Int, message: String)
        /// Options that cannot be combined.
        case invalidOptions(String)
    }

    /// What went wrong.
    public var kind: Kind

    public init(_ kind: Kind) { self.kind = kind }

    public var description: String {
        switch kind {
        case .automaton(let error):
            return error.description
        case .regexSyntax(let message, let pattern, let offset):
            return "\(message) at byte \(offset) of the pattern\n" + Self.caretRendering(pattern: pattern, offset: offset)
        case .unsupported(let what):
            return what
        case .invalidRule(let source, let line, let message):
            return "\(source), line \(line): \(message)"
        case .invalidOptions(let what):
            return what
        }
    }

    /// The pattern on one line and a caret under the byte at `offset` on the next
    /// (the caret column counts Unicode scalars, so it lines up for non-ASCII text).
    public static func caretRendering(pattern: String, offset: Int) -> String {
        let bytes = Array(pattern.utf8)
        let prefix = bytes[..<min(max(offset, 0), bytes.count)]
        let column = String(decoding: prefix, as: UTF8.self).unicodeScalars.count
        return "    " + pattern + "\n    " + String(repeating: " ", count: column) + "^"
    }
}
