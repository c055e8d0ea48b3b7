import NIOCore
import NIOPosix
import SpamdProtocol

// `turnstile serve`: spamd's protocol on SwiftNIO. `threads` event loops accept and
// serve connections and judge on the loop (a judgement is microseconds; there is no
// hand-off). One JudgeStore holds the list for every connection and is swapped on
// SIGHUP or after a TELL. Stopping closes the listening socket first and lets every
// open connection finish its request.

/// A running spamd-compatible server.
///
/// ```swift
/// var configuration = SpamdServer.Configuration()
/// configuration.listen = .tcp(host: "127.0.0.1", port: 0)
/// let server = try SpamdServer.start(configuration, store: JudgeStore(judge))
/// print(server.address)    // 127.0.0.1:PORT
/// server.stop()            // after every in-flight request was answered
/// ```
public final class SpamdServer: Sendable {
    public struct Configuration: Sendable {
        public var listen: ListenAddress = .standard
        /// A listening socket systemd handed over (socket activation); it replaces `listen`.
        public var inheritedSocket: Int32?
        /// Who may connect over TCP (spamd's --allowed-ips; loopback by default).
        public var allowFrom: [IPNetwork] = IPNetwork.loopback
        /// Event-loop threads.
        public var threads: Int = System.coreCount
        public var maxConnections: Int = 1000
        public var limits = SpamdLimits()
        /// TELL's learner; nil: TELL is refused with spamd's answer when it was started
        /// without --allow-tell (EX_UNAVAILABLE, "TELL commands have not been enabled.").
        public var teller: SpamdTeller?
        /// Where a refused connection is reported (one line).
        public var log: @Sendable (String) -> Void = { _ in }
        /// Whether every request is logged (one line on `log`, as spamd logs one); TELL
        /// requests are logged whatever this says.
        public var logRequests = false
        /// Who may TELL, when `teller` is set.
        public var tellPolicy = TellPolicy()
        /// A Unix socket's mode, set as it is created (never wider for a moment); nil:
        /// 0666 less the umask.
        public var socketMode: UInt32?
        /// A Unix socket's owner and group (chown; root only); nil: unchanged.
        public var socketOwner: (uid: UInt32?, gid: UInt32?)?
        /// Per-user lists (`--db-dir`): a request naming a user with a database is
        /// judged with that user's list; nil: every request with `store`'s.
        public var userStores: UserJudgeStores?

        public init() {}
    }

    private let group: MultiThreadedEventLoopGroup
    private let learningPool: NIOThreadPool?
    private let listener: any Channel
    private let connections: ConnectionCount
    /// The address bound, with the port the system chose for port 0.
    public let address: ListenAddress

    private init(group: MultiThreadedEventLoopGroup, learningPool: NIOThreadPool?, listener: any Channel,
                 connections: ConnectionCount, address: ListenAddress) {
        self.group = group
        self.learningPool = learningPool
        self.listener = listener
        self.connections = connections
        self.address = address
    }

    /// Binds and starts serving; returns once the socket listens.
    public static func start(_ configuration: Configuration, store: JudgeStore) throws -> SpamdServer {
        let group = MultiThreadedEventLoopGroup(numberOfThreads: max(1, configuration.threads))
        var learningPool: NIOThreadPool? = nil
        if configuration.teller != nil {
            let pool = NIOThreadPool(numberOfThreads: 1)
            pool.start()
            learningPool = pool
        }
        let connections = ConnectionCount(maximum: max(1, configuration.maxConnections))
        let limits = configuration.limits, teller = configuration.teller, allowed = configuration.allowFrom
        let log = configuration.log
        let requestLog = RequestLog(write: log, everyRequest: configuration.logRequests)
        let tellPolicy = configuration.tellPolicy
        let userStores = configuration.userStores
        let tellLimiter = configuration.tellPolicy.perMinute.map { TellRateLimiter(perMinute: $0) }
        // TCP clients are checked against --allow-from; Unix-socket clients are local
        // (the socket's mode says who may connect).
        let pool = learningPool
        let bootstrap = ServerBootstrap(group: group)
            .serverChannelOption(.backlog, value: 1024)
            .serverChannelOption(.socketOption(.so_reuseaddr), value: 1)
            .serverChannelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(AcceptLimiter(connections: connections))
                }
            }
            .childChannelOption(.allowRemoteHalfClosure, value: true)
            // TCP_NODELAY is an IPPROTO_TCP option: at SOL_SOCKET its number (1) is
            // SO_DEBUG, which needs CAP_NET_ADMIN, and every connection of a server not
            // run as root was closed at once (issue 46).
            .childChannelOption(.tcpOption(.tcp_nodelay), value: 1)
            .childChannelInitializer { channel in
                if let remote = channel.remoteAddress, remote.protocol != .unix {
                    let peer = Self.addressBytes(remote)
                    guard let peer, allowed.contains(where: { $0.contains(peer) }) else {
                        let from = channel.remoteAddress.map { "\($0.ipAddress ?? "?") port \($0.port ?? 0)" } ?? "an unknown address"
                        log("turnstile serve: refused a connection from \(from) (not in --allow-from)")
                        return channel.close()
                    }
                }
                return channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(BackPressureHandler())
                    try channel.pipeline.syncOperations.addHandler(
                        SpamdConnectionHandler(store: store, userStores: userStores, limits: limits, teller: teller, learningPool: pool, log: requestLog,
                                               tellPolicy: tellPolicy, tellLimiter: tellLimiter, connections: connections))
                }
            }
        let listener: any Channel
        do {
            switch configuration.listen {
            case _ where configuration.inheritedSocket != nil:
                listener = try bootstrap.withBoundSocket(configuration.inheritedSocket!).wait()
            case .tcp(let host, let port):
                listener = try bootstrap.bind(host: host, port: port).wait()
            case .unix(let path):
                // A socket another server answers on is refused (a second instance used
                // to take it over silently); one nobody answers on is stale and replaced.
                if unixSocketAnswers(path) { throw SpamdServerError(description: "another server answers on unix:\(path); stop it first", isTemporary: true) }
                let old = configuration.socketMode.map { setUmask(0o777 & ~$0) }
                defer { if let old { _ = setUmask(old) } }
                listener = try bootstrap.bind(unixDomainSocketPath: path, cleanupExistingSocketFile: true).wait()
                if let mode = configuration.socketMode, !changeMode(path, mode) {
                    throw SpamdServerError(description: "cannot set the mode of \(path): \(errnoText())")
                }
                if let owner = configuration.socketOwner, !changeOwner(path, uid: owner.uid, gid: owner.gid) {
                    throw SpamdServerError(description: "cannot change the owner of \(path): \(errnoText())")
                }
            }
        } catch {
            try? group.syncShutdownGracefully()
            try? learningPool?.syncShutdownGracefully()
            if let error = error as? IOError { throw SpamdServerError(listening: error) }
            throw error
        }
        var address = configuration.listen
        if configuration.inheritedSocket != nil {
            switch listener.localAddress {
            case .some(.unixDomainSocket): address = .unix(path: listener.localAddress?.pathname ?? "?")
            case .some(let local): address = .tcp(host: local.ipAddress ?? "?", port: local.port ?? 0)
            case nil: break
            }
        } else if case .tcp(let host, _) = address, let port = listener.localAddress?.port {
            address = .tcp(host: host, port: port)
        }
        return SpamdServer(group: group, learningPool: learningPool, listener: listener, connections: connections, address: address)
    }

    /// Connections open now.
    public var openConnections: Int { connections.open }

    /// Blocks until the listening socket is closed (by ``stop(grace:)``).
    public func waitUntilClosed() {
        try? listener.closeFuture.wait()
    }

    /// Stops accepting, waits up to `grace` for every open connection to be answered
    /// and closed, then closes the rest and stops the threads. Returns how many
    /// connections were still open after `grace` (an idle client holds none up longer).
    @discardableResult
    public func stop(grace: Duration = .seconds(5)) -> Int {
        try? listener.close().wait()
        let clock = ContinuousClock()
        let deadline = clock.now + grace
        while connections.open > 0, clock.now < deadline {
            try? group.any().scheduleTask(in: .milliseconds(20)) {}.futureResult.wait()
        }
        let cut = connections.open
        connections.stop()
        try? group.syncShutdownGracefully()
        try? learningPool?.syncShutdownGracefully()
        return cut
    }

    /// The 4 or 16 bytes of an IP socket address.
    static func addressBytes(_ address: SocketAddress) -> [UInt8]? {
        switch address {
        case .v4(let a):
            var sin = a.address.sin_addr
            return withUnsafeBytes(of: &sin) { Array($0) }
        case .v6(let a):
            var sin6 = a.address.sin6_addr
            return withUnsafeBytes(of: &sin6) { Array($0) }
        default:
            return nil
        }
    }
}

/// The server could not start as configured.
public struct SpamdServerError: Error, Sendable, CustomStringConvertible {
    /// One sentence, without NIO's call names (`bind(descriptor:ptr:bytes:)`).
    public var description: String
    /// Whether trying again later may succeed: the address is taken by another server
    /// (spamd, or a turnstile still draining), which a switch-over stops in a moment.
    /// A unit restarts the server on this, and not on a configuration error.
    public var isTemporary = false

    init(description: String, isTemporary: Bool = false) {
        self.description = description
        self.isTemporary = isTemporary
    }

    /// A bind or listen that failed, in one sentence.
    init(listening error: IOError) {
        switch error.errnoCode {
        case addressInUseErrno:
            self.init(description: "the address is already in use (is spamd or another server still running?)", isTemporary: true)
        case permissionDeniedErrno:
            self.init(description: "permission denied (a port below 1024 needs root or CAP_NET_BIND_SERVICE; a socket path, a writable folder)")
        case addressNotAvailableErrno:
            self.init(description: "no interface of this machine has that address")
        default:
            self.init(description: errnoText(error.errnoCode).lowercased())
        }
    }
}
