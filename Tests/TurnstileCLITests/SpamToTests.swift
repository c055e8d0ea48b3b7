import Foundation
import Testing
import TestSupport

/// `filter --format mbox --spam-to FILE` appends as mail delivery agents do: earlier
/// mail is kept, nothing is written when an input fails, and two runs at once each
/// append their messages whole.
@Suite("--spam-to appends to an mbox and never loses what is there")
struct SpamToTests {
    static func spam(_ tag: String, _ i: Int) -> String {
        "From \(tag)\(i)@example.com  Thu Jan  1 00:00:00 2002\nFrom: \(tag)\(i)@example.com\nSubject: \(tag) \(i)\n\nbuy viagra now \(String(repeating: tag, count: 200))\n\n"
    }
    static let ham = "From h@example.com  Thu Jan  1 00:00:00 2002\nSubject: lunch\n\nsee you\n\n"
    static let earlier = "From old@example.com  Thu Jan  1 00:00:00 2001\nSubject: kept\n\nearlier junk\n\n"

    @Test("earlier content is kept; no spam and a failed input leave the file untouched; no file is created for nothing")
    func appends() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let rules = try MailCommandTests.rules(in: dir)
        let junk = dir.appendingPathComponent("Junk.mbox").path
        try CLI.write(Self.earlier.bytes, to: "Junk.mbox", in: dir)
        let input = try CLI.write((Self.ham + Self.spam("a", 1)).bytes, to: "in.mbox", in: dir)
        let hamOnly = try CLI.write(Self.ham.bytes, to: "ham.mbox", in: dir)
        let args = ["filter", "--format", "mbox"] + MailCommandTests.ruleArgs(rules) + ["--spam-to", junk]

        let first = try CLI.run(args + [input])
        #expect(first.status == 0, "\(first.err)")
        #expect(first.out == Self.ham)
        #expect(try String(contentsOfFile: junk, encoding: .utf8) == Self.earlier + Self.spam("a", 1))

        let none = try CLI.run(args + [hamOnly])
        #expect(none.status == 1)
        #expect(try String(contentsOfFile: junk, encoding: .utf8) == Self.earlier + Self.spam("a", 1), "no spam: untouched")

        let failed = try CLI.run(args + [input, dir.appendingPathComponent("missing.mbox").path])
        #expect(failed.status == 2)
        #expect(failed.err.contains("left as it was"), "\(failed.err)")
        #expect(try String(contentsOfFile: junk, encoding: .utf8) == Self.earlier + Self.spam("a", 1), "failed input: untouched")

        let fresh = dir.appendingPathComponent("New.mbox").path
        _ = try CLI.run(["filter", "--format", "mbox"] + MailCommandTests.ruleArgs(rules) + ["--spam-to", fresh, hamOnly])
        #expect(!FileManager.default.fileExists(atPath: fresh), "no spam: no file")
        #expect(try FileManager.default.contentsOfDirectory(atPath: dir.path).sorted()
                == ["Junk.mbox", "ham.mbox", "in.mbox", "rules.tsv"], "no spool or lock file left behind")
    }

    @Test("a file that does not end its last line gets a line break before the appended From line")
    func unterminatedTarget() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let rules = try MailCommandTests.rules(in: dir)
        let junk = try CLI.write("From x  Thu Jan  1 00:00:00 2001\n\nno final newline".bytes, to: "Junk.mbox", in: dir)
        let input = try CLI.write(Self.spam("a", 1).bytes, to: "in.mbox", in: dir)
        let r = try CLI.run(["filter", "--format", "mbox"] + MailCommandTests.ruleArgs(rules) + ["--spam-to", junk, input])
        #expect(r.status == 0, "\(r.err)")
        #expect(try String(contentsOfFile: junk, encoding: .utf8)
                == "From x  Thu Jan  1 00:00:00 2001\n\nno final newline\n" + Self.spam("a", 1))
        let count = try CLI.run(["filter", "--format", "mbox", "--count"] + MailCommandTests.ruleArgs(rules) + [junk])
        #expect(count.out == "clean 1 spam 1\n", "two messages, each whole")
    }

    @Test("a .lock file held by another program is waited for; one older than five minutes is broken")
    func dotlock() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let rules = try MailCommandTests.rules(in: dir)
        let junk = try CLI.write(Self.earlier.bytes, to: "Junk.mbox", in: dir)
        let input = try CLI.write(Self.spam("a", 1).bytes, to: "in.mbox", in: dir)
        let lock = try CLI.write("4242\n".bytes, to: "Junk.mbox.lock", in: dir)  // as procmail's lockfile(1) leaves it
        let p = try ChildProcess.start(CLI.binary, ["filter", "--format", "mbox", "--count"] + MailCommandTests.ruleArgs(rules)
                                       + ["--spam-to", junk, input], stdout: .discard, environment: CLI.childEnvironment)
        // It polls the lock file with usleep(3): wait until it sleeps there, however
        // slow the machine (a fixed pause was flaky under load).
        #expect(ChildProcess.waitUntil { Self.kernelWait(of: p).contains("nanosleep") || !p.isRunning }, "never slept on the lock")
        #expect(p.isRunning, "waiting for the lock")
        #expect(try String(contentsOfFile: junk, encoding: .utf8) == Self.earlier, "nothing written while locked")
        try FileManager.default.removeItem(atPath: lock)
        let done = p.wait()
        #expect(done.status == 0, "\(done.err)")
        #expect(try String(contentsOfFile: junk, encoding: .utf8) == Self.earlier + Self.spam("a", 1))
        #expect(!FileManager.default.fileExists(atPath: lock), "its own lock removed")

        // A lock left by a holder that died ten minutes ago.
        try CLI.write("4242\n".bytes, to: "Junk.mbox.lock", in: dir)
        try FileManager.default.setAttributes([.modificationDate: Date(timeIntervalSinceNow: -600)], ofItemAtPath: lock)
        let stale = try CLI.run(["filter", "--format", "mbox", "--count"] + MailCommandTests.ruleArgs(rules) + ["--spam-to", junk, input])
        #expect(stale.status == 0, "\(stale.err)")
        #expect(try String(contentsOfFile: junk, encoding: .utf8) == Self.earlier + Self.spam("a", 1) + Self.spam("a", 1))
    }

    @Test("an fcntl lock held by another program (as dovecot and maildrop take it) is waited for",
          .enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/python3")))
    func fcntlLock() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let rules = try MailCommandTests.rules(in: dir)
        let junk = try CLI.write(Self.earlier.bytes, to: "Junk.mbox", in: dir)
        let input = try CLI.write(Self.spam("a", 1).bytes, to: "in.mbox", in: dir)
        // Holds a POSIX record lock on the whole file until its standard input closes.
        let holder = try ChildProcess.start(
            "/usr/bin/python3",
            ["-c", "import fcntl, sys; f = open(sys.argv[1], 'a'); fcntl.lockf(f, fcntl.LOCK_EX); print('locked', flush=True); sys.stdin.read()", junk],
            stdin: .pipe, stdout: .stream)
        _ = holder.output!.availableData  // "locked"
        let p = try ChildProcess.start(CLI.binary, ["filter", "--format", "mbox", "--count"] + MailCommandTests.ruleArgs(rules)
                                       + ["--spam-to", junk, input], stdout: .discard, environment: CLI.childEnvironment)
        // A blocked F_SETLKW shows in /proc/locks as a waiter ("->") with its pid.
        #expect(ChildProcess.waitUntil { Self.blockedOnLock(p) || !p.isRunning }, "never blocked on the fcntl lock")
        #expect(p.isRunning, "waiting for the fcntl lock")
        #expect(try String(contentsOfFile: junk, encoding: .utf8) == Self.earlier, "nothing written while locked")
        try holder.input!.close()
        holder.wait(closingOutput: true)
        let done = p.wait()
        #expect(done.status == 0, "\(done.err)")
        #expect(try String(contentsOfFile: junk, encoding: .utf8) == Self.earlier + Self.spam("a", 1))
    }

    @Test("two runs appending at once: each run's spam is in the file whole and in order, nothing lost")
    func concurrentRuns() throws {
        let dir = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: dir) }
        let rules = try MailCommandTests.rules(in: dir)
        let junk = try CLI.write(Self.earlier.bytes, to: "Junk.mbox", in: dir)
        let n = 2_000
        let a = (0..<n).map { Self.spam("a", $0) + Self.ham }.joined()
        let b = (0..<n).map { Self.spam("b", $0) + Self.ham }.joined()
        let inputA = try CLI.write(a.bytes, to: "a.mbox", in: dir)
        let inputB = try CLI.write(b.bytes, to: "b.mbox", in: dir)
        func start(_ input: String) throws -> RunningChild {
            try ChildProcess.start(CLI.binary, ["filter", "--format", "mbox", "--count"] + MailCommandTests.ruleArgs(rules)
                                   + ["--spam-to", junk, input], stdout: .discard, environment: CLI.childEnvironment)
        }
        let runs = try [start(inputA), start(inputB)]
        #expect(runs.map { $0.wait().status } == [0, 0])
        let spamA = (0..<n).map { Self.spam("a", $0) }.joined()
        let spamB = (0..<n).map { Self.spam("b", $0) }.joined()
        let got = try String(contentsOfFile: junk, encoding: .utf8)
        #expect(got == Self.earlier + spamA + spamB || got == Self.earlier + spamB + spamA,
                "got \(got.utf8.count) bytes, want \((Self.earlier + spamA + spamB).utf8.count)")
    }

    /// Where in the kernel `process` waits (/proc/PID/wchan), "" when unknown.
    static func kernelWait(of child: RunningChild) -> String {
        (try? String(contentsOfFile: "/proc/\(child.pid)/wchan", encoding: .utf8)) ?? ""
    }

    /// Whether `process` waits for a POSIX lock (a "->" line of /proc/locks with its pid).
    static func blockedOnLock(_ child: RunningChild) -> Bool {
        let locks = (try? String(contentsOfFile: "/proc/locks", encoding: .utf8)) ?? ""
        return locks.split(separator: "\n").contains { line in
            line.contains("->") && line.split(separator: " ").contains(Substring(String(child.pid)))
        }
    }
}
