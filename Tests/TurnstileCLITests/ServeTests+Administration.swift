import Foundation
import Testing
import TestSupport

// What a mail administrator sets up (issue 46): one server per Unix socket, the
// socket's mode and owner, root dropped after binding, a pid file, and one log line
// per request.
extension ServeTests {
    static let isRoot = getuid() == 0

    /// The real uid of process `pid` (from /proc), or nil.
    static func realUID(of pid: Int32) -> UInt32? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("Uid:") }) else { return nil }
        return line.split(whereSeparator: { $0 == "\t" || $0 == " " }).dropFirst().first.flatMap { UInt32($0) }
    }

    @Test("a second server refuses a Unix socket another answers on; a stale socket is replaced")
    func secondInstance() throws {
        let dir = try CLI.temporaryDirectory()
        let socketPath = dir.appendingPathComponent("spamd.sock").path
        let first = try ServerProcess([], listen: "unix:" + socketPath)
        let second = try CLI.run(["serve", "--listen", "unix:" + socketPath])
        #expect(second.status != 0)
        #expect(second.err.contains("another server answers on unix:\(socketPath); stop it first"), "\(second.err)")
        let message = Array("Subject: hi\r\n\r\nlunch?\r\n".utf8)
        let check = try runTool(Self.spamc, ["-U", socketPath, "-c"], stdin: message)
        #expect(check.out != "0/0\n" && check.out.hasSuffix("\n"), "the first still serves: \(check.out)")
        // Killed, the first leaves its socket file behind: the next server replaces it.
        #expect(first.stop(signal: SIGKILL) == SIGKILL, "killed, the first server ends by SIGKILL")
        #expect(FileManager.default.fileExists(atPath: socketPath))
        let third = try ServerProcess([], listen: "unix:" + socketPath)
        defer { third.stop() }
        let again = try runTool(Self.spamc, ["-U", socketPath, "-c"], stdin: message)
        #expect(again.out != "0/0\n", "\(again.out)\(again.err)")
    }

    @Test("--socket-mode sets the Unix socket's mode whatever the umask")
    func socketMode() throws {
        let dir = try CLI.temporaryDirectory()
        let socketPath = dir.appendingPathComponent("spamd.sock").path
        let server = try ServerProcess(["--socket-mode", "0600"], listen: "unix:" + socketPath)
        defer { server.stop() }
        let attributes = try FileManager.default.attributesOfItem(atPath: socketPath)
        #expect((attributes[.posixPermissions] as? Int) == 0o600)
        let bad = try CLI.run(["serve", "--listen", "unix:" + socketPath, "--socket-mode", "999"])
        #expect(bad.status == 2 && bad.err.contains("--socket-mode 999: expected an octal mode"), "\(bad.err)")
        let tcp = try CLI.run(["serve", "--socket-mode", "0600"])
        #expect(tcp.status == 2 && tcp.err.contains("need --listen unix:/path"), "\(tcp.err)")
    }

    @Test("--user drops root after binding, --socket-owner gives the socket away, --pidfile names the process",
          .enabled(if: isRoot, "needs root: the test starts the server as root and checks it drops to nobody"))
    func dropsRoot() throws {
        let dir = try CLI.temporaryDirectory()
        let socketPath = dir.appendingPathComponent("spamd.sock").path
        let pidPath = dir.appendingPathComponent("turnstile.pid").path
        let server = try ServerProcess(["--user", "nobody", "--socket-owner", "nobody", "--socket-mode", "0660", "--pidfile", pidPath],
                                       listen: "unix:" + socketPath)
        defer { server.stop() }
        #expect(Self.realUID(of: server.pid) == Unprivileged.uid, "the server runs as nobody")
        let pidText = try String(contentsOfFile: pidPath, encoding: .utf8)
        #expect(pidText == "\(server.pid)\n")
        let attributes = try FileManager.default.attributesOfItem(atPath: socketPath)
        #expect((attributes[.ownerAccountID] as? Int) == Int(Unprivileged.uid))
        #expect((attributes[.posixPermissions] as? Int) == 0o660)
        let message = Array("Subject: hi\r\n\r\nlunch?\r\n".utf8)
        let check = try runTool(Self.spamc, ["-U", socketPath, "-c"], stdin: message)
        #expect(check.status == 0 && check.out != "0/0\n", "\(check.out)\(check.err)")
        let typo = try CLI.run(["serve", "--listen", "127.0.0.1:0", "--user", "no-such-user-46"])
        #expect(typo.status == 75 && typo.err.contains("no user named no-such-user-46"), "\(typo.err)")
    }

    @Test("rules that cannot be read or built: one sentence, exit 75")
    func rulesErrorExits75() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let malformed = try CLI.write("cheap\tnot-a-weight\n".bytes, to: "malformed.tsv", in: dir)
        for (rules, says) in [(dir.appendingPathComponent("rulez.tsv").path, "rulez.tsv"), (malformed, "not a number")] {
            let result = try CLI.run(["serve", "--listen", "127.0.0.1:0", "--rules", rules])
            #expect(result.status == 75 && result.err.contains(says), "\(rules): \(result.status) \(result.err)")
        }
    }

    @Test("--user as an unprivileged user is refused with one sentence",
          .enabled(if: Unprivileged.unavailable == nil, "\(Unprivileged.unavailable ?? "")"))
    func userNeedsRoot() throws {
        let result = try runTool(Unprivileged.prefix.first ?? CLI.binary.path,
                                 Array(Unprivileged.prefix.dropFirst()) + (Unprivileged.prefix.isEmpty ? [] : [CLI.binary.path])
                                     + ["serve", "--listen", "127.0.0.1:0", "--user", "nobody"])
        #expect(result.status == 75 && result.err.contains("need the server started as root"), "\(result.err)")
    }

    @Test("one log line per request, spamd's result line for a judged message: time, verdict, 5.0-scale score, tests, size, user, client, Message-ID; --no-request-log")
    func requestLog() throws {
        let server = try ServerProcess(["-F", "-i", "-e", "prize", "--threshold", "1"])
        let spam = Array("Subject: you won\r\nMessage-ID: <m1@example.org>\r\n\r\nclaim your prize\r\n".utf8)
        let ham = Array("Subject: hi\r\n\r\nlunch?\r\n".utf8)
        _ = try runTool(Self.spamc, ["-d", "127.0.0.1", "-p", "\(server.port)", "-c", "-u", "alice"], stdin: spam)
        _ = try runTool(Self.spamc, ["-d", "127.0.0.1", "-p", "\(server.port)", "-u", "bob"], stdin: ham)
        _ = try runTool(Self.spamc, ["-d", "127.0.0.1", "-p", "\(server.port)", "-L", "spam", "-u", "mallory"], stdin: spam)
        #expect(server.stderrContains("for mallory"))
        let stamp = #"^[A-Z][a-z]{2} [ 1-3][0-9] [0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{3} \[[0-9]+\] info: turnstile serve: "#
        let check = stamp + #"result: Y  5 - prize scantime=[0-9]+\.[0-9],size=\#(spam.count),user=alice,uid=[0-9]+,required_score=5\.0,"#
            + #"rhost=127\.0\.0\.1,raddr=127\.0\.0\.1,rport=[0-9]+,mid=<m1@example\.org>,method=CHECK,list_score=1\.00/1\.00,autolearn=no autolearn_force=no$"#
        let process = stamp + #"result: \.  0 - none scantime=[0-9]+\.[0-9],size=\#(ham.count),user=bob,.*,mid=\(unknown\),method=PROCESS,list_score=0\.00/1\.00,"#
        let lines = server.stderr.split(separator: "\n").map(String.init)
        #expect(lines.contains { $0.range(of: check, options: .regularExpression) != nil }, "\(server.stderr)")
        #expect(lines.contains { $0.range(of: process, options: .regularExpression) != nil }, "\(server.stderr)")
        #expect(lines.filter { $0.contains("result:") }.count == 2, "one line per request: \(server.stderr)")
        #expect(server.stderrContains("TELL refused (EX_UNAVAILABLE: Service Unavailable: TELL commands have not been enabled.) for mallory"),
                "\(server.stderr)")
        #expect(server.stop() == 0)
        let quiet = try ServerProcess(["--no-request-log"])
        _ = try runTool(Self.spamc, ["-d", "127.0.0.1", "-p", "\(quiet.port)", "-c"], stdin: ham)
        #expect(quiet.stop() == 0)
        #expect(!quiet.stderr.contains("CHECK"), "\(quiet.stderr)")
    }
}
