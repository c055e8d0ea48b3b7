// The one error type of the PCRE2 oracle.

internal import CPCRE2

/// An error from compiling or running a pattern with PCRE2.
///
/// ```swift
/// do { _ = try PCRE2Regex(pattern: "a(") }
/// catch { print(error) }
/// // PCRE2 compile error at offset 2 in /a(/: missing closing parenthesis
/// ```
public struct PCRE2Error: Error, Sendable, Equatable, CustomStringConvertible {
    /// What went wrong.
    public enum Kind: Sendable, Equatable {
        /// `pcre2_compile` rejected the pattern; `offset` is the byte offset in the
        /// pattern where PCRE2 detected the error, as PCRE2 reports it.
        case compile(message: String, offset: Int)
        /// `pcre2_match` returned a negative code other than "no match": for example
        /// invalid UTF-8 in the haystack (UTF mode), a start offset inside a scalar,
        /// or a resource limit.
        case match(code: Int32, message: String)
        /// `pcre2_jit_compile` failed (for example JIT support is not built in).
        case jit(code: Int32, message: String)
    }

    /// What went wrong.
    public var kind: Kind
    /// The pattern involved, as bytes.
    public var pattern: [UInt8]

    /// Creates an error of `kind` for `pattern`.
    public init(kind: Kind, pattern: [UInt8]) {
        self.kind = kind
        self.pattern = pattern
    }

    /// A sentence naming the failure, PCRE2's own message and the pattern.
    public var description: String {
        let shown = String(decoding: pattern, as: UTF8.self)
        switch kind {
        case let .compile(message, offset):
            return "PCRE2 compile error at offset \(offset) in /\(shown)/: \(message)"
        case let .match(code, message):
            return "PCRE2 match error \(code) for /\(shown)/: \(message)"
        case let .jit(code, message):
            return "PCRE2 JIT compile error \(code) for /\(shown)/: \(message)"
        }
    }

    /// PCRE2's text for an error code (`pcre2_get_error_message`).
    static func message(for code: Int32) -> String {
        var buffer = [UInt8](repeating: 0, count: 256)
        let length = buffer.withUnsafeMutableBufferPointer { buf in
            // SAFETY: the buffer holds buf.count bytes; PCRE2 writes at most that many
            // including the terminating zero and returns the length without it.
            pcre2_get_error_message_8(code, buf.baseAddress, buf.count)
        }
        guard length >= 0 else { return "unknown PCRE2 error \(code)" }
        return String(decoding: buffer.prefix(Int(length)), as: UTF8.self)
    }
}
