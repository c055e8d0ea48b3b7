import Foundation
import Testing
import TestSupport

@Suite("The worked examples in --help")
struct HelpExampleTests {
    /// The `$ command` lines of a help text, each with the output lines printed under it.
    static func examples(in help: String) -> [(command: String, expected: [String])] {
        var result: [(String, [String])] = []
        for line in help.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.drop { $0 == " " }
            if trimmed.hasPrefix("$ ") {
                result.append((String(trimmed.dropFirst(2)), []))
            } else if !result.isEmpty, !trimmed.isEmpty, line.hasPrefix("  ") {
                result[result.count - 1].1.append(String(trimmed))
            } else if !result.isEmpty, trimmed.isEmpty || !line.hasPrefix("  ") {
                // The examples end at the first line that is not indented.
                if !line.hasPrefix("  ") { break }
            }
        }
        return result
    }

    @Test("every example with shown output prints exactly that", arguments: ["filter", "match", "grep", "compile", "rules"])
    func examplesWork(subcommand: String) throws {
        let help = try CLI.run([subcommand, "--help"]).out
        let examples = Self.examples(in: help)
        #expect(!examples.isEmpty)
        // No example line may be wrapped by the help formatter (80 columns).
        let section = help.components(separatedBy: "Examples:\n").last?.components(separatedBy: "\nUSAGE:").first ?? ""
        for line in section.split(separator: "\n") where !line.hasPrefix("  ") {
            Issue.record("\(subcommand) --help: example line not indented (wrapped?): \(line)")
        }
        // Run in a scratch directory (the examples write files) that sees Corpora/.
        let dir = try CLI.temporaryDirectory()
        try FileManager.default.createSymbolicLink(
            at: dir.appendingPathComponent("Corpora"), withDestinationURL: SharedCorpora.ownCorpora)
        let binDir = CLI.binary.deletingLastPathComponent().path
        var checked = 0
        for (command, expected) in examples {
            var env = CLI.childEnvironment
            env["PATH"] = binDir + ":" + (env["PATH"] ?? "/usr/bin:/bin")
            env["NO_COLOR"] = nil
            let data = try ChildProcess.run("/bin/sh", ["-c", command], stdin: nil, environment: env, directory: dir).stdout
            // Outputs shown with "..." are abridged, and timings vary.
            guard !expected.isEmpty, !expected.contains("...") else { continue }
            let got = String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
                .filter { !$0.hasPrefix("build time:") }
            #expect(got == expected.filter { !$0.hasPrefix("build time:") }, "\(subcommand) --help: $ \(command)")
            checked += 1
        }
        #expect(checked > 0)
    }
}
