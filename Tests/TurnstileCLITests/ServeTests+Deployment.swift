import Foundation
import Testing
import TestSupport

// The daemon as the README's "Running the daemon" deploys it (issue 46): the procmail
// recipe through spamc with the server running unprivileged, the systemd units, and
// socket activation.
extension ServeTests {
    static let distribution = SharedCorpora.repositoryRoot.appendingPathComponent("Distribution")

    @Test("the README's procmail + spamc recipe delivers the example mail tagged, the daemon unprivileged",
          .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/procmail"), "procmail is not installed"),
          .enabled(if: Unprivileged.unavailable == nil, "\(Unprivileged.unavailable ?? "")"))
    func procmailThroughSpamc() throws {
        let server = try ServerProcess([], unprivileged: true)
        defer { server.stop() }
        #expect(Self.realUID(of: server.pid) == (getuid() == 0 ? Unprivileged.uid : getuid()))
        let home = try DeliveryRecipeTests.home()
        defer { try? FileManager.default.removeItem(at: home) }
        let recipe = try DeliveryRecipeTests.readmeBlock("procmail-spamc").replacingOccurrences(of: "$HOME", with: home.path)
            .replacingOccurrences(of: "-p 783", with: "-p \(server.port)")
        #expect(recipe.contains("spamc -d 127.0.0.1 -p \(server.port) -x"))
        let rc = try CLI.write(recipe.bytes, to: "procmailrc", in: home)
        let control = try CLI.write("MAILDIR=\(home.path)/Mail\n".bytes, to: "control-rc", in: home)
        let messages = DeliveryRecipeTests.messages()
        for message in messages {
            #expect(try DeliveryRecipeTests.deliver("/usr/bin/procmail", ["-m", "DEFAULT=\(home.path)/Mail/Inbox", rc], input: message) == 0)
            #expect(try DeliveryRecipeTests.deliver("/usr/bin/procmail", ["-m", "DEFAULT=\(home.path)/Mail/Control", control], input: message) == 0)
        }
        try DeliveryRecipeTests.check(home: home, messages: messages)
        // Every message went through the daemon: one result line each.
        #expect(server.stderr.components(separatedBy: ",method=PROCESS,").count - 1 == messages.count, "\(server.stderr)")
        // With the daemon down, the recipe hands the message back (75) and delivers nothing.
        #expect(server.stop() == 0)
        let down = try CLI.temporaryDirectory()
        let downRc = try CLI.write(recipe.replacingOccurrences(of: home.path, with: down.path).bytes, to: "procmailrc", in: down)
        #expect(try DeliveryRecipeTests.deliver("/usr/bin/procmail", ["-m", "DEFAULT=\(down.path)/Inbox", downRc], input: messages[0]) == 75)
        #expect(!FileManager.default.fileExists(atPath: down.appendingPathComponent("Inbox").path))
    }

    @Test("Distribution/turnstile-serve.service and .socket pass systemd-analyze verify",
          .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/systemd-analyze"), "systemd is not installed"))
    func systemdUnits() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        // As `make install` writes it: ExecStart names the installed binary (here, the built one).
        let service = try String(contentsOf: Self.distribution.appendingPathComponent("turnstile-serve.service"), encoding: .utf8)
        #expect(service.contains("ExecStart=/usr/bin/turnstile serve "))
        #expect(service.contains("Type=notify") && service.contains("ExecReload=/bin/kill -HUP $MAINPID"))
        let servicePath = try CLI.write(service.replacingOccurrences(of: "/usr/bin/turnstile", with: CLI.binary.path).bytes,
                                        to: "turnstile-serve.service", in: dir)
        let socket = try CLI.write(try [UInt8](Data(contentsOf: Self.distribution.appendingPathComponent("turnstile-serve.socket"))),
                                   to: "turnstile-serve.socket", in: dir)
        let verify = try runTool("/usr/bin/systemd-analyze", ["verify", servicePath, socket])
        #expect(verify.status == 0 && verify.out.isEmpty && verify.err.isEmpty, "\(verify.out)\(verify.err)")
        // The command line in the unit is one the server accepts.
        let flags = service.split(separator: "\n").first { $0.hasPrefix("ExecStart=") }!
            .split(separator: " ").dropFirst(2).map(String.init)
        let help = try CLI.run(["serve"] + flags + ["--help"])
        #expect(help.status == 0, "\(help.err)")
    }

    @Test("socket activation: the server serves the socket systemd hands it (systemd-socket-activate)",
          .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/systemd-socket-activate"), "systemd-socket-activate is not installed"))
    func socketActivation() throws {
        // systemd's stand-in binds a free port and starts the server on the first
        // connection with the socket as fd 3; --listen names a port nothing listens on,
        // so only the handed-over socket can answer. Driven from Python, which starts
        // the programs with no signal blocked, as systemd does.
        let script = #"""
        import signal, socket, subprocess, sys, time
        s = socket.socket(); s.bind(("127.0.0.1", 0)); port = s.getsockname()[1]; s.close()
        p = subprocess.Popen(["/usr/bin/systemd-socket-activate", "-l", "127.0.0.1:%d" % port, sys.argv[1], "serve",
                              "--listen", "127.0.0.1:1"], stderr=subprocess.PIPE)
        out = b""
        for _ in range(100):
            r = subprocess.run(["/usr/bin/spamc", "-d", "127.0.0.1", "-p", str(port), "-c", "-x", "-t", "30"],
                               input=b"Subject: hi\r\n\r\nlunch?\r\n", capture_output=True)
            out = r.stdout
            if out.endswith(b"/5.0\n"): break
            time.sleep(0.1)
        time.sleep(0.2)
        p.send_signal(signal.SIGTERM)
        try: rc = p.wait(30)
        except subprocess.TimeoutExpired: p.kill(); rc = "hung"
        log = p.stderr.read().decode()
        print(out, rc, log)
        sys.exit(0 if out == b"2.8/5.0\n" and rc == 0 and ("ready, listening on 127.0.0.1:%d" % port) in log else 1)
        """#
        let result = try runTool("/usr/bin/env", ["python3", "-c", script, CLI.binary.path])
        #expect(result.status == 0, "\(result.out)\(result.err)")
    }
}
