/// Every error an automaton builder or the loader can report.
///
/// A struct wrapping a ``Kind`` (as swift-system's `Errno` does) so new kinds can be
/// added without breaking callers that only print the error.
public struct AutomatonError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: Sendable, Equatable {
        /// The automaton would need more states than `limit` allows.
        case tooManyStates(limit: Int)
        /// The transition table would need more than `limit` bytes.
        case tableTooLarge(limit: Int)
        /// A saved automaton does not start with Turnstile's magic bytes.
        case notAnAutomaton
        /// A saved automaton was written by a format version this build cannot read.
        case unsupportedVersion(found: UInt32, supported: UInt32)
        /// A saved automaton ended before all of its declared content.
        case truncated(needed: Int, available: Int)
        /// A saved automaton is structurally invalid; the text says which check failed.
        case corrupt(String)
        /// A saved file's bytes do not match the checksum written with them: it was
        /// damaged after it was saved.
        case checksumMismatch(stored: UInt32, computed: UInt32)
        /// A builder was used inconsistently (an id out of range, a missing start state).
        case invalidBuild(String)
    }

    /// What went wrong.
    public var kind: Kind

    public init(_ kind: Kind) { self.kind = kind }

    /// The end of a ``Kind/tooManyStates(limit:)`` description: what to raise. A
    /// command-line tool replaces it with its own flag.
    public static let maxStatesAdvice = "raise Limits.maxStates to allow more"
    /// The end of a ``Kind/tableTooLarge(limit:)`` description.
    public static let maxTableBytesAdvice = "raise Limits.maxTableBytes to allow more"

    public var description: String {
        switch kind {
        case .tooManyStates(let limit):
            return "the automaton needs more than \(limit) states; \(Self.maxStatesAdvice)"
        case .tableTooLarge(let limit):
            return "the transition table needs more than \(limit) bytes; \(Self.maxTableBytesAdvice)"
        case .notAnAutomaton:
            return "the data is not a saved Turnstile automaton (wrong magic bytes)"
        case .unsupportedVersion(let found, let supported):
            return "the saved automaton has format version \(found), but this build reads version \(supported)"
        case .truncated(let needed, let available):
            return "the saved automaton is truncated: needed \(needed) bytes, found \(available)"
        case .corrupt(let why):
            return "the saved automaton is corrupt: \(why)"
        case .checksumMismatch(let stored, let computed):
            return "the saved automaton is damaged: its CRC-32C is \(hex(computed)), but \(hex(stored)) was saved with it"
        case .invalidBuild(let why):
            return "invalid automaton build: \(why)"
        }
    }
}

private func hex(_ value: UInt32) -> String {
    let digits = String(value, radix: 16)
    return "0x" + String(repeating: "0", count: 8 - digits.count) + digits
}
