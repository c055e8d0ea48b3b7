// The status codes spamd answers with: the BSD sysexits values (sysexits.h), written
// as `SPAMD/1.x CODE NAME` or `SPAMD/1.0 CODE message`. spamc turns a non-zero code
// into its own exit status (and, by default, passes the message through unchanged).

/// A spamd status code, as spamd's `%resphash` lists them.
///
/// ```swift
/// SpamdStatusCode.protocolError.rawValue   // 76
/// SpamdStatusCode.protocolError.name       // "EX_PROTOCOL"
/// ```
public enum SpamdStatusCode: Int, Sendable, CaseIterable {
    case ok = 0
    case usage = 64
    case dataError = 65
    case noInput = 66
    case noUser = 67
    case noHost = 68
    case unavailable = 69
    case software = 70
    case osError = 71
    case osFile = 72
    case cantCreate = 73
    case ioError = 74
    case tempFail = 75
    case protocolError = 76
    case noPermission = 77
    case config = 78
    case timeout = 79

    /// The symbolic name spamd writes after the code (`EX_OK`, `EX_PROTOCOL`, …).
    public var name: String {
        switch self {
        case .ok: "EX_OK"
        case .usage: "EX_USAGE"
        case .dataError: "EX_DATAERR"
        case .noInput: "EX_NOINPUT"
        case .noUser: "EX_NOUSER"
        case .noHost: "EX_NOHOST"
        case .unavailable: "EX_UNAVAILABLE"
        case .software: "EX_SOFTWARE"
        case .osError: "EX_OSERR"
        case .osFile: "EX_OSFILE"
        case .cantCreate: "EX_CANTCREAT"
        case .ioError: "EX_IOERR"
        case .tempFail: "EX_TEMPFAIL"
        case .protocolError: "EX_PROTOCOL"
        case .noPermission: "EX_NOPERM"
        case .config: "EX_CONFIG"
        case .timeout: "EX_TIMEOUT"
        }
    }
}
