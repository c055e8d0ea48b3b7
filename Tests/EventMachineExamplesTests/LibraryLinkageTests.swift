import Foundation
import Testing
import TestSupport

/// The library products link only the standard library: a program that uses Turnstile
/// (example-spam-check) or EventMachine (example-gate) loads no Foundation and no ICU,
/// so an app or a server that only matches text does not pay for them (start-up, size).
/// The LocalizedError conformances live in TurnstileFoundation and EventMachineFoundation.
@Suite("Library products link no Foundation")
struct LibraryLinkageTests {
    @Test("ldd of a program using only the library shows no Foundation or ICU", arguments: ["spam-check", "gate"])
    func noFoundation(_ name: String) throws {
        let binary = EventMachineExamplesTests.binary(name)
        let ldd = try ChildProcess.run("/usr/bin/ldd", [binary.path], stdin: nil)
        #expect(ldd.status == 0, "\(ldd.err)")
        #expect(ldd.out.contains("libswiftCore") || ldd.out.contains("not a dynamic executable"), "\(ldd.out)")
        for library in ["Foundation", "icu", "ICU"] {
            #expect(!ldd.out.contains(library), "example-\(name) links \(library):\n\(ldd.out)")
        }
    }

    @Test("the Turnstile-only program runs and prints its expected output")
    func spamCheckRuns() throws {
        let run = try ChildProcess.run(EventMachineExamplesTests.binary("spam-check"), [], stdin: nil)
        #expect(run.status == 0, "\(run.err)")
        let expected = try String(contentsOf: SharedCorpora.repositoryRoot.appendingPathComponent("Examples/spam-check/expected-output.txt"),
                                  encoding: .utf8)
        #expect(run.out == expected)
    }
}
