import Foundation
import Testing
import TestSupport

/// `turnstile serve` against the real `spamc` (Debian's spamc, installed by `make deps`)
/// and a Python client for the protocol's edges (Scripts/spamd-edge-client.py).
@Suite("turnstile serve", .serialized)
struct ServeTests {
    static let spamc = "/usr/bin/spamc"

    /// The messages of an mbox, each as the bytes an .eml file of it holds.
    static func messages(ofMbox bytes: [UInt8], limit: Int) -> [[UInt8]] {
        var starts: [Int] = []
        var i = 0
        while i < bytes.count, starts.count <= limit {
            if (i == 0 || bytes[i - 1] == 0x0A), bytes[i...].starts(with: Array("From ".utf8)) { starts.append(i) }
            guard let next = bytes[i...].firstIndex(of: 0x0A) else { break }
            i = next + 1
        }
        starts.append(bytes.count)
        return (0..<min(limit, starts.count - 1)).map { Array(bytes[starts[$0]..<starts[$0 + 1]]) }
    }

    /// The sample mail, and the first 40 messages of each shared SpamAssassin mbox when present.
    static func sampleMessages() throws -> [[UInt8]] {
        let sample = try [UInt8](Data(contentsOf: SharedCorpora.ownCorpora.appendingPathComponent("mail/sample.mbox")))
        var all = messages(ofMbox: sample, limit: 1000)
        for name in ["spamassassin/spam.mbox", "spamassassin/ham.mbox"] {
            if let bytes = SharedCorpora.bytes(name) { all += messages(ofMbox: bytes, limit: 40) }
        }
        return all
    }

    @Test("spamc's verdicts and PROCESS output equal filter --format eml and --tag on every message")
    func spamcMatchesFilter() throws {
        let messages = try Self.sampleMessages()
        #expect(messages.count >= 5)
        if !SharedCorpora.isAvailable { print(SharedCorpora.skipMessage + " (sample mail only)") }
        let dir = try CLI.temporaryDirectory()
        var paths: [String] = []
        for (k, m) in messages.enumerated() { paths.append(try CLI.write(m, to: String(format: "m%04d.eml", k), in: dir)) }
        // filter, once over every file: one verdict per file, and the tagged messages in order.
        let json = try CLI.run(["filter", "--format", "eml", "--json"] + paths)
        var verdicts: [String: Bool] = [:]
        for line in json.out.split(separator: "\n") {
            let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as! [String: Any]
            verdicts[object["file"] as! String] = object["spam"] as? Bool
        }
        #expect(verdicts.count == paths.count)
        let tagged = try CLI.run(["filter", "--format", "eml", "--tag"] + paths)
        #expect(tagged.status == 0)
        // --headers turnstile: filter --tag's fields (the default is spamd's set).
        let server = try ServerProcess(["--headers", "turnstile"])
        defer { server.stop() }
        var spam = 0
        var processed: [UInt8] = []
        for (k, path) in paths.enumerated() {
            let isSpam = try #require(verdicts[path] as Bool?)
            if isSpam { spam += 1 }
            let check = try runTool(Self.spamc, ["-d", "127.0.0.1", "-p", "\(server.port)", "-c"], stdin: messages[k])
            // spamc prints 0/0 and exits 0 when it could not reach the server.
            #expect(check.out != "0/0\n", "message \(k): spamc got no answer")
            #expect(check.status == (isSpam ? 1 : 0), "message \(k): spamc -c \(check.out) exit \(check.status), filter spam \(isSpam)")
            let process = try runTool(Self.spamc, ["-d", "127.0.0.1", "-p", "\(server.port)"], stdin: messages[k])
            #expect(process.status == 0)
            processed += process.stdout
        }
        // spamc's PROCESS output, message after message, is filter --tag's output.
        #expect(processed == tagged.stdout, "spamc's PROCESS output differs from filter --tag")
        // Both kinds were seen, so the comparison is not one-sided.
        #expect(spam > 0 && spam < messages.count)
    }

    @Test("SYMBOLS, REPORT, HEADERS, PING and a Unix socket through spamc, as root and as an unprivileged user",
          .enabled(if: Unprivileged.unavailable == nil, "\(Unprivileged.unavailable ?? "")"),
          arguments: [false, true])
    func otherMethods(unprivileged: Bool) throws {
        let dir = try Unprivileged.directory()
        let socketPath = dir.appendingPathComponent("spamd.sock").path
        let server = try ServerProcess(["-F", "-i", "-e", "subject:winner", "-e", "prize", "--threshold", "2"], listen: "unix:" + socketPath,
                                       unprivileged: unprivileged)
        defer { server.stop() }
        let message = Array("Subject: WINNER\r\nFrom: a@example.org\r\n\r\nclaim your prize\r\n".utf8)
        let symbols = try runTool(Self.spamc, ["-U", socketPath, "-y"], stdin: message)
        #expect(symbols.out == "prize,subject:winner")
        let check = try runTool(Self.spamc, ["-U", socketPath, "-c"], stdin: message)
        #expect(check.out == "5.0/5.0\n")
        #expect(check.status == 1)
        let report = try runTool(Self.spamc, ["-U", socketPath, "-R"], stdin: message)
        #expect(report.out.hasPrefix("5.0/5.0\nContent analysis details:   (5.0 points, 5.0 required)"))
        let headers = try runTool(Self.spamc, ["-U", socketPath, "--headers"], stdin: message)
        #expect(headers.out == "Subject: WINNER\r\nFrom: a@example.org\r\nX-Spam-Flag: YES\r\nX-Spam-Level: *****\r\n"
                + "X-Spam-Status: Yes, score=5.0 required=5.0 tests=prize,subject:winner\r\n"
                + "\tautolearn=no autolearn_force=no version=turnstile\r\nX-Spam-Turnstile: score=2 required=2\r\n\r\nclaim your prize\r\n", "\(headers.out)")
        let ping = try runTool(Self.spamc, ["-U", socketPath, "-K"])
        #expect(ping.status == 0)
        #expect(ping.out.contains("SPAMD/1.5 0"))
        // TELL without --db: spamd's EX_UNAVAILABLE line; spamc reports a failed TELL as EX_IOERR.
        let tell = try runTool(Self.spamc, ["-U", socketPath, "-L", "spam"], stdin: message)
        #expect(tell.status == 74)
    }

    @Test("the protocol's edges: garbage, half, slow, oversized and 1,000 concurrent requests (Python client)")
    func edges() throws {
        let server = try ServerProcess(["--read-timeout", "2", "--max-size", "100000"])
        defer { server.stop() }
        let result = try runTool("/usr/bin/env", ["python3", "Scripts/spamd-edge-client.py", "127.0.0.1", "\(server.port)",
                                                  "\(server.process.processIdentifier)", "--read-timeout", "2", "--max-size", "100000"])
        #expect(result.status == 0, "\(result.out)\(result.err)")
        #expect(result.out.hasSuffix(" passed, 0 failed\n"), "\(result.out)")
        #expect(result.out.contains("16 passed"), "\(result.out)")
    }

    @Test("SIGHUP swaps the rules in without dropping a connection under way")
    func sighupReloads() throws {
        let dir = try CLI.temporaryDirectory()
        let rules = try CLI.write(Array("lunch\t5\n".utf8), to: "rules.tsv", in: dir)
        let server = try ServerProcess(["-F", "-i", "--rules", rules, "--threshold", "1"])
        defer { server.stop() }
        let message = Array("Subject: lunch\r\n\r\nsee you\r\n".utf8)
        func checked() throws -> Int32 { try runTool(Self.spamc, ["-d", "127.0.0.1", "-p", "\(server.port)", "-c"], stdin: message).status }
        #expect(try checked() == 1)
        // A request under way across the reload: half sent before, the rest after.
        let request = "CHECK SPAMC/1.5\r\nContent-length: \(message.count)\r\n\r\n" + String(decoding: message, as: UTF8.self)
        let client = try RawClient(port: server.port)
        client.send(String(request.prefix(20)))
        try CLI.write(Array("dinner\t5\n".utf8), to: "rules.tsv", in: dir)
        kill(server.process.processIdentifier, SIGHUP)
        #expect(server.stderrContains("rules reloaded"))
        client.send(String(request.dropFirst(20)))
        client.finishSending()
        #expect(client.readAll().hasPrefix("SPAMD/1.1 0 EX_OK\r\nSpam: False ; 0.0 / 5.0"))
        #expect(try checked() == 0)
        // A list that does not build leaves the old one serving.
        try CLI.write(Array("oops\tnot-a-weight\n".utf8), to: "rules.tsv", in: dir)
        kill(server.process.processIdentifier, SIGHUP)
        #expect(server.stderrContains("rules not reloaded"))
        #expect(try checked() == 0)
    }

    @Test("SIGTERM stops accepting and finishes the request under way")
    func sigtermFinishes() throws {
        let server = try ServerProcess([])
        let message = "Subject: hi\r\n\r\nlunch?\r\n"
        let request = "CHECK SPAMC/1.5\r\nContent-length: \(message.utf8.count)\r\n\r\n" + message
        let client = try RawClient(port: server.port)
        client.send(String(request.prefix(25)))
        usleep(200_000)
        kill(server.process.processIdentifier, SIGTERM)
        _ = server.stderrContains("stopping")
        // No new connection is accepted (the listener closes just after the message)…
        var refused = false
        for _ in 0..<250 {
            guard let probe = try? RawClient(port: server.port) else { refused = true; break }
            close(probe.fd)
            usleep(20_000)
        }
        #expect(refused)
        // …and the one under way is answered.
        client.send(String(request.dropFirst(25)))
        client.finishSending()
        #expect(client.readAll().hasPrefix("SPAMD/1.1 0 EX_OK\r\nSpam: False"))
        #expect(server.stop(timeout: 30) == 0)
    }

    @Test("TERM and INT end a server started from a shell, as root or unprivileged: it answers, stops, exits 0",
          .enabled(if: Unprivileged.unavailable == nil, "\(Unprivileged.unavailable ?? "")"),
          arguments: [SIGTERM, SIGINT], [false, true])
    func signalStopsShellStartedServer(signal: Int32, unprivileged: Bool) throws {
        let server = try ServerProcess([], fromShell: true, unprivileged: unprivileged)
        defer { server.stop(signal: SIGKILL) }
        let message = Array("Subject: hi\r\n\r\nlunch?\r\n".utf8)
        let checked = try runTool(Self.spamc, ["-d", "127.0.0.1", "-p", "\(server.port)", "-c"], stdin: message)
        // spamc prints 0/0 and exits 0 when it got no answer (every connection closed at once).
        #expect(checked.status == 0 && checked.out.contains("/") && checked.out != "0/0\n",
                "served before the signal: \(checked.out)\(checked.err)")
        let tagged = try runTool(Self.spamc, ["-d", "127.0.0.1", "-p", "\(server.port)"], stdin: message)
        #expect(String(decoding: tagged.stdout, as: UTF8.self).contains("X-Spam-Status: No"), "\(tagged.out)\(tagged.err)")
        #expect(server.stop(signal: signal, timeout: 30) == 0, "\(server.stderr)")
        #expect(server.stderr.contains("stopping; finishing the requests under way"), "\(server.stderr)")
        #expect((try? RawClient(port: server.port)) == nil, "the port is closed")
    }

    @Test("TELL is refused without --allow-tell, with spamd's answer", .enabled(if: SharedCorpora.isAvailable, "needs ../shared/corpora (see its SOURCES.md)"))
    func tellRefusedWithoutAllowTell() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let db = dir.appendingPathComponent("learned.db").path
        let message = Array("Subject: zanzibar quokka offer\r\n\r\nzanzibar quokka offer today\r\n".utf8)
        let eml = try CLI.write(message, to: "m.eml", in: dir)
        let (spam, ham) = try #require(try LearnTests.mboxPair(count: 30, in: dir))
        #expect(try CLI.run(["learn", "--db", db, "--format", "mbox", "--spam", spam]).status == 0)
        #expect(try CLI.run(["learn", "--db", db, "--format", "mbox", "--ham", ham]).status == 0)
        let server = try ServerProcess(["--db", db])
        defer { server.stop() }
        let raw = try RawClient(port: server.port)
        raw.send("TELL SPAMC/1.5\r\nMessage-class: ham\r\nSet: local\r\nContent-length: \(message.count)\r\n\r\n")
        raw.send(message)
        raw.finishSending()
        #expect(raw.readAll() == "SPAMD/1.0 69 Service Unavailable: TELL commands have not been enabled.\r\n")
        let told = try runTool(Self.spamc, ["-d", "127.0.0.1", "-p", "\(server.port)", "-L", "ham"], stdin: message)
        #expect(told.status != 0, "\(told.out)\(told.err)")
        #expect(!told.out.contains("successfully"), "\(told.out)")
        // Nothing was learned: had either TELL learned the message as ham, learning
        // it as spam now would say "moved".
        let now = try CLI.run(["learn", "--db", db, "--spam", eml])
        #expect(now.err.contains("learned 1;"), "\(now.err)")
        let flag = try CLI.run(["serve", "--allow-tell"])
        #expect(flag.status == 2 && flag.err.contains("--allow-tell needs --db"), "\(flag.err)")
    }

    @Test("--allow-from: only the networks named are served")
    func allowFrom() throws {
        let server = try ServerProcess(["--allow-from", "127.0.0.2/32"])
        defer { server.stop() }
        let refused = try RawClient(port: server.port)
        refused.send("PING SPAMC/1.5\r\n\r\n")
        #expect(refused.readAll() == "")
        let allowed = try RawClient(port: server.port, from: "127.0.0.2")
        allowed.send("PING SPAMC/1.5\r\n\r\n")
        #expect(allowed.readAll() == "SPAMD/1.5 0 PONG\r\n")
        #expect(server.stderrContains("refused a connection from 127.0.0.1"), "\(server.stderr)")
        let tell = try RawClient(port: server.port, from: "127.0.0.2")
        tell.send("TELL SPAMC/1.5\r\nMessage-class: spam\r\nSet: local\r\nContent-length: 3\r\n\r\nabc")
        tell.finishSending()
        #expect(tell.readAll() == "SPAMD/1.0 69 Service Unavailable: TELL commands have not been enabled.\r\n")
    }

    @Test("bad flags get one sentence and exit 2")
    func badFlags() throws {
        for (args, message) in [(["--listen", "nowhere"], "--listen nowhere: expected HOST:PORT or unix:/path"),
                                (["--listen", "example.org:783"], "example.org is not an IP address"),
                                (["--allow-from", "10.0.0.0/33"], "the prefix length must be 0 to 32"),
                                (["--max-size", "0"], "--max-size must be at least 1")] {
            let result = try CLI.run(["serve"] + args)
            #expect(result.status == 2)
            #expect(result.err.contains(message), "\(args): \(result.err)")
        }
    }
}
