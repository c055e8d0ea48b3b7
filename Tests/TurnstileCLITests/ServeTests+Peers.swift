import Foundation
import Testing
import TestSupport

// TELL bound to who is really asking (issue 54): on the Unix socket the sender's uid
// (SO_PEERCRED), whatever `spamc -u` claims; over TCP only from --tell-from networks;
// --tell-rate per sender, so one never locks another out. The senders are real spamc
// processes, run as root and as nobody (setpriv).
extension ServeTests {
    /// spamc run as `nobody` (setpriv) or as the test's user, with `args`.
    static func spamc(asNobody: Bool, _ args: [String], stdin: [UInt8]) throws -> CLIResult {
        let prefix = asNobody ? Unprivileged.prefix : []
        return try runTool(prefix.first ?? Self.spamc, Array(prefix.dropFirst()) + (prefix.isEmpty ? [] : [Self.spamc]) + args, stdin: stdin)
    }

    static func tellMessage(_ k: Int) -> [UInt8] {
        Array("Subject: zanzibar quokka offer \(k)\r\n\r\nzanzibar quokka offer today \(k)\r\n".utf8)
    }

    @Test("Unix-socket TELL: the sender's uid, not spamc -u, decides and is logged; --tell-rate counts per uid",
          .enabled(if: isRoot && Unprivileged.unavailable == nil, "needs root and setpriv: TELLs come from root and from nobody"))
    func tellBoundToPeerUID() throws {
        let dir = try Unprivileged.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let socketPath = dir.appendingPathComponent("spamd.sock").path
        let db = dir.appendingPathComponent("learned.db").path
        let server = try ServerProcess(["--db", db, "--allow-tell", "--tell-rate", "2", "--socket-mode", "0666", "--no-request-log"],
                                       listen: "unix:" + socketPath)
        defer { server.stop() }
        // nobody claiming to be root is refused, and logged as who it is.
        let forged = try Self.spamc(asNobody: true, ["-U", socketPath, "-L", "ham", "-u", "root"], stdin: Self.tellMessage(0))
        #expect(forged.status != 0 && !forged.out.contains("successfully"), "\(forged.out)\(forged.err)")
        #expect(server.stderrContains("TELL refused (EX_UNAVAILABLE: Service Unavailable: TELL for user root is not allowed from uid 65534 (nobody).) for root from unix socket uid 65534 (nobody)"),
                "\(server.stderr)")
        // nobody's own TELLs: two a minute, then refused…
        for k in 1...2 {
            let own = try Self.spamc(asNobody: true, ["-U", socketPath, "-L", "spam"], stdin: Self.tellMessage(k))
            #expect(own.status == 0 && own.out.contains("successfully"), "\(k): \(own.out)\(own.err)")
        }
        #expect(server.stderrContains("TELL learned as spam for nobody from unix socket uid 65534 (nobody)"), "\(server.stderr)")
        let third = try Self.spamc(asNobody: true, ["-U", socketPath, "-L", "spam"], stdin: Self.tellMessage(3))
        #expect(third.status != 0, "\(third.out)")
        #expect(server.stderrContains("TELL refused (EX_TEMPFAIL: Service Unavailable: too many TELL requests; try again in a minute.) for nobody"),
                "\(server.stderr)")
        // …which does not lock root out.
        let root = try Self.spamc(asNobody: false, ["-U", socketPath, "-L", "spam"], stdin: Self.tellMessage(4))
        #expect(root.status == 0 && root.out.contains("successfully"), "\(root.out)\(root.err)")
        #expect(server.stderrContains("TELL learned as spam for root from unix socket uid 0 (root)"), "\(server.stderr)")
    }

    @Test("--tell-user names the accounts whose processes may TELL on the Unix socket; spamc -u cannot borrow one",
          .enabled(if: isRoot && Unprivileged.unavailable == nil, "needs root and setpriv: TELLs come from root and from nobody"))
    func tellUserIsTheSendersAccount() throws {
        let dir = try Unprivileged.directory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let socketPath = dir.appendingPathComponent("spamd.sock").path
        let db = dir.appendingPathComponent("learned.db").path
        let server = try ServerProcess(["--db", db, "--allow-tell", "--tell-user", "root", "--socket-mode", "0666"], listen: "unix:" + socketPath)
        defer { server.stop() }
        let forged = try Self.spamc(asNobody: true, ["-U", socketPath, "-L", "ham", "-u", "root"], stdin: Self.tellMessage(0))
        #expect(forged.status != 0 && !forged.out.contains("successfully"), "\(forged.out)\(forged.err)")
        #expect(server.stderrContains("TELL is not allowed for uid 65534 (nobody).) for root from unix socket uid 65534 (nobody)"), "\(server.stderr)")
        let root = try Self.spamc(asNobody: false, ["-U", socketPath, "-L", "ham"], stdin: Self.tellMessage(1))
        #expect(root.status == 0 && root.out.contains("successfully"), "\(root.out)\(root.err)")
        // A named teller may TELL for another user (that user's --db-dir database).
        let forAlice = try Self.spamc(asNobody: false, ["-U", socketPath, "-L", "spam", "-u", "alice"], stdin: Self.tellMessage(2))
        #expect(forAlice.status == 0 && forAlice.out.contains("successfully"), "\(forAlice.out)\(forAlice.err)")
        // CHECK is served to everyone.
        let check = try Self.spamc(asNobody: true, ["-U", socketPath, "-c", "-x"], stdin: Self.tellMessage(5))
        #expect(check.out.hasSuffix("\n") && check.out != "0/0\n", "\(check.out)\(check.err)")
    }

    @Test("TCP TELL is refused unless --tell-from names the client; from there, --tell-rate counts per address")
    func tcpTellNeedsTellFrom() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let db = dir.appendingPathComponent("learned.db").path
        let closed = try ServerProcess(["--db", db, "--allow-tell"])
        let refused = try runTool(Self.spamc, ["-d", "127.0.0.1", "-p", "\(closed.port)", "-L", "spam", "-u", "postmaster"], stdin: Self.tellMessage(0))
        #expect(refused.status != 0 && !refused.out.contains("successfully"), "\(refused.out)\(refused.err)")
        #expect(closed.stderrContains("TELL over TCP is not allowed without --tell-from naming the client."), "\(closed.stderr)")
        #expect(closed.stop() == 0)
        let open = try ServerProcess(["--db", db, "--allow-tell", "--tell-from", "127.0.0.1/32", "--tell-rate", "1"])
        defer { open.stop() }
        let told = try runTool(Self.spamc, ["-d", "127.0.0.1", "-p", "\(open.port)", "-L", "spam", "-u", "postmaster"], stdin: Self.tellMessage(1))
        #expect(told.status == 0 && told.out.contains("successfully"), "\(told.out)\(told.err)")
        // The rate is the address's, whichever user it names.
        let other = try runTool(Self.spamc, ["-d", "127.0.0.1", "-p", "\(open.port)", "-L", "spam", "-u", "alice"], stdin: Self.tellMessage(2))
        #expect(other.status != 0, "\(other.out)")
        #expect(open.stderrContains("too many TELL requests"), "\(open.stderr)")
    }
}
