import Foundation
import Testing
import TestSupport
@testable import Turnstile

@Suite("The embedded default mail list")
struct DefaultMailListTests {
    @Test("Generated/DefaultMailList.swift is the generated copy of Corpora/spam/default-mail-words.txt")
    func generatedFileIsCurrent() throws {
        let url = SharedCorpora.ownCorpora.appendingPathComponent("spam/default-mail-words.txt")
        let onDisk = try #require(FileManager.default.contents(atPath: url.path), "missing \(url.path)")
        #expect(Array(DefaultMailList.source.utf8) == [UInt8](onDisk),
                "Sources/Turnstile/Generated/DefaultMailList.swift is stale: run Scripts/generate-default-mail-list.sh")
    }

    @Test("Generated/DefaultMailList.swift is exactly what Scripts/generate-default-mail-list.sh writes")
    func generatedFileIsTheScriptOutput() throws {
        let root = SharedCorpora.repositoryRoot
        let out = FileManager.default.temporaryDirectory
            .appendingPathComponent("DefaultMailList-\(UInt64.random(in: 0...UInt64.max)).swift")
        defer { try? FileManager.default.removeItem(at: out) }
        let script = try ChildProcess.run("/bin/sh", [root.appendingPathComponent("Scripts/generate-default-mail-list.sh").path, out.path], stdin: nil)
        #expect(script.status == 0, "\(script.err)")
        let generated = try #require(FileManager.default.contents(atPath: out.path))
        let checkedIn = try #require(FileManager.default.contents(
            atPath: root.appendingPathComponent("Sources/Turnstile/Generated/DefaultMailList.swift").path))
        #expect(generated == checkedIn, "run Scripts/generate-default-mail-list.sh")
    }

    @Test("the list parses; scoped tokens of every kind; a threshold above 0, so a message without its words is clean")
    func listIsWellFormed() throws {
        let rules = DefaultMailList.rules
        // 10,000 trained tokens and the built-in present-day rules.
        #expect((1000...11_000).contains(rules.count))
        #expect(rules.suffix(DefaultMailList.builtinRules.count).elementsEqual(DefaultMailList.builtinRules))
        let parts = Set(rules.map { MailScope(rulePattern: $0.pattern).part })
        #expect(parts.contains(.body) && parts.contains(.uri) && parts.contains(.header(Array("subject".utf8)))
                && parts.contains(.header(Array("from".utf8))))
        #expect(DefaultMailList.threshold > 0)
        #expect(RuleFile.proposedThreshold(in: Array(DefaultMailList.source.utf8)) == DefaultMailList.threshold)
        var judge = try MailJudge(rules: .standardMail, threshold: DefaultMailList.threshold)
        judge.judge(MailMessage(parsing: Array("Subject: zzqx\n\nqqzx vvxq\n".utf8)))
        #expect(judge.score == DefaultMailList.model.emptyScore && !judge.isSpam)
    }
}
