import Foundation
import Testing
import TestSupport
@testable import Turnstile

@Suite("The embedded default spam list")
struct DefaultSpamListTests {
    @Test("DefaultSpamList.swift is the generated copy of Corpora/spam/default-words.txt")
    func generatedFileIsCurrent() throws {
        let url = SharedCorpora.ownCorpora.appendingPathComponent("spam/default-words.txt")
        let onDisk = try #require(FileManager.default.contents(atPath: url.path), "missing \(url.path)")
        #expect(Array(DefaultSpamList.source.utf8) == [UInt8](onDisk),
                "Sources/Turnstile/DefaultSpamList.swift is stale: run Scripts/generate-default-list.sh")
    }

    @Test("the list parses, has 60-150 distinct entries and positive weights")
    func listIsWellFormed() throws {
        let rules = try RuleFile.parse(Array(DefaultSpamList.source.utf8), source: "default-words.txt")
        #expect(rules == DefaultSpamList.rules)
        #expect((60...150).contains(rules.count))
        let lowered = rules.map { String(decoding: $0.pattern, as: UTF8.self).lowercased() }
        #expect(Set(lowered).count == lowered.count, "duplicate entries")
        #expect(rules.allSatisfy { $0.weight > 0 && $0.weight <= 1 })
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
        #expect(!filter.verdict(for: "it is urgent").isSpam, "urgent alone weighs 0.5")
        #expect(filter.verdict(for: "urgent: limited time").isSpam, "two half-weight words reach 1")
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
