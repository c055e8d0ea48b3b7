import Testing
import AutomatonCore
import TestSupport
@testable import Turnstile

/// The saved rule set (`compile -o`, `--automaton`): checksummed, carrying its
/// threshold, and loading word lists without building them again.
@Suite("Saved rule sets")
struct SavedRuleSetTests {
    static let words: Matcher.Options = {
        var o = Matcher.Options()
        o.syntax = .literal
        o.caseInsensitive = true
        o.wholeWord = true
        return o
    }()

    /// A small word list: every truncation and every single-byte change of its file is
    /// rejected with a typed error (the checksum covers every byte, the header fields
    /// are checked first), and the untouched file loads.
    @Test("every truncation and every single-byte change of a saved file is rejected")
    func everyDamageIsRejected() throws {
        let set = RuleSet(rules: [Rule("free", weight: 1.5), Rule("cash prize", weight: 2), Rule("lunch", weight: -1)],
                          options: Self.words, threshold: 2)
        let bytes = try set.serialized()
        #expect(try RuleSet(deserializing: bytes) == set)
        for length in 0..<bytes.count {
            #expect(throws: TurnstileError.self, "prefix of \(length) bytes") {
                _ = try RuleSet(deserializing: Array(bytes.prefix(length)))
            }
        }
        for index in bytes.indices {
            for change: UInt8 in [0x01, 0x80, 0xFF] {
                var damaged = bytes
                damaged[index] ^= change
                #expect(throws: TurnstileError.self, "byte \(index) xor \(change)") {
                    _ = try RuleSet(deserializing: damaged)
                }
            }
        }
        #expect(throws: TurnstileError.self) { _ = try RuleSet(deserializing: bytes + [0]) }
    }

    @Test("the checksum error says the file is damaged; CRC-32C has its standard check value")
    func checksumError() throws {
        #expect(CRC32C.checksum(Array("123456789".utf8)) == 0xE306_9283)
        var bytes = try RuleSet(rules: [Rule("x")], options: Self.words).serialized()
        bytes[bytes.count - 1] ^= 0x10
        #expect {
            _ = try RuleSet(deserializing: bytes)
        } throws: { error in
            String(describing: error).contains("damaged")
        }
    }

    /// The threshold travels with the rules, and a loaded word list judges with its
    /// saved automaton exactly as the freshly built filter does.
    @Test("threshold carried; the loaded built-in list gives the built-in verdicts")
    func builtInListRoundTrip() throws {
        let saved = try RuleSet(deserializing: RuleSet.standard.serialized())
        #expect(saved.threshold == DefaultSpamList.threshold)
        #expect(saved.loaded != nil, "a word list loads its automaton")
        let built = try RuleSet.standard.spamFilter()
        let loaded = try saved.spamFilter()
        #expect(loaded.threshold == built.threshold)
        var records = ["URGENT! You have won a 1 week FREE membership in our prize draw",
                       "Are we still on for lunch tomorrow?", "", "free free free", "Call now to claim your cash prize"]
        if let sms = SharedCorpora.lines("sms-spam/train.tsv") {
            records += sms.map { String($0.drop { $0 != "\t" }.dropFirst()) }
        } else {
            print("SavedRuleSetTests: ../shared/corpora/sms-spam/train.tsv is absent; checked the hand-made records only")
        }
        for record in records {
            let a = built.verdict(for: Array(record.utf8)), b = loaded.verdict(for: Array(record.utf8))
            #expect(a.isSpam == b.isSpam && a.score == b.score, "\(record)")
        }
    }

    @Test("regex rule sets save their rules and compile when loaded")
    func regexSets() throws {
        let set = RuleSet(rules: [Rule("a+b", weight: 3), Rule("c[0-9]", weight: 1)], options: Matcher.Options(), threshold: 3)
        let again = try RuleSet(deserializing: set.serialized())
        #expect(again == set && again.loaded == nil)
        #expect(try again.spamFilter().verdict(for: Array("xaab c7".utf8)).score == 4)
    }

    @Test("files of earlier formats (versions 1 to 3) are refused with the version error")
    func oldVersion() throws {
        #expect(RuleSet.version == 4)
        for old: UInt8 in [1, 2, 3] {
            var bytes = try RuleSet(rules: [Rule("x")], options: Self.words).serialized()
            bytes[8] = old  // the version field
            #expect {
                _ = try RuleSet(deserializing: bytes)
            } throws: { error in
                String(describing: error).contains("format version \(old)")
            }
        }
    }

    /// Random word lists (seeded): the loaded set's filter gives the built one's
    /// verdicts, score for score, on random records made of the lists' words.
    @Test("random word lists: loaded from the saved file, the filter judges as the built one")
    func randomListsLoadAsBuilt() throws {
        var rng = SplitMix64(seed: 20261204)
        let letters = Array("abcdefghij ".utf8)
        func word() -> String {
            String(decoding: (0..<(1 + rng.below(6))).map { _ in letters[rng.below(10)] }, as: UTF8.self)
        }
        for round in 0..<20 {
            let words = (0..<(1 + rng.below(60))).map { _ in word() + (rng.below(4) == 0 ? " " + word() : "") }
            let rules = words.map { Rule($0, weight: Double(rng.below(9)) - 3) }
            let set = RuleSet(rules: rules, options: Self.words, threshold: Double(1 + rng.below(4)))
            let saved = try RuleSet(deserializing: set.serialized())
            #expect(saved == set, "round \(round)")
            let built = try set.spamFilter(), loaded = try saved.spamFilter()
            for _ in 0..<30 {
                let record = (0..<rng.below(8)).map { _ in rng.below(3) == 0 ? word() : words[rng.below(words.count)] }
                    .joined(separator: rng.below(2) == 0 ? " " : ", ")
                let a = built.verdict(for: Array(record.utf8)), b = loaded.verdict(for: Array(record.utf8))
                #expect(a.isSpam == b.isSpam && a.score == b.score, "round \(round): \(record)")
            }
        }
    }

    /// The rule set's checksum covers the automaton inside it, so its nested
    /// containers are not checksummed again; a hand-made file (a byte of the embedded
    /// automaton changed, the outer checksum recomputed) must then be refused by the
    /// field checks or load into a filter that judges safely, never trap.
    @Test("a changed byte inside the saved automaton, resealed: refused or safe to judge")
    func nestedChangeResealed() throws {
        let set = RuleSet(rules: [Rule("free", weight: 1.5), Rule("cash prize", weight: 2), Rule("lunch", weight: -1),
                                  Rule("win", weight: 1)], options: Self.words, threshold: 2)
        let bytes = try set.serialized()
        // The automaton (literal container, then its DFA's) is the file's tail.
        var rng = SplitMix64(seed: 53)
        let start = bytes.count - 600
        #expect(start > SavedContainer.headerSize)
        var refused = 0
        for index in start..<bytes.count {
            var damaged = bytes
            damaged[index] ^= UInt8(1 + rng.below(255))
            do {
                let loaded = try RuleSet(deserializing: SavedContainer.resealed(damaged)).spamFilter()
                for record in ["free cash prize", "lunch win", "", "winwin free", "cash  prize lunch"] {
                    _ = loaded.verdict(for: Array(record.utf8))
                }
            } catch {
                refused += 1
            }
        }
        #expect(refused > 0, "some changes inside the automaton are caught by its field checks")
    }
}
