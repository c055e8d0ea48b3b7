import NIOCore
import SpamdProtocol

// One line per request on the server's log (standard error, which systemd's journal
// takes), each stamped as spamd stamps its lines on standard error (local time,
// milliseconds, pid). A judged message's line is spamd's `result:` line, so what reads
// spamd's log (a grep for `result: Y`, a log summary counting `mid=`) reads ours:
//   Dec  2 15:55:05.997 [4711] info: turnstile serve: result: Y  6 - prize,winner scantime=0.0,
//     size=42,user=alice,uid=0,required_score=5.0,rhost=127.0.0.1,raddr=127.0.0.1,rport=46538,
//     mid=<a1@example.org>,method=CHECK,list_score=1.12/0.90,autolearn=no autolearn_force=no
// (one line), scores on SpamAssassin's 5.0 scale as X-Spam-Status, the list's own in
// list_score as in X-Spam-Turnstile. spamd's `uid=` is its own uid; a Unix-socket peer's
// is `peer_uid=`, and its rhost, raddr and rport are spamd's (localhost, 127.0.0.1, the
// socket's path). Other requests keep a sentence:
//   … info: turnstile serve: TELL learned as spam for alice from unix socket uid 1000 (alice) in 2.1 ms, 812 bytes
//   … info: turnstile serve: refused (Bad header line: (EOF during headers)) for (unknown) from 127.0.0.1:46540 in 0.1 ms, 0 bytes

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

    /// spamd's `rhost=…,raddr=…,rport=…` for a peer at `address` that reached the
    /// server's `local` address (a Unix socket's path is its rport, as in spamd).
    static func peerFields(_ address: SocketAddress?, local: SocketAddress?) -> String {
        switch address {
        case .v4, .v6:
            let ip = address?.ipAddress ?? "?"
            return "rhost=\(ip),raddr=\(ip),rport=\(address?.port ?? 0)"
        default:
            return "rhost=localhost,raddr=127.0.0.1,rport=\(local?.pathname ?? "unix")"
        }
    }

    /// spamd's line prefix on standard error: `Dec  2 15:55:05.997 [4711] info: `.
    static func stamp() -> String { "\(logTimestamp()) [\(currentProcessID())] info: " }

    /// Microseconds since `started`.
    private static func elapsed(since started: ContinuousClock.Instant) -> Int64 {
        Int64((ContinuousClock.now - started) / .microseconds(1))
    }

    /// `what` was done for `user` (spamc -u) from `peer`, `started` ago, on `bytes` bytes.
    func request(_ what: String, user: String?, peer: String, started: ContinuousClock.Instant, bytes: Int) {
        let micros = Self.elapsed(since: started)
        let time = micros < 1_000_000 ? "\(micros / 1000).\(micros % 1000 / 100) ms" : "\(micros / 1_000_000).\(micros % 1_000_000 / 100_000) s"
        write(Self.stamp() + "turnstile serve: \(what) for \(user ?? "(unknown)") from \(peer) in \(time), \(bytes) bytes")
    }

    /// spamd's `result:` line for a judged request (`peerFields`: ``peerFields(_:local:)``;
    /// `peerUID`: a Unix-socket peer's uid).
    func result(_ method: SpamdMethod, _ verdict: SpamdVerdict, user: String?, peerFields: String, peerUID: UInt32?,
                started: ContinuousClock.Instant, bytes: Int) {
        let tenths = (Self.elapsed(since: started) + 50_000) / 100_000
        var fields = ["scantime=\(tenths / 10).\(tenths % 10)", "size=\(bytes)", "user=\(user ?? "(unknown)")", "uid=\(realUserID())",
                      "required_score=\(verdict.requiredText)", peerFields]
        if let peerUID { fields.append("peer_uid=\(peerUID)") }
        fields += ["mid=\(verdict.messageID)", "method=\(method.rawValue)", "list_score=\(verdict.listScoreText)", "autolearn=no autolearn_force=no"]
        write(Self.stamp() + "turnstile serve: result: \(verdict.resultWords) " + fields.joined(separator: ","))
    }
}
