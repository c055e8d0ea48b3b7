// Runs each event-machine example (Examples/<name>/main.swift, built as
// `example-<name>`) and compares what it prints with Examples/<name>/expected-output.txt,
// so the examples the README points app developers to keep building and keep doing
// what they say. Every example's output is deterministic: steps wait for transitions,
// never for time.

import Foundation
import Testing
import TestSupport

@Suite("EventMachine examples run")
struct EventMachineExamplesTests {
    static let names = ["gate", "navigation", "news-screen", "water", "app-flow"]

    /// `example-<name>` beside the test bundle (or in .build/debug).
    static func binary(_ name: String) -> URL {
        var candidates: [URL] = []
        if let exe = Bundle.main.executableURL {
            candidates.append(exe.deletingLastPathComponent().appendingPathComponent("example-\(name)"))
            candidates.append(exe.deletingLastPathComponent().deletingLastPathComponent()
                .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("example-\(name)"))
        }
        candidates.append(URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
            .appendingPathComponent("example-\(name)"))
        candidates.append(SharedCorpora.repositoryRoot.appendingPathComponent(".build/debug/example-\(name)"))
        return candidates.first { FileManager.default.isExecutableFile(atPath: $0.path) } ?? candidates.last!
    }

    @Test("EventMachine example prints its expected output and exits 0", arguments: names)
    func example(name: String) throws {
        let r = try ChildProcess.run(Self.binary(name), [], stdin: nil)
        let stdout = r.out
        #expect(r.status == 0, "example-\(name) failed: \(r.err)")
        let expectedURL = SharedCorpora.repositoryRoot.appendingPathComponent("Examples/\(name)/expected-output.txt")
        let expected = try String(contentsOf: expectedURL, encoding: .utf8)
        #expect(stdout == expected, "example-\(name) printed something else than \(expectedURL.path)")
    }
}
