import ArgumentParser
import Dispatch
import Synchronization
import LearningStore
import SpamdProtocol
import Turnstile
import TurnstileServer

/// `turnstile serve`: SpamAssassin's spamd protocol, for spamc, Exim's spamd_address,
/// Postfix through spamc or spamass-milter, and every other spamd client.
struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Judge mail for spamc and other spamd clients (SpamAssassin's spamd protocol).",
        discussion: """
            Answers CHECK, SYMBOLS, REPORT, REPORT_IFSPAM, PROCESS, HEADERS, PING and
            TELL as spamd does, judging each message as 'filter --format eml' does, with
            the built-in mail list unless a rule option is given. PROCESS and HEADERS add
            the X-Spam-Status and X-Spam-Flag fields 'filter --tag' adds. One request per
            connection, as spamd. SIGHUP rereads the rules and swaps them in without
            dropping a connection; SIGTERM stops accepting and finishes the requests
            under way (for at most --drain) and exits 0; SIGINT does the same.
            With --db the list comes from a 'turnstile learn' database; with --allow-tell
            as well, TELL (spamc -L spam|ham|forget) learns into it and swaps the new
            list in (without it TELL is refused, as spamd refuses it). The threshold
            stays the built-in list's (or --threshold) whatever is learned; until the
            database holds both spam and ham the built-in list judges, so an empty
            database (created by --allow-tell when missing) can be filled with
            spamc -L. Without --allow-tell a missing database is an error. With --db-dir
            DIR, a request naming a user (spamc -u alice) is judged with DIR/alice.db's
            list when that file exists (spamd's --virtual-config-dir), and that user's
            TELL learns into DIR/alice.db only (created 0600). Only loopback
            clients are served unless --allow-from names others.

            Examples:
              $ turnstile serve --listen 127.0.0.1:7830 &
              $ spamc -d 127.0.0.1 -p 7830 -c < message.eml
              $ turnstile serve --listen unix:/run/turnstile.sock --rules my-list.tsv
            """)

    @OptionGroup(title: "Rule options") var ruleArguments: RuleArguments
    var rules: RuleOptions { ruleArguments.options }

    @Option(name: .customLong("threshold"),
            help: "A message is spam when its score reaches this (default: the list's own threshold).")
    var threshold: Double?

    @Option(name: .customLong("listen"), help: ArgumentHelp("Where to listen: HOST:PORT or unix:/path.", valueName: "address"))
    var listen = "127.0.0.1:783"

    @Option(name: .customLong("allow-from"),
            help: ArgumentHelp("Serve TCP clients from this network only (repeatable; default: 127.0.0.0/8 and ::1).", valueName: "cidr"))
    var allowFrom: [String] = []

    @Option(name: .customLong("threads"), help: "Threads that serve connections (default: the number of cores).")
    var threads: Int?

    @Option(name: .customLong("max-size"),
            help: "Judge at most this many bytes of a message (PROCESS still returns the whole message).")
    var maxSize = 512_000

    @Option(name: .customLong("max-request-bytes"),
            help: "Refuse a message longer than this many bytes (default: no limit, as spamd; spamc's -s limits what it sends).")
    var maxRequestBytes: Int?

    @Option(name: .customLong("max-connections"), help: "Connections served at once; more wait to be accepted.")
    var maxConnections = 1000

    @Option(name: .customLong("read-timeout"), help: "Seconds a client has to send its whole request.")
    var readTimeout = 30.0

    @Option(name: .customLong("idle-timeout"),
            help: "Seconds a new connection may stay silent before it is closed (at --max-connections the one silent longest is closed at once to make room).")
    var idleTimeout = 5.0

    @Option(name: .customLong("drain"),
            help: ArgumentHelp("On SIGTERM or SIGINT, wait at most this long for requests under way (5s, 500ms, 0).", valueName: "time"))
    var drain = "5s"

    @Option(name: .customLong("max-header-bytes"), help: "The most bytes of a request's line and headers.")
    var maxHeaderBytes = 8192

    @Option(name: .customLong("db"),
            help: ArgumentHelp("Judge with the list a 'turnstile learn' database gives, and learn into it on TELL.", valueName: "path"))
    var db: String?

    @Option(name: .customLong("db-dir"),
            help: ArgumentHelp("One learning database per user: a request of user U (spamc -u U) is judged with DIR/U.db and its TELL learns into it.", valueName: "dir"))
    var dbDir: String?

    @Option(name: .customLong("socket-mode"),
            help: ArgumentHelp("A Unix socket's mode, in octal (default: 0666 less the umask).", valueName: "mode"))
    var socketMode: String?

    @Option(name: .customLong("socket-owner"),
            help: ArgumentHelp("A Unix socket's owner, as chown writes it: USER, USER:GROUP or :GROUP (root only).", valueName: "owner"))
    var socketOwner: String?

    @Option(name: .customLong("user"),
            help: ArgumentHelp("Once listening, run as this user (and its group) instead of root, as spamd's -u.", valueName: "user"))
    var user: String?

    @Option(name: .customLong("group"), help: ArgumentHelp("Once listening, run as this group (with --user: instead of the user's own).", valueName: "group"))
    var group: String?

    @Option(name: .customLong("pidfile"), help: ArgumentHelp("Write the process id to this file once listening; removed on exit.", valueName: "path"))
    var pidfile: String?

    @Option(name: .customLong("headers"),
            help: ArgumentHelp("The fields PROCESS and HEADERS add: spamassassin (spamd's X-Spam-Flag, X-Spam-Level and X-Spam-Status, scores on SpamAssassin's 5.0 scale, and X-Spam-Turnstile with the list's own) or turnstile (filter --tag's).", valueName: "style"))
    var headers = "spamassassin"

    @Flag(name: .customLong("no-request-log"),
          help: "Do not log a line per request on standard error (client, user, verdict, score, time, size).")
    var noRequestLog = false

    @Option(name: .customLong("tell-user"),
            help: ArgumentHelp("With --allow-tell, only this account may TELL: on the Unix socket the sender's own (its uid, whatever spamc -u claims), over TCP the spamc -u of a --tell-from client (repeatable; default: any).", valueName: "user"))
    var tellUsers: [String] = []

    @Option(name: .customLong("tell-from"),
            help: ArgumentHelp("With --allow-tell, TCP clients from this network may TELL, trusted to name the user (repeatable; default: none, as a TCP client's account is unknown; Unix-socket clients are known by their uid).", valueName: "cidr"))
    var tellFrom: [String] = []

    @Option(name: .customLong("tell-rate"),
            help: ArgumentHelp("With --allow-tell, the most TELLs per minute from one sender: one uid on the Unix socket, one address over TCP (0: no limit).", valueName: "count"))
    var tellRate = 60

    @Flag(name: .customLong("allow-tell"),
          help: "Learn from TELL requests (spamc -L) into the --db database; without it TELL is refused, as spamd's --allow-tell.")
    var allowTell = false

    func validate() throws {
        if db != nil, !rules.isEmpty { throw ValidationError("--db gives the rules; it cannot be combined with rule options") }
        if allowTell, db == nil, dbDir == nil { throw ValidationError("--allow-tell needs --db or --db-dir, the database TELL learns into") }
        if maxSize < 1 { throw ValidationError("--max-size must be at least 1") }
        if let maxRequestBytes, maxRequestBytes < 1 { throw ValidationError("--max-request-bytes must be at least 1") }
        if maxConnections < 1 { throw ValidationError("--max-connections must be at least 1") }
        if !(readTimeout > 0) { throw ValidationError("--read-timeout must be more than 0 seconds") }
        if !(idleTimeout > 0) { throw ValidationError("--idle-timeout must be more than 0 seconds") }
        if ServeCommand.duration(drain) == nil {
            throw ValidationError("--drain \(drain): expected a time such as 5s, 500ms or 0")
        }
        if maxHeaderBytes < 64 { throw ValidationError("--max-header-bytes must be at least 64") }
        if let threads, threads < 1 { throw ValidationError("--threads must be at least 1") }
        if (!tellUsers.isEmpty || !tellFrom.isEmpty), !allowTell { throw ValidationError("--tell-user and --tell-from need --allow-tell") }
        if tellRate < 0 { throw ValidationError("--tell-rate must be 0 or more") }
        if SpamdHeaderStyle(rawValue: headers) == nil { throw ValidationError("--headers \(headers): expected spamassassin or turnstile") }
        if let socketMode, UInt32(socketMode, radix: 8).map({ $0 > 0o777 }) ?? true {
            throw ValidationError("--socket-mode \(socketMode): expected an octal mode such as 0660")
        }
        if (socketMode != nil || socketOwner != nil), !listen.hasPrefix("unix:") {
            throw ValidationError("--socket-mode and --socket-owner need --listen unix:/path")
        }
    }

    func run() throws {
        // TERM, INT and HUP are handled from the start, before the rules are read and
        // the socket opened: a signal at any moment stops the server with exit 0 (issue
        // 46: INT sent as the port opened killed it). Before the server runs there is
        // nothing to finish, so a stop then exits at once.
        // Every line the server logs goes through one writer thread: a standard error
        // nobody reads drops lines, and never stalls a request (issue 54).
        let log = ServerLog()
        let lifecycle = ServeLifecycle(log: log)
        let watcher: ServerSignals
        do {
            watcher = try ServerSignals.watch([SIGHUP, SIGTERM, SIGINT]) { signal in
                if signal == SIGHUP { lifecycle.reload() } else { lifecycle.stop() }
            }
        } catch {
            throw CommandFailure("\(error)")
        }
        var configuration = SpamdServer.Configuration()
        do { configuration.listen = try ListenAddress(parsing: listen) } catch { throw CommandFailure(error.description) }
        // As spamd's --allowed-ips: the networks given replace the loopback default.
        var networks = allowFrom.isEmpty ? IPNetwork.loopback : []
        for text in allowFrom {
            do { networks.append(try IPNetwork(parsing: text)) } catch { throw CommandFailure(error.description) }
        }
        configuration.allowFrom = networks
        var tellNetworks: [IPNetwork]? = tellFrom.isEmpty ? nil : []
        for text in tellFrom {
            do { tellNetworks?.append(try IPNetwork(parsing: text)) } catch {
                throw CommandFailure(error.description.replacingAll("--allow-from", with: "--tell-from"))
            }
        }
        configuration.tellPolicy = TellPolicy(users: tellUsers.isEmpty ? nil : Set(tellUsers), networks: tellNetworks,
                                              perMinute: tellRate == 0 ? nil : tellRate)
        if let threads { configuration.threads = threads }
        configuration.maxConnections = maxConnections
        configuration.limits = SpamdLimits(maxMessageBytes: maxSize, maxRequestBytes: maxRequestBytes, maxHeaderBytes: maxHeaderBytes,
                                           readTimeout: .nanoseconds(Int64(readTimeout * 1e9)),
                                           idleTimeout: .nanoseconds(Int64(min(idleTimeout, 1e6) * 1e9)))
        configuration.log = { log.write($0) }
        configuration.logRequests = !noRequestLog
        // Started by a .socket unit: systemd's socket replaces --listen.
        configuration.inheritedSocket = SystemdActivation.listeningSocket()
        configuration.socketMode = socketMode.flatMap { UInt32($0, radix: 8) }
        // Users and groups are looked up before anything starts: a name that does not
        // exist is a configuration error, not a server running as root.
        var runAs: ServerIdentity? = nil
        do {
            if let socketOwner {
                let owner = try ServerIdentity(owner: socketOwner)
                configuration.socketOwner = (owner.uid, owner.gid)
            }
            if user != nil || group != nil { runAs = try ServerIdentity(user: user, group: group) }
        } catch {
            throw CommandFailure(error.description, status: 75)
        }
        if (runAs != nil || socketOwner != nil), !ServerIdentity.isRoot {
            throw CommandFailure("--user, --group and --socket-owner need the server started as root", status: 75)
        }
        if let pidfile, runAs != nil {
            // Started now, before any socket is open, so that it holds none.
            do { try PidFile.removeAtExit(pidfile) } catch { throw CommandFailure(error.description, status: 75) }
        }
        if let db, allowTell {
            // TELL learns, so a database that is not there yet is created (empty: the
            // built-in list judges until it holds spam and ham); without --allow-tell a
            // missing database is an error, never an empty list. Created by root for
            // --user, it is given to that user, who learns into it.
            var status = stat()
            let isNew = stat(db, &status) != 0
            do { _ = try LearningDatabase(path: db) } catch { throw CommandFailure(error.description) }
            if isNew, let runAs {
                do { try runAs.own(db) } catch { throw CommandFailure(error.description, status: 75) }
            }
        }
        // Rules that cannot be read or built are a configuration error: exit 75, as
        // filter's in a recipe (issue 46), so a unit with RestartPreventExitStatus=75
        // does not restart it in a loop.
        let store: JudgeStore
        do { store = JudgeStore(try makeJudge()) } catch let failure as CommandFailure {
            throw CommandFailure(failure.message, status: 75)
        }
        let userStores = dbDir.map { directory in
            let threshold = self.threshold, style = headerStyle
            return UserJudgeStores(directory: directory) { path in
                var status = stat()
                guard stat(path, &status) == 0 else { return nil }
                return SpamdMessageJudge(judge: try MailJudge(rules: try learnedRuleSet(path), threshold: threshold), style: style)
            }
        }
        configuration.userStores = userStores
        if let dbDir {
            var status = stat()
            guard stat(dbDir, &status) == 0, (status.st_mode & S_IFMT) == S_IFDIR else {
                throw CommandFailure("\(dbDir): no such folder (--db-dir)", status: 75)
            }
        }
        if allowTell, db != nil || dbDir != nil {
            // TELL learns on the server's one learning thread, then swaps the new list in.
            let threshold = self.threshold, style = headerStyle
            configuration.teller = { head, message in
                // With --db-dir, a TELL naming a user learns into that user's file.
                let userPath = head.user.flatMap { userStores?.path(for: $0) }
                guard let db = userPath ?? db else {
                    throw CommandFailure("TELL without a user (spamc -u) and no --db to learn into")
                }
                let database = try LearningDatabase(path: db)
                var did: (didSet: SpamdTellTargets, didRemove: SpamdTellTargets) = ([], [])
                if head.remove.contains(.local), try database.forget(message) { did.didRemove.insert(.local) }
                if head.set.contains(.local), let kind = head.messageClass {
                    if try database.learn(message, as: kind == .spam ? .spam : .ham) != .unchanged { did.didSet.insert(.local) }
                }
                if !did.didSet.isEmpty || !did.didRemove.isEmpty {
                    let set = try learnedRuleSet(db)
                    let judge = SpamdMessageJudge(judge: try MailJudge(rules: set, threshold: threshold), style: style)
                    if let user = head.user, userPath != nil { userStores?.replace(judge, for: user) } else { store.replace(judge) }
                }
                return did
            }
        }
        let server: SpamdServer
        do { server = try SpamdServer.start(configuration, store: store) } catch let error as SpamdServerError {
            // A port another server holds may be free in a moment (a switch-over from
            // spamd): exit 69, which the unit restarts on; anything else is the
            // configuration's, exit 75, which it does not (RestartPreventExitStatus).
            throw CommandFailure("cannot listen on \(configuration.listen): \(error)", status: error.isTemporary ? 69 : 75)
        } catch {
            throw CommandFailure("cannot listen on \(configuration.listen): \(error)", status: 75)
        }
        // The pid file is written while still root (its folder, /run, is root's) and
        // given to the user the server becomes, then root is dropped: the socket is
        // bound, so the server needs it no more.
        let pid: PidFile?
        do {
            pid = try pidfile.map { path throws(ServerIdentityError) in try PidFile(path: path) }
            if let runAs {
                if let pid { try runAs.own(pid.path) }
                try runAs.become()
                if let db { try checkWritable(db) }
            }
        } catch {
            server.stop(grace: .zero)
            throw CommandFailure("\(error)", status: 75)
        }
        defer { pid?.remove() }
        let makeJudge = self.makeJudge
        lifecycle.serve(server, grace: ServeCommand.duration(drain) ?? .seconds(5)) {
            do {
                store.replace(try makeJudge())
                userStores?.reload()
                log.write("turnstile serve: rules reloaded", dropWhenFull: false)
            } catch {
                log.write("turnstile serve: rules not reloaded, the old ones stay: \((error as? CommandFailure)?.message ?? String(describing: error))", dropWhenFull: false)
            }
        }
        // Said once TERM, INT and HUP are handled and the socket listens: a client (or
        // test, or systemd with Type=notify) that waits for it may connect or signal at once.
        log.write("turnstile serve: ready, listening on \(server.address)", dropWhenFull: false)
        SystemdNotify.send("READY=1\nSTATUS=listening on \(server.address)")
        server.waitUntilClosed()
        lifecycle.waitUntilStopped()
        _ = log.flush(within: .seconds(2))
        _ = watcher
    }

    /// The signals `run` handles, held pending until it does (from `main`).
    static func holdSignals() {
        ServerSignals.hold([SIGHUP, SIGTERM, SIGINT])
    }

    /// After dropping root: the learning database must still be readable (and, with
    /// --allow-tell, writable) by the user the server now runs as.
    private func checkWritable(_ path: String) throws(ServerIdentityError) {
        do { _ = try LearningDatabase(path: path).messageCounts() } catch {
            throw ServerIdentityError(description: "\(path): not usable as \(user ?? "the new user"): \(error)")
        }
    }

    /// `5s`, `500ms`, `2m` or a number of seconds (`0`, `1.5`).
    static func duration(_ text: String) -> Duration? {
        var number = Substring(text), scale = 1.0
        for (suffix, factor) in [("ms", 0.001), ("s", 1.0), ("m", 60.0)] where number.hasSuffix(suffix) {
            number = number.dropLast(suffix.count)
            scale = factor
            break
        }
        guard let value = Double(number), value >= 0, value.isFinite else { return nil }
        return .nanoseconds(Int64(value * scale * 1e9))
    }

    /// The fields PROCESS and HEADERS add (validated).
    var headerStyle: SpamdHeaderStyle { SpamdHeaderStyle(rawValue: headers) ?? .spamassassin }

    /// The judge for the rules the options name.
    func makeJudge() throws -> SpamdMessageJudge {
        try rules.withRuleSet(try db.map(learnedRuleSet), fallback: .standardMail) { set in
            SpamdMessageJudge(judge: try MailJudge(rules: set, threshold: threshold), style: headerStyle)
        }
    }
}

/// What `serve` does on a signal at each stage: before the server runs, TERM and INT
/// exit 0 at once (there is nothing to finish) and HUP is ignored (the rules are about
/// to be read anyway); while it runs, TERM and INT close the listening socket and let
/// the requests under way finish for at most the drain time, HUP rereads the rules; a
/// second TERM or INT while draining exits 0 at once.
final class ServeLifecycle: Sendable {
    private struct State {
        var server: SpamdServer?
        var grace: Duration = .seconds(5)
        var reload: (@Sendable () -> Void)?
        var stopping = false
    }

    private let state = Mutex(State())
    private let log: ServerLog

    init(log: ServerLog) { self.log = log }
    /// Runs the stop, so that `run` can wait for it to finish the open connections once
    /// the listener has closed.
    private let stopping = DispatchQueue(label: "turnstile.serve.stopping")

    /// The server is running; `reload` runs on SIGHUP.
    func serve(_ server: SpamdServer, grace: Duration, reload: @escaping @Sendable () -> Void) {
        let stopNow = state.withLock { state in
            state.server = server
            state.grace = grace
            state.reload = reload
            return state.stopping
        }
        if stopNow { stopServer(server, grace: grace) }
    }

    func reload() {
        state.withLock { $0.reload }?()
    }

    func stop() {
        let (server, grace, again) = state.withLock { state in
            defer { state.stopping = true }
            return (state.server, state.grace, state.stopping)
        }
        guard let server, !again else {
            // Nothing runs yet, or a second signal during the drain: nothing to wait for.
            log.write(again ? "turnstile serve: stopped at once (second signal)" : "turnstile serve: stopped before serving", dropWhenFull: false)
            _ = log.flush(within: .milliseconds(500))
            terminate(0)
        }
        stopServer(server, grace: grace)
    }

    private func stopServer(_ server: SpamdServer, grace: Duration) {
        let log = self.log
        stopping.async {
            SystemdNotify.send("STOPPING=1")
            log.write("turnstile serve: stopping; finishing the requests under way (at most \(grace))", dropWhenFull: false)
            let cut = server.stop(grace: grace)
            if cut > 0 { log.write("turnstile serve: closed \(cut) connection\(cut == 1 ? "" : "s") still open after the drain", dropWhenFull: false) }
        }
    }

    /// Blocks until a stop that started has finished.
    func waitUntilStopped() {
        stopping.sync {}
    }
}
