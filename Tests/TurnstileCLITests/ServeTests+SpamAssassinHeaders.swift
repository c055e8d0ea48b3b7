import Foundation
import Testing
import TestSupport

// spamd's header set (issue 54): X-Spam-Flag, X-Spam-Level stars and X-Spam-Status on
// SpamAssassin's 5.0 scale, so the recipes written for spamd sort our tagged mail as
// they sort SpamAssassin's. Checked against SpamAssassin's own spamd, run here.
extension ServeTests {
    static let spamdBinary = "/usr/sbin/spamd"

    /// The recipes found in spamd-era dotfiles, each sorting spam into Junk.
    static let spamdRecipes = [
        "status": ":0:\n* ^X-Spam-Status: Yes\nJunk\n",
        "level": ":0:\n* ^X-Spam-Level: \\*\\*\\*\\*\\*\nJunk\n",
        "flag": ":0:\n* ^X-Spam-Flag: YES\nJunk\n",
    ]

    /// Runs each recipe after `:0fw | spamc -d 127.0.0.1 -p PORT` on every message;
    /// for each recipe, whether each message went to Junk.
    static func sorted(_ messages: [[UInt8]], port: Int, in dir: URL) throws -> [String: [Bool]] {
        var out: [String: [Bool]] = [:]
        for (name, rule) in spamdRecipes {
            let home = dir.appendingPathComponent("\(name)-\(port)")
            try FileManager.default.createDirectory(at: home, withIntermediateDirectories: true)
            let rc = try CLI.write("MAILDIR=\(home.path)\n:0fw\n| \(Self.spamc) -d 127.0.0.1 -p \(port)\n\n\(rule)".bytes, to: "rc", in: home)
            var junk: [Bool] = []
            for (k, message) in messages.enumerated() {
                let before = (try? Data(contentsOf: home.appendingPathComponent("Junk")))?.count ?? 0
                let status = try DeliveryRecipeTests.deliver("/usr/bin/procmail", ["-m", "DEFAULT=\(home.path)/Inbox-\(k)", rc], input: message)
                #expect(status == 0, "\(name) \(k): procmail \(status)")
                junk.append(((try? Data(contentsOf: home.appendingPathComponent("Junk")))?.count ?? 0) > before)
            }
            out[name] = junk
        }
        return out
    }

    /// spamc -c's verdicts from the server on `port`.
    static func verdicts(_ messages: [[UInt8]], port: Int) throws -> [Bool] {
        try messages.map { try runTool(Self.spamc, ["-d", "127.0.0.1", "-p", "\(port)", "-c"], stdin: $0).status == 1 }
    }

    @Test("spamd-era procmail recipes (X-Spam-Status: Yes, X-Spam-Level *****, X-Spam-Flag) sort our mail by our verdict and SpamAssassin's by its",
          .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/procmail"), "procmail is not installed"),
          .enabled(if: FileManager.default.isExecutableFile(atPath: spamdBinary), "SpamAssassin's spamd is not installed"))
    func spamdRecipesSortAlike() throws {
        let gtube = Array("From: a@example.org\nMessage-ID: <gtube@example.org>\nSubject: test\n\nXJS*C4JDBQADN1.NSBN3*2IDNEN*GTUBE-STANDARD-ANTI-UBE-TEST-EMAIL*C.34X\n".utf8)
        let messages = Array(try Self.sampleMessages().prefix(30)) + [gtube]
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let ours = try ServerProcess([])
        defer { ours.stop() }
        let ourVerdicts = try Self.verdicts(messages, port: ours.port)
        #expect(ourVerdicts.contains(true) && ourVerdicts.contains(false), "both kinds: \(ourVerdicts)")
        for (name, junk) in try Self.sorted(messages, port: ours.port, in: dir) {
            #expect(junk == ourVerdicts, "recipe \(name) on turnstile serve")
        }
        // SpamAssassin's spamd, local tests only, on a free port.
        let probe = try ServerProcess([])
        let port = probe.port
        probe.stop()
        // Started through python3 with no signal blocked (the test's threads block TERM,
        // and a child inherits the mask: spamd would never see it).
        let spamdLog = dir.appendingPathComponent("spamd.log")
        let spamd = try ChildProcess.start(
            "/usr/bin/env",
            ["python3", "-c", "import os, signal, sys; signal.pthread_sigmask(signal.SIG_SETMASK, []); os.execv(sys.argv[1], sys.argv[1:])",
             Self.spamdBinary, "-L", "--listen", "127.0.0.1:\(port)", "-u", "nobody", "-s", "stderr", "--max-children", "2"],
            stdout: .discard, stderr: .file(spamdLog.path))
        defer { spamd.stop() }
        var up = false
        for _ in 0..<300 where !up {
            up = (try? runTool(Self.spamc, ["-d", "127.0.0.1", "-p", "\(port)", "-K", "-x"]))?.status == 0
            if !up { usleep(100_000) }
        }
        try #require(up, "spamd did not start")
        let theirs = try Self.verdicts(messages, port: port)
        // spamc -c prints `score/threshold` on the same 5.0 scale from both servers.
        for p in [ours.port, port] {
            let check = try runTool(Self.spamc, ["-d", "127.0.0.1", "-p", "\(p)", "-c"], stdin: gtube).out
            #expect(check.range(of: #"^-?[0-9]+\.[0-9]/5\.0\n$"#, options: .regularExpression) != nil, "port \(p): \(check)")
        }
        #expect(theirs.last == true, "GTUBE is spam to SpamAssassin")
        for (name, junk) in try Self.sorted(messages, port: port, in: dir) {
            #expect(junk == theirs, "recipe \(name) on SpamAssassin's spamd")
        }
        // The log's result line for GTUBE (after spamc's answer, so waited for), in spamd's shape.
        let result = #"^[A-Z][a-z]{2} [ 1-3][0-9] [0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{3} \[[0-9]+\] info: (spamd|turnstile serve): result: [Y.] +-?[0-9]+ - \S+ "#
            + #"scantime=[0-9]+\.[0-9],size=\#(gtube.count),user=[^,]+,uid=[0-9]+,required_score=5\.0,rhost=[^,]+,raddr=[^,]+,rport=[^,]+,"#
            + #"mid=<gtube@example\.org>,(method=CHECK,list_score=[0-9.]+/[0-9.]+,)?autolearn=no autolearn_force=no$"#
        for (name, log) in [("ours", { ours.stderr }), ("spamd", { (try? String(contentsOf: spamdLog, encoding: .utf8)) ?? "" })] {
            var found = false
            for _ in 0..<100 where !found {
                found = log().split(separator: "\n").contains { $0.contains("gtube@") && $0.range(of: result, options: .regularExpression) != nil }
                if !found { usleep(50_000) }
            }
            #expect(found, "\(name)'s result line: \(log())")
        }
        // The same fields, in the same shape: each X-Spam-Status unfolded matches spamd's.
        let shape = #"^X-Spam-Status: (Yes|No), score=-?[0-9]+\.[0-9] required=5\.0 tests=\S+ autolearn=\S+ autolearn_force=no version=\S+$"#
        for p in [ours.port, port] {
            let out = try runTool(Self.spamc, ["-d", "127.0.0.1", "-p", "\(p)", "--headers"], stdin: gtube).out
            // Unfolded as a reader sees the tests list: a break after a comma joins it.
            let unfolded = out.replacingOccurrences(of: ",\n\t", with: ",").replacingOccurrences(of: "\n\t", with: " ")
            let status = unfolded.split(separator: "\n").first { $0.hasPrefix("X-Spam-Status:") }.map(String.init) ?? ""
            #expect(status.range(of: shape, options: .regularExpression) != nil, "port \(p): \(status)")
            #expect(unfolded.contains("\nX-Spam-Flag: YES\n") == (p == port || ourVerdicts.last == true), "\(unfolded)")
            let level = unfolded.split(separator: "\n").first { $0.hasPrefix("X-Spam-Level:") }.map(String.init) ?? "none"
            #expect(level.range(of: #"^X-Spam-Level: \**$"#, options: .regularExpression) != nil, "port \(p): \(level)")
        }
    }

    @Test("X-Spam-Status, spamc -c and spamc -R on the 5.0 scale, X-Spam-Level's stars, X-Spam-Turnstile with the list's own numbers; spam exactly at five stars")
    func spamAssassinScale() throws {
        let server = try ServerProcess(["-F", "-i", "-e", "prize", "-e", "winner", "--threshold", "2"])
        defer { server.stop() }
        let spam = Array("Subject: WINNER\r\n\r\nclaim your prize\r\n".utf8)
        let tagged = try runTool(Self.spamc, ["-d", "127.0.0.1", "-p", "\(server.port)"], stdin: spam)
        #expect(tagged.out == "Subject: WINNER\r\nX-Spam-Flag: YES\r\nX-Spam-Level: *****\r\n"
                + "X-Spam-Status: Yes, score=5.0 required=5.0 tests=prize,winner autolearn=no\r\n"
                + "\tautolearn_force=no version=turnstile\r\nX-Spam-Turnstile: score=2 required=2\r\n\r\nclaim your prize\r\n", "\(tagged.out)")
        let half = Array("Subject: a prize\r\n\r\nlunch\r\n".utf8)
        let clean = try runTool(Self.spamc, ["-d", "127.0.0.1", "-p", "\(server.port)", "--headers"], stdin: half)
        #expect(clean.out.contains("X-Spam-Level: **\r\nX-Spam-Status: No, score=2.5 required=5.0 tests=prize "), "\(clean.out)")
        #expect(clean.out.contains("X-Spam-Turnstile: score=1 required=2\r\n") && !clean.out.contains("X-Spam-Flag"), "\(clean.out)")
        // A message tagged before is tagged once: every earlier X-Spam- field goes.
        let again = try runTool(Self.spamc, ["-d", "127.0.0.1", "-p", "\(server.port)"], stdin: tagged.stdout)
        #expect(again.stdout == tagged.stdout)
        // spamc -c, -y and -r read the same scale; --headers turnstile keeps the list's own.
        let check = try runTool(Self.spamc, ["-d", "127.0.0.1", "-p", "\(server.port)", "-c"], stdin: spam)
        #expect(check.status == 1 && check.out == "5.0/5.0\n", "\(check.out)")
        let halfCheck = try runTool(Self.spamc, ["-d", "127.0.0.1", "-p", "\(server.port)", "-c"], stdin: half)
        #expect(halfCheck.status == 0 && halfCheck.out == "2.5/5.0\n", "\(halfCheck.out)")
        let report = try runTool(Self.spamc, ["-d", "127.0.0.1", "-p", "\(server.port)", "-R"], stdin: half)
        #expect(report.out.hasPrefix("2.5/5.0\nContent analysis details:   (2.5 points, 5.0 required)\n"), "\(report.out)")
        #expect(report.out.contains("\n 2.5 prize                  weight 1\n"), "\(report.out)")
        let own = try ServerProcess(["-F", "-i", "-e", "prize", "-e", "winner", "--threshold", "2", "--headers", "turnstile"])
        defer { own.stop() }
        let ownCheck = try runTool(Self.spamc, ["-d", "127.0.0.1", "-p", "\(own.port)", "-c"], stdin: spam)
        #expect(ownCheck.status == 1 && ownCheck.out == "2.0/2.0\n", "\(ownCheck.out)")
        let flag = try CLI.run(["serve", "--headers", "spamd"])
        #expect(flag.status == 2 && flag.err.contains("--headers spamd: expected spamassassin or turnstile"), "\(flag.err)")
    }
}
