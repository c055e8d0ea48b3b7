import Foundation
import Testing
import TestSupport

// Started as root with --user (issue 54): a database that --allow-tell creates and the
// pid file belong to the user the server becomes, so the server learns and later starts
// work; the pid file goes on TERM even from a folder only root may write, as /run.
extension ServeTests {
    static func owner(of path: String) -> Int? {
        (try? FileManager.default.attributesOfItem(atPath: path))?[.ownerAccountID] as? Int
    }

    @Test("root with --user, a new --db and --pidfile in root's folder: both owned by the user, TELL learns, TERM removes the pid file",
          .enabled(if: isRoot, "needs root: the server starts as root and drops to nobody"))
    func rootStartOwnsItsFiles() throws {
        // run/ is root's (0755), as /run; state/ is the user's, as a StateDirectory.
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        chmod(dir.path, 0o755)
        let run = dir.appendingPathComponent("run"), state = dir.appendingPathComponent("state")
        try FileManager.default.createDirectory(at: run, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o755])
        try FileManager.default.createDirectory(at: state, withIntermediateDirectories: false, attributes: [.posixPermissions: 0o700])
        chown(state.path, Unprivileged.uid, Unprivileged.gid)
        let db = state.appendingPathComponent("learned.db").path
        let pidPath = run.appendingPathComponent("turnstile.pid").path
        let socketPath = state.appendingPathComponent("spamd.sock").path
        let args = ["--user", "nobody", "--db", db, "--allow-tell", "--pidfile", pidPath, "--socket-mode", "0666"]
        for round in 1...2 {
            // Before issue 54 the first start exited 75, and so did every later one.
            let server = try ServerProcess(args, listen: "unix:" + socketPath)
            #expect(Self.realUID(of: server.pid) == Unprivileged.uid, "round \(round): runs as nobody")
            #expect(Self.owner(of: db) == Int(Unprivileged.uid), "round \(round): the database is nobody's")
            #expect(Self.owner(of: pidPath) == Int(Unprivileged.uid), "round \(round): the pid file is nobody's")
            #expect((try? String(contentsOfFile: pidPath, encoding: .utf8)) == "\(server.pid)\n")
            let told = try runTool(Self.spamc, ["-U", socketPath, "-L", "spam"], stdin: Self.tellMessage(round))
            #expect(told.status == 0 && told.out.contains("successfully"), "round \(round): \(told.out)\(told.err)\(server.stderr)")
            #expect(server.stop() == 0, "\(server.stderr)")
            // Removed by the watcher root started, just after the server's exit.
            var gone = false
            for _ in 0..<500 where !gone {
                gone = !FileManager.default.fileExists(atPath: pidPath)
                if !gone { usleep(20_000) }
            }
            #expect(gone, "round \(round): the pid file is removed on TERM")
        }
    }
}
