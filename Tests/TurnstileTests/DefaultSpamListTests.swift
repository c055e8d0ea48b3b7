import Foundation
import AutomatonCore
import Testing
import TestSupport
@testable import Turnstile

@Suite("The embedded default spam list")
struct DefaultSpamListTests {
    @Test("Generated/DefaultSpamList.swift is the generated copy of Corpora/spam/default-words.txt")
    func generatedFileIsCurrent() throws {
        let url = SharedCorpora.ownCorpora.appendingPathComponent("spam/default-words.txt")
        let onDisk = try #require(FileManager.default.contents(atPath: url.path), "missing \(url.path)")
        #expect(Array(DefaultSpamList.source.utf8) == [UInt8](onDisk),
                "Sources/Turnstile/Generated/DefaultSpamList.swift is stale: run Scripts/generate-default-list.sh")
    }

    @Test("Generated/DefaultSpamList.swift is exactly what Scripts/generate-default-list.sh writes")
    func generatedFileIsTheScriptOutput() throws {
        let root = SharedCorpora.repositoryRoot
        let out = FileManager.default.temporaryDirectory
            .appendingPathComponent("DefaultSpamList-\(UInt64.random(in: 0...UInt64.max)).swift")
        defer { try? FileManager.default.removeItem(at: out) }
        let script = try ChildProcess.run("/bin/sh", [root.appendingPathComponent("Scripts/generate-default-list.sh").path, out.path], stdin: nil)
        #expect(script.status == 0, "\(script.err)")
        let generated = try #require(FileManager.default.contents(atPath: out.path))
        let checkedIn = try #require(FileManager.default.contents(
            atPath: root.appendingPathComponent("Sources/Turnstile/Generated/DefaultSpamList.swift").path))
        #expect(generated == checkedIn, "run Scripts/generate-default-list.sh")
    }

    @Test("the list parses, has 1000-3000 distinct entries, weights of both signs and its own threshold")
    func listIsWellFormed() throws {
        let rules = try RuleFile.parse(Array(DefaultSpamList.source.utf8), source: "default-words.txt")
        #expect(rules == DefaultSpamList.rules)
        #expect((1000...3000).contains(rules.count))
        let lowered = rules.map { String(decoding: $0.pattern, as: UTF8.self).lowercased() }
        #expect(Set(lowered).count == lowered.count, "duplicate entries")
        // Trained weights: smoothed log-odds, positive for spam words, negative for ham words.
        #expect(rules.allSatisfy { $0.weight != 0 && abs($0.weight) <= 10 })
        #expect(rules.contains { $0.weight < 0 } && rules.contains { $0.weight > 0 })
        #expect(DefaultSpamList.threshold > 1)
        #expect(RuleFile.proposedThreshold(in: Array(DefaultSpamList.source.utf8)) == DefaultSpamList.threshold)
        #expect(rules.allSatisfy { rule in rule.pattern.first.map(isASCIIWordByte) == true
            && rule.pattern.last.map(isASCIIWordByte) == true },
            "whole-word entries must start and end with a word byte")
    }

    @Test("the standard filter: spam words, case folding, whole words only")
    func standardFilter() throws {
        let filter = try SpamFilter.standard()
        #expect(filter.verdict(for: "URGENT! Claim your prize now").isSpam)
        #expect(filter.verdict(for: "WINNER!! call now").isSpam)
        #expect(!filter.verdict(for: "lunch at noon?").isSpam)
        #expect(!filter.verdict(for: "the winners' table").isSpam, "'winners' is not the word 'winner'")
        #expect(!filter.verdict(for: "it is urgent").isSpam, "one spam word alone stays below the threshold")
        #expect(!filter.verdict(for: "WINNER").isSpam)
        #expect(filter.verdict(for: "URGENT! Limited time: call now to claim").isSpam, "several spam words add up")
        #expect(filter.threshold == DefaultSpamList.threshold)
        #expect(filter.matcher.representation == .ahoCorasick)
    }

    @Test("the sample messages file has both spam and clean lines")
    func sampleMessages() throws {
        let url = SharedCorpora.ownCorpora.appendingPathComponent("messages/sample.txt")
        let text = try #require(FileManager.default.contents(atPath: url.path))
        let lines = String(decoding: text, as: UTF8.self).split(separator: "\n")
        let filter = try SpamFilter.standard()
        let spam = lines.filter { filter.verdict(for: String($0)).isSpam }.count
        #expect(lines.count >= 20)
        #expect(spam >= 5 && lines.count - spam >= 5)
    }
}
