import Foundation
import Testing
import TestSupport

// TELL that cannot be abused (issue 46): allowed per user (spamc -u) and per client
// network, a rate limit per user and client, every TELL logged, the database private.
extension ServeTests {
    @Test("TELL: only --tell-user users may learn, at most --tell-rate a minute, each TELL logged, the database 0600")
    func tellPolicy() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let db = dir.appendingPathComponent("learned.db").path
        let server = try ServerProcess(["--db", db, "--allow-tell", "--tell-from", "127.0.0.1/32", "--tell-user", "postmaster", "--tell-rate", "2", "--no-request-log"])
        defer { server.stop() }
        let attributes = try FileManager.default.attributesOfItem(atPath: db)
        #expect((attributes[.posixPermissions] as? Int) == 0o600, "the database is private")
        func tell(_ user: String, _ k: Int) throws -> CLIResult {
            let message = Array("Subject: zanzibar quokka offer \(k)\r\n\r\nzanzibar quokka offer today \(k)\r\n".utf8)
            return try runTool(Self.spamc, ["-d", "127.0.0.1", "-p", "\(server.port)", "-L", "spam", "-u", user], stdin: message)
        }
        let mallory = try tell("mallory", 0)
        #expect(mallory.status != 0 && !mallory.out.contains("successfully"), "\(mallory.out)\(mallory.err)")
        #expect(server.stderrContains("TELL refused (EX_UNAVAILABLE: Service Unavailable: TELL is not allowed for user mallory.) for mallory from 127.0.0.1:"),
                "\(server.stderr)")
        for k in 1...2 {
            let allowed = try tell("postmaster", k)
            #expect(allowed.status == 0 && allowed.out.contains("successfully"), "\(k): \(allowed.out)\(allowed.err)")
        }
        #expect(server.stderrContains("TELL learned as spam for postmaster from 127.0.0.1:"), "\(server.stderr)")
        let third = try tell("postmaster", 3)
        #expect(third.status != 0, "the third TELL in a minute is refused: \(third.out)")
        #expect(server.stderrContains("TELL refused (EX_TEMPFAIL: Service Unavailable: too many TELL requests"), "\(server.stderr)")
        let tells = server.stderr.split(separator: "\n").filter { $0.contains("] info: turnstile serve: TELL ") }
        #expect(tells.count == 4, "every TELL logged once (and nothing else with --no-request-log): \(server.stderr)")
    }

    @Test("TELL: --tell-from limits the client networks; the flags need --allow-tell")
    func tellFrom() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let db = dir.appendingPathComponent("learned.db").path
        let server = try ServerProcess(["--db", db, "--allow-tell", "--tell-from", "10.0.0.0/8"])
        defer { server.stop() }
        let message = Array("Subject: hi\r\n\r\nlunch?\r\n".utf8)
        let told = try runTool(Self.spamc, ["-d", "127.0.0.1", "-p", "\(server.port)", "-L", "ham"], stdin: message)
        #expect(told.status != 0 && !told.out.contains("successfully"), "\(told.out)")
        #expect(server.stderrContains("TELL is not allowed from this client"), "\(server.stderr)")
        // CHECK is still served to the same client.
        let check = try runTool(Self.spamc, ["-d", "127.0.0.1", "-p", "\(server.port)", "-c"], stdin: message)
        #expect(check.out != "0/0\n")
        let flag = try CLI.run(["serve", "--tell-user", "postmaster"])
        #expect(flag.status == 2 && flag.err.contains("--tell-user and --tell-from need --allow-tell"), "\(flag.err)")
    }
}
