import Foundation
import Testing
import TestSupport

/// grep -r searches the files of a tree as its walk finds them (a feed the walk fills
/// while the run searches): the output must still be GNU grep's, in GNU grep's order,
/// on one thread and across inputs, for trees larger than a batch of the walk; and a
/// folder that cannot be read is reported in its place while the walk goes on.
@Suite("grep -r: searched as the walk goes, GNU grep's answers in GNU grep's order",
       .enabled(if: GNUGrep.path != nil, "GNU grep not found at /usr/bin/grep: the comparison is skipped"))
struct GrepWalkTests {
    /// A tree of 330 files in nested folders (more than a walk step of 32), a third
    /// holding "hit", some with "hit" twice, one folder empty.
    static func makeTree() throws -> URL {
        let dir = try CLI.temporaryDirectory()
        let fm = FileManager.default
        for folder in ["t", "t/a", "t/a/deep", "t/a/deep/er", "t/b", "t/empty", "t/c"] {
            try fm.createDirectory(at: dir.appendingPathComponent(folder), withIntermediateDirectories: true)
        }
        let folders = ["t", "t/a", "t/a/deep", "t/a/deep/er", "t/b", "t/c"]
        for n in 0..<330 {
            let text = n % 3 == 0 ? "line \(n)\nhit \(n)\n" + (n % 7 == 0 ? "hit again\n" : "") : "miss \(n)\n"
            try text.write(to: dir.appendingPathComponent("\(folders[n % folders.count])/f\(n)"),
                           atomically: false, encoding: .utf8)
        }
        return dir
    }

    /// Runs `script` with `sh` in `dir`, `grep` first on `PATH` from `path`.
    static func run(_ script: String, in dir: URL, path: String, environment: [String: String] = [:]) throws -> ChildResult {
        try ChildProcess.run("/usr/bin/timeout", ["60", "/bin/sh", "-c", script], stdin: nil,
                             environment: ["LC_ALL": "C", "PATH": path, "HOME": dir.path].merging(environment) { $1 },
                             directory: dir)
    }

    @Test("the tree's output, status and order equal GNU grep's, on one thread and over inputs",
          arguments: ["one", "inputs"])
    func treeInWalkOrder(plan: String) throws {
        let dir = try Self.makeTree()
        defer { try? FileManager.default.removeItem(at: dir) }
        let ours = GrepPersonalityTests.linkFolder.path + ":/usr/bin:/bin"
        for flags in ["-r", "-rn", "-rl", "-rL", "-rc", "-rh", "-r -m1", "-rq", "-r -o", "-rw 'hit again'"] {
            for operands in ["t", "t/a t/b", "t/f0 t/c", ""] {
                let script = operands.isEmpty ? "cd t && grep \(flags) hit; echo $?" : "grep \(flags) hit \(operands); echo $?"
                let gnu = try Self.run(script, in: dir, path: "/usr/bin:/bin")
                let turnstile = try Self.run(script, in: dir, path: ours,
                                             environment: ["TURNSTILE_THREADS_PLAN": plan])
                #expect(turnstile.out == gnu.out && turnstile.err.isEmpty == gnu.err.isEmpty,
                        "\(plan): \(script)\nGNU grep: \(gnu.out.prefix(400))\nturnstile: \(turnstile.out.prefix(400)) \(turnstile.err)")
            }
        }
    }

    @Test("a folder that cannot be read: said in its place, the walk goes on, status 2",
          .enabled(if: Unprivileged.unavailable == nil, "\(Unprivileged.unavailable ?? "")"))
    func unreadableFolderInPlace() throws {
        let dir = try Unprivileged.directory()
        defer {
            chmod(dir.appendingPathComponent("t/a/sub").path, 0o755)
            try? FileManager.default.removeItem(at: dir)
        }
        let fm = FileManager.default
        for folder in ["t/a/sub", "t/b"] {
            try fm.createDirectory(at: dir.appendingPathComponent(folder), withIntermediateDirectories: true)
        }
        for file in ["t/a/f", "t/a/sub/g", "t/b/h", "t/z"] {
            try "hello\n".write(to: dir.appendingPathComponent(file), atomically: false, encoding: .utf8)
        }
        chmod(dir.appendingPathComponent("t/a/sub").path, 0)
        if getuid() == 0 {
            for path in ["t", "t/a", "t/b", "t/a/f", "t/b/h", "t/z"] {
                chown(dir.appendingPathComponent(path).path, Unprivileged.uid, Unprivileged.gid)
            }
        }
        let prefix = Unprivileged.prefix.joined(separator: " ")
        // The unprivileged user must reach the built binary through its link.
        let reach = try Self.run("\(prefix) \(GrepPersonalityTests.linkFolder.path)/grep -q x /dev/null; echo $?",
                                 in: dir, path: "/usr/bin:/bin")
        try #require(reach.out == "1\n" || reach.out == "0\n",
                     "the unprivileged user cannot run the built binary here: \(reach.out) \(reach.err)")
        for flags in ["-r", "-rl", "-rc", "-rs"] {
            let script = "\(prefix) grep \(flags) hello t 2>&1; echo $?"
            let gnu = try Self.run(script, in: dir, path: "/usr/bin:/bin")
            let turnstile = try Self.run(script, in: dir, path: GrepPersonalityTests.linkFolder.path + ":/usr/bin:/bin")
            #expect(gnu.out.contains("Permission denied") == !flags.contains("s"), "\(gnu.out)")
            #expect(turnstile.out == gnu.out, "\(script)\nGNU grep: \(gnu.out)\nturnstile: \(turnstile.out)")
        }
    }
}
