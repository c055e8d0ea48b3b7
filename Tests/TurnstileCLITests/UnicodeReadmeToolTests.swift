import Foundation
import Testing
import TestSupport

/// The README's Unicode examples (the ```sh block after `<!-- unicode examples -->`) print
/// what the tools users know print: each `turnstile match …` what `rg …` prints (rg's
/// `\w` and classes are Unicode, so `--ucp` is dropped for it), each `turnstile grep …`
/// what GNU grep prints, under `LC_ALL=C.UTF-8` and under `LC_ALL=C`. Other commands
/// (writing the sample file, `filter`) run as setup. ReadmeCommandTests checks that the
/// README shows what turnstile prints.
@Suite struct UnicodeReadmeToolTests {
    static let commands: [String] = {
        let url = SharedCorpora.repositoryRoot.appendingPathComponent("README.md")
        guard let text = try? String(contentsOf: url, encoding: .utf8),
              let marker = text.range(of: "<!-- unicode examples -->") else { return [] }
        var out: [String] = []
        var inShell = false
        for line in text[marker.upperBound...].components(separatedBy: "\n") {
            if !inShell {
                if line == "```sh" { inShell = true }
                continue
            }
            if line == "```" { break }
            if line.hasPrefix("$ ") { out.append(String(line.dropFirst(2))) }
        }
        return out
    }()

    static func run(_ command: String, in dir: URL, locale: String) throws -> String {
        var env = CLI.childEnvironment
        env["PATH"] = CLI.binary.deletingLastPathComponent().path + ":" + (env["PATH"] ?? "/usr/bin:/bin")
        env["LC_ALL"] = locale
        env["NO_COLOR"] = "1"
        let r = try ChildProcess.run("/bin/bash", ["-c", command], stdin: nil, environment: env, directory: dir,
                                     mergingErrors: true)
        return r.out + "exit \(r.status)\n"
    }

    @Test func theReadmeUnicodeExamplesAgreeWithGNUGrep() throws {
        #expect(Self.commands.count >= 6, "README.md should hold the Unicode examples after <!-- unicode examples -->")
        let scratch = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        var compared = 0
        for command in Self.commands where !command.hasPrefix("turnstile match ") {
            if command.hasPrefix("turnstile grep ") {
                let grep = "/usr/bin/grep " + command.dropFirst("turnstile grep ".count)
                for locale in ["C.UTF-8", "C"] {
                    #expect(try Self.run(command, in: scratch, locale: locale) == (try Self.run(grep, in: scratch, locale: locale)),
                            "`\(command)` and GNU grep under LC_ALL=\(locale)")
                }
                compared += 1
            } else {
                _ = try Self.run(command, in: scratch, locale: "C.UTF-8")
            }
        }
        #expect(compared >= 2)
    }

    @Test(.enabled(if: CLI.ripgrep != nil, "rg is not installed (make deps installs ripgrep)"))
    func theReadmeUnicodeExamplesAgreeWithRg() throws {
        let scratch = try CLI.temporaryDirectory()
        defer { try? FileManager.default.removeItem(at: scratch) }
        var compared = 0
        for command in Self.commands {
            if command.hasPrefix("turnstile match ") {
                let ours = try Self.run(command, in: scratch, locale: "C.UTF-8")
                let rg = "rg " + command.dropFirst("turnstile match ".count).replacingOccurrences(of: "--ucp ", with: "")
                #expect(ours == (try Self.run(rg, in: scratch, locale: "C.UTF-8")), "`\(command)` and `\(rg)`")
                compared += 1
            } else {
                _ = try Self.run(command, in: scratch, locale: "C.UTF-8")
            }
        }
        #expect(compared >= 4)
    }
}
