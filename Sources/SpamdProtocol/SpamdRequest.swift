// What a spamc request asks: the method and protocol version of its first line
// (`CHECK SPAMC/1.5`) and the request headers spamd reads (`Content-length`, `User`,
// `Message-class`, `Set`, `Remove`, `Compress`); other headers are ignored, as spamd
// ignores them.

/// A spamc method: the first word of the request line.
public enum SpamdMethod: String, Sendable, CaseIterable {
    /// Only the verdict: `Spam: True ; S / T`.
    case check = "CHECK"
    /// The verdict and the names of the rules that fired, comma-separated.
    case symbols = "SYMBOLS"
    /// The verdict and a report of the rules that fired.
    case report = "REPORT"
    /// The verdict (`Yes`/`No`) and the report only when the message is spam.
    case reportIfSpam = "REPORT_IFSPAM"
    /// The verdict and the whole message with its `X-Spam-*` fields.
    case process = "PROCESS"
    /// The verdict and the message's header section with its `X-Spam-*` fields.
    case headers = "HEADERS"
    /// `SPAMD/1.5 0 PONG`: is the server alive.
    case ping = "PING"
    /// spamc found the message too big to send: no answer.
    case skip = "SKIP"
    /// Learn (or forget) the message as spam or ham.
    case tell = "TELL"

    /// The methods that carry a message to judge.
    public var judges: Bool { ![.ping, .skip, .tell].contains(self) }

    /// Whether the request has a header section after its first line: spamd reads
    /// one for protocol versions above 1.0 (TELL always; PING and SKIP from 1.5).
    func hasHeaders(version: Double) -> Bool {
        switch self {
        case .tell: true
        case .ping, .skip: version >= 1.5
        default: version > 1.0
        }
    }
}

/// Where a TELL applies (`Set: local, remote`, `Remove: local`).
public struct SpamdTellTargets: OptionSet, Sendable, Hashable {
    public let rawValue: Int
    public init(rawValue: Int) { self.rawValue = rawValue }
    /// The local database (`turnstile serve --db`).
    public static let local = SpamdTellTargets(rawValue: 1)
    /// A remote reporting service: accepted, never done.
    public static let remote = SpamdTellTargets(rawValue: 2)
}

/// A TELL's `Message-class`.
public enum SpamdMessageClass: String, Sendable, Hashable {
    case spam, ham
}

/// A parsed request line and header section.
public struct SpamdRequestHead: Sendable, Hashable {
    public var method: SpamdMethod
    /// The version after `SPAMC/` as spamd reads it (a number; 0 when there is none).
    public var version: Double
    /// `Content-length`: the message's bytes; nil when absent (the message runs to
    /// the end of the connection's input).
    public var contentLength: Int?
    /// `User`, when given.
    public var user: String?
    /// `Message-class` (TELL).
    public var messageClass: SpamdMessageClass?
    /// `Set` (TELL).
    public var set: SpamdTellTargets = []
    /// `Remove` (TELL).
    public var remove: SpamdTellTargets = []

    public init(method: SpamdMethod, version: Double) {
        self.method = method
        self.version = version
    }
}
