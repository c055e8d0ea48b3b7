import Foundation
import Testing
import TestSupport

/// Every `$ command` in a ```sh block of README.md runs as written, and prints what
/// the lines after it show (standard output and error together), so the README's
/// examples cannot rot. Commands run with `bash` in a scratch directory that sees the
/// repository's `Corpora/` and `Scripts/`, with the built `turnstile` first on `PATH`. A shown line
/// `build time: …` only has to match up to the colon (the time varies).
@Suite struct ReadmeCommandTests {
    struct Example: CustomStringConvertible, Sendable {
        var command: String
        var expected: [String]
        var description: String { command }
    }

    /// The `$` examples of README.md, in order.
    static let examples: [Example] = {
        let url = SharedCorpora.repositoryRoot.appendingPathComponent("README.md")
        guard let text = try? String(contentsOf: url, encoding: .utf8) else { return [] }
        var result: [Example] = []
        var inShell = false
        var current: Example? = nil
        for line in text.components(separatedBy: "\n") {
            if !inShell {
                if line == "```sh" { inShell = true }
                continue
            }
            if line == "```" {
                if let c = current { result.append(c) }
                current = nil
                inShell = false
            } else if line.hasPrefix("$ ") {
                if let c = current { result.append(c) }
                current = Example(command: String(line.dropFirst(2)), expected: [])
            } else if current != nil {
                current!.expected.append(line)
            }
        }
        return result
    }()

    @Test func readmeHasShellExamples() {
        #expect(Self.examples.count >= 10, "README.md should show the turnstile commands with their output")
    }

    @Test func everyReadmeCommandPrintsWhatTheReadmeShows() throws {
        let scratch = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        try FileManager.default.createSymbolicLink(
            at: scratch.appendingPathComponent("Corpora"),
            withDestinationURL: SharedCorpora.repositoryRoot.appendingPathComponent("Corpora"))
        // The event machine's checklist runs Scripts/check-event-machine-dependencies.sh.
        try FileManager.default.createSymbolicLink(
            at: scratch.appendingPathComponent("Scripts"),
            withDestinationURL: SharedCorpora.repositoryRoot.appendingPathComponent("Scripts"))
        let binDir = CLI.binary.deletingLastPathComponent().path
        for example in Self.examples {
            var env = CLI.childEnvironment
            env["PATH"] = binDir + ":" + (env["PATH"] ?? "/usr/bin:/bin")
            env["NO_COLOR"] = "1"
            let data = try ChildProcess.run("/bin/bash", ["-c", example.command + " 2>&1"], stdin: nil, environment: env,
                                            directory: scratch).stdout
            var got = String(decoding: data, as: UTF8.self).components(separatedBy: "\n")
            if got.last == "" { got.removeLast() }
            let expected = example.expected
            let same = got.count == expected.count && zip(got, expected).allSatisfy { g, e in
                e.hasPrefix("build time:") ? g.hasPrefix("build time:") : g == e
            }
            #expect(same, "README example `\(example.command)` printed:\n\(got.joined(separator: "\n"))\nbut the README shows:\n\(expected.joined(separator: "\n"))")
        }
    }
}
