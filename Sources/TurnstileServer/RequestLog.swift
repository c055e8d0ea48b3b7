import NIOCore
import SpamdProtocol

// One line per request on the server's log (standard error, which systemd's journal
// takes), as spamd logs one: what was asked, the verdict and score, for whom, from where,
// how long it took and how big the message was —
//   CHECK clean message (0.0/9.5) for alice from 127.0.0.1:46538 in 0.4 ms, 42 bytes
//   TELL learned as spam for alice from unix socket in 2.1 ms, 812 bytes
//   refused (Bad header line: (EOF during headers)) for (unknown) from 127.0.0.1:46540 in 0.1 ms, 0 bytes

/// Writes the request log's lines.
struct RequestLog: Sendable {
    let write: @Sendable (String) -> Void
    /// Whether every request is logged, or only TELLs.
    let everyRequest: Bool

    /// `ip:port` of a TCP peer, `unix socket` for a Unix one.
    static func peer(_ address: SocketAddress?) -> String {
        switch address {
        case .v4, .v6: "\(address?.ipAddress ?? "?"):\(address?.port ?? 0)"
        case .unixDomainSocket: "unix socket"
        case nil: "an unknown address"
        }
    }

    /// `what` was done for `user` (spamc -u) from `peer`, `started` ago, on `bytes` bytes.
    func request(_ what: String, user: String?, peer: String, started: ContinuousClock.Instant, bytes: Int) {
        let micros = (ContinuousClock.now - started) / .microseconds(1)
        let time = micros < 1_000_000 ? "\(Int(micros) / 1000).\(Int(micros) % 1000 / 100) ms" : "\(Int(micros) / 1_000_000).\(Int(micros) % 1_000_000 / 100_000) s"
        write("turnstile serve: \(what) for \(user ?? "(unknown)") from \(peer) in \(time), \(bytes) bytes")
    }

    /// What a judged request answered: `CHECK spam message (12.0/9.5)`.
    static func judged(_ method: SpamdMethod, _ verdict: SpamdVerdict) -> String {
        "\(method.rawValue) \(verdict.isSpam ? "spam" : "clean") message (\(verdict.scoreText))"
    }
}
