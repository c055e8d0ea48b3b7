// The one-line answers spamd gives instead of a verdict, word for word
// (spamd's protocol_error, service_unavailable_error and service_timeout): the
// connection is closed after the line, and the server goes on serving.

/// A request spamd refuses, with the line it answers.
///
/// ```swift
/// let error = SpamdError.protocolError("(EOF during headers)")
/// String(decoding: error.response, as: UTF8.self)
/// // "SPAMD/1.0 76 Bad header line: (EOF during headers)\r\n"
/// ```
public struct SpamdError: Error, Sendable, Hashable, CustomStringConvertible {
    public var code: SpamdStatusCode
    /// The text after the code: `Bad header line: …`, `Service Unavailable: …`, `Timeout: …`.
    public var message: String

    public init(code: SpamdStatusCode, message: String) {
        self.code = code
        self.message = message
    }

    /// EX_PROTOCOL: a request line or header spamd cannot read.
    public static func protocolError(_ detail: String) -> SpamdError {
        SpamdError(code: .protocolError, message: "Bad header line: " + detail)
    }

    /// EX_UNAVAILABLE: a request the server will not serve (TELL without a database).
    public static func unavailable(_ detail: String) -> SpamdError {
        SpamdError(code: .unavailable, message: "Service Unavailable: " + detail)
    }

    /// EX_TIMEOUT: the request did not arrive within the read timeout.
    public static func timeout(seconds: Int) -> SpamdError {
        SpamdError(code: .timeout, message: "Timeout: (\(seconds) second socket timeout reading input from client)")
    }

    /// EX_PROTOCOL: the connection's input ended before `Content-length` bytes.
    public static func lengthMismatch(expected: Int, got: Int) -> SpamdError {
        protocolError("(Content-Length mismatch: Expected \(expected) bytes, got \(got) bytes)")
    }

    /// EX_PROTOCOL: a message of `length` bytes is longer than the server takes.
    public static func tooLong(_ length: Int, limit: Int) -> SpamdError {
        protocolError("(Content-Length \(length) over the server's limit of \(limit) bytes)")
    }

    /// `SPAMD/1.0 CODE message\r\n`.
    public var response: [UInt8] { Array("SPAMD/1.0 \(code.rawValue) \(message)\r\n".utf8) }

    public var description: String { "SPAMD/1.0 \(code.rawValue) \(message)" }
}
