// Where `turnstile serve` listens: `HOST:PORT` (an IPv4 or IPv6 address, `[::1]:783`,
// or `localhost`) or `unix:/path`. Nothing is resolved through DNS: a server address is
// written as an address.

/// A `--listen` value.
///
/// ```swift
/// try ListenAddress(parsing: "127.0.0.1:783")   // .tcp(host: "127.0.0.1", port: 783)
/// try ListenAddress(parsing: "[::1]:0")         // .tcp(host: "::1", port: 0)
/// try ListenAddress(parsing: "unix:/run/spamd.sock")
/// ```
public enum ListenAddress: Sendable, Hashable, CustomStringConvertible {
    case tcp(host: String, port: Int)
    case unix(path: String)

    /// The default: spamd's port on the IPv4 loopback address.
    public static let standard = ListenAddress.tcp(host: "127.0.0.1", port: 783)

    public struct ParseError: Error, Sendable, CustomStringConvertible {
        public var description: String
    }

    public init(parsing text: String) throws(ParseError) {
        if text.hasPrefix("unix:") {
            let path = String(text.dropFirst(5))
            guard !path.isEmpty else { throw ParseError(description: "--listen unix: needs a path, as unix:/run/turnstile.sock") }
            self = .unix(path: path)
            return
        }
        var host: Substring, portText: Substring
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]"), text[text.index(after: close)...].hasPrefix(":") else {
                throw ParseError(description: "--listen \(text): write an IPv6 address as [ADDRESS]:PORT")
            }
            host = text[text.index(after: text.startIndex)..<close]
            portText = text[text.index(close, offsetBy: 2)...]
        } else {
            guard let colon = text.lastIndex(of: ":") else {
                throw ParseError(description: "--listen \(text): expected HOST:PORT or unix:/path")
            }
            host = text[..<colon]
            portText = text[text.index(after: colon)...]
        }
        guard let port = Int(portText), (0...65535).contains(port) else {
            throw ParseError(description: "--listen \(text): the port must be a number from 0 to 65535")
        }
        if host == "localhost" { host = "127.0.0.1" }
        guard IPNetwork.addressBytes(String(host)) != nil else {
            throw ParseError(description: "--listen \(text): \(host) is not an IP address")
        }
        self = .tcp(host: String(host), port: port)
    }

    public var description: String {
        switch self {
        case .tcp(let host, let port): host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)"
        case .unix(let path): "unix:\(path)"
        }
    }
}
