import Foundation
import Testing
import TestSupport

/// The man page and completions `make install` and `make deb` ship are committed under
/// Distribution/ (so installing takes one release build); they must still describe the
/// binary. The man page is generated from `--experimental-dump-help`, so the committed
/// dump stands for it; the completions are compared whole.
@Suite("Distribution/: the committed man page and completions match the binary")
struct DistributionFilesTests {
    static let folder = SharedCorpora.repositoryRoot.appendingPathComponent("Distribution")

    static func committed(_ name: String) throws -> String {
        try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
    }

    @Test("the help the man page was generated from is the binary's (else run `make distribution-files`)")
    func manPageSource() throws {
        let dump = try CLI.run(["--experimental-dump-help"])
        #expect(dump.status == 0, "\(dump.err)")
        #expect(dump.out == (try Self.committed("turnstile-help.json")),
                "Distribution/turnstile-help.json is out of date: run `make distribution-files` and commit Distribution/")
        let page = try Self.committed("turnstile.1")
        for subcommand in ["filter", "match", "grep", "compile", "eval", "train", "rules", "serve", "learn"] {
            #expect(page.contains(subcommand), "the man page does not mention \(subcommand)")
        }
    }

    @Test("each shell's completion script is the binary's", arguments: ["bash", "zsh", "fish"])
    func completions(_ shell: String) throws {
        let script = try CLI.run(["--generate-completion-script", shell])
        #expect(script.status == 0, "\(script.err)")
        #expect(script.out == (try Self.committed("completion.\(shell)")),
                "Distribution/completion.\(shell) is out of date: run `make distribution-files` and commit Distribution/")
    }
}
