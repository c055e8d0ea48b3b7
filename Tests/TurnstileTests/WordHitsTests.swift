import AutomatonCore
import CLiteralSIMD
import Foundation
import Testing
import TestSupport
@testable import Turnstile

/// The whole-word set (SearchStrategy+WordHits.swift) and the block tally built on it
/// (RecordJudge+Blocks.swift): the hits are the matcher's overlapping whole-word
/// matches and a naive search's, and a block's tally is each record's verdict judged
/// on its own — on generated lists and text (fixed seed, printed on failure) and on
/// the built-in list over real subtitles.
@Suite("Whole-word set and block tally")
struct WordHitsTests {
    /// The word-run walk's 64-byte mask (`tl_word_byte_bits64`, SSE2 on x86-64) says of
    /// every byte value, at every position of the window, what `isASCIIWordByte` says.
    @Test func wordByteBitsAreTheWordBytes() {
        for position in 0..<64 {
            for value in 0...255 {
                var window = [UInt8](repeating: UInt8(ascii: " "), count: 64)
                window[position] = UInt8(value)
                let bits = window.withUnsafeBufferPointer { tl_word_byte_bits64($0.baseAddress!) }
                let expected: UInt64 = isASCIIWordByte(UInt8(value)) ? 1 << UInt64(position) : 0
                #expect(bits == expected, "byte \(value) at \(position)")
            }
        }
    }

    static func options(caseInsensitive: Bool, unicode: Bool) -> Matcher.Options {
        var o = Matcher.Options()
        o.syntax = .literal
        o.caseInsensitive = caseInsensitive
        o.wholeWord = true
        o.matchKind = .overlapping
        o.unicodeWords = unicode
        // A short list gets a prefilter, and with it the engine's own search.
        o.prefilter = false
        return o
    }

    static let vocabulary = ["free", "FREE", "cash", "prize", "cash prize", "a", "i", "u", "po box", "t&cs apply",
                             "100% free", "you've won", "congratulations", "congratulation", "win", "winner",
                             "abcdefghij", "abcdefghijk", "x_y", "4u", "2", "txt", "stop", "txt stop"]
    static let fillers = [" ", "  ", ", ", ".", "!", "-", "\n", "é", "ß", "日本", "_", "'", "%", "&", "\t", "the", "Cash",
                          "WINNER", "réfree", "freeé", "Txt  stop", "po  box", "po box", "ABCDEFGHIJ", "win_", "9"]

    /// `count` distinct-ish patterns from the vocabulary (some equal ignoring case).
    static func patterns(_ random: inout SeededGenerator, count: Int) -> [[UInt8]] {
        (0..<count).map { _ in Array(vocabulary.randomElement(using: &random)!.utf8) }
    }

    static func text(_ random: inout SeededGenerator, pieces: Int) -> [UInt8] {
        var text: [UInt8] = []
        for _ in 0..<pieces {
            let piece = Bool.random(using: &random) ? vocabulary.randomElement(using: &random)! : fillers.randomElement(using: &random)!
            text.append(contentsOf: piece.utf8)
            if Int.random(in: 0..<3, using: &random) == 0 { text.append(UInt8(ascii: " ")) }
        }
        return text
    }

    /// The naive reference: every occurrence of every pattern with no word character
    /// (ASCII, or any letter or digit when `unicode`) on either side.
    static func naiveHits(_ patterns: [[UInt8]], in text: [UInt8], caseInsensitive: Bool, unicode: Bool) -> [[Int]] {
        func fold(_ b: UInt8) -> UInt8 { caseInsensitive && b >= 0x41 && b <= 0x5A ? b | 0x20 : b }
        func isWordByte(_ b: UInt8) -> Bool { b == UInt8(ascii: "_") || (b < 0x80 && Character(Unicode.Scalar(b)).isLetter) || (b >= 0x30 && b <= 0x39) }
        var hits: [[Int]] = []
        text.withUnsafeBufferPointer { h in
            for (id, p) in patterns.enumerated() where p.count <= h.count {
                for start in 0...(h.count - p.count) {
                    guard (0..<p.count).allSatisfy({ fold(h[start + $0]) == fold(p[$0]) }) else { continue }
                    let end = start + p.count
                    let whole = unicode ? WordCharacters.isWholeWord(start..<end, in: h)
                        : !(start > 0 && isWordByte(h[start - 1])) && !(end < h.count && isWordByte(h[end]))
                    if whole { hits.append([id, start, end]) }
                }
            }
        }
        return hits.sorted { $0.lexicographicallyPrecedes($1) }
    }

    struct Collect: WordHitVisitor {
        var hits: [[Int]] = []
        mutating func hit(pattern: Int, start: Int, end: Int) -> Bool {
            hits.append([pattern, start, end])
            return true
        }
    }

    /// The set's hits in `text`, each equal pattern's id added beside the one reported.
    static func expandedHits(_ set: WholeWordSet, _ text: [UInt8]) -> [[Int]] {
        var collect = Collect()
        text.withUnsafeBufferPointer { set.forEachHit(in: $0, into: &collect) }
        var expanded: [[Int]] = []
        if let equal = set.equalPatterns() {
            for hit in collect.hits {
                for k in equal.start[hit[0]]..<equal.start[hit[0] + 1] { expanded.append([equal.list[k], hit[1], hit[2]]) }
            }
        } else {
            expanded = collect.hits
        }
        return expanded
    }

    @Test("the set's hits, equal patterns expanded, are the matcher's and a naive search's", arguments: [false, true])
    func hitsAreTheMatchersMatches(caseInsensitive: Bool) throws {
        var random = SeededGenerator(defaultSeed: 52)
        for round in 0..<150 {
            for unicode in [false, true] {
                let patterns = Self.patterns(&random, count: Int.random(in: 2...12, using: &random))
                let text = Self.text(&random, pieces: Int.random(in: 0...60, using: &random))
                let matcher = try Matcher(bytePatterns: patterns, options: Self.options(caseInsensitive: caseInsensitive, unicode: unicode))
                let set = try #require(matcher.strategy.wholeWordSet, "seed \(random.seed) round \(round): the strategy is on")
                let expanded = Self.expandedHits(set, text)
                let ours = Set(expanded).sorted { $0.lexicographicallyPrecedes($1) }
                let engine = matcher.matches(in: text).map { [$0.pattern, $0.start, $0.end] }.sorted { $0.lexicographicallyPrecedes($1) }
                let naive = Self.naiveHits(patterns, in: text, caseInsensitive: caseInsensitive, unicode: unicode)
                let context = "seed \(random.seed) round \(round) unicode \(unicode) patterns \(patterns.map { String(decoding: $0, as: UTF8.self) }) text \(String(decoding: text, as: UTF8.self).debugDescription)"
                #expect(ours == engine, "\(context)")
                #expect(ours == naive, "\(context)")
            }
        }
    }

    @Test("the strategy is off where its rule is not grep's -w over runs: no -w, a regex, a word edged with a non-word byte")
    func strategyOff() throws {
        var plain = Self.options(caseInsensitive: true, unicode: false)
        plain.wholeWord = false
        #expect(try Matcher(bytePatterns: [Array("free".utf8), Array("cash".utf8)], options: plain).strategy.wholeWordSet == nil)
        var regex = Matcher.Options()
        regex.wholeWord = true
        #expect(try Matcher(patterns: ["fr.e", "cash"], options: regex).strategy.wholeWordSet == nil)
        let edged = try Matcher(bytePatterns: [Array("free!".utf8), Array("cash".utf8)], options: Self.options(caseInsensitive: true, unicode: false))
        #expect(edged.strategy.wholeWordSet == nil)
        let filter = try SpamFilter(rules: [Rule("fr.e", weight: 1), Rule("cash", weight: 1)], options: regex)
        #expect(!RecordJudge(filter).canTallyRecords(delimiter: 0x0A))
    }

    /// Each record of `block` (split on `\n`) judged on its own: (records, spam).
    static func judgedOneByOne(_ filter: SpamFilter, _ block: [UInt8]) -> (Int, Int) {
        var judge = RecordJudge(filter, recordingHits: false)
        var records = block.split(separator: 0x0A, omittingEmptySubsequences: false).map(Array.init)
        if block.last == 0x0A || block.isEmpty { records.removeLast() }
        let spam = records.filter { r in r.withUnsafeBufferPointer { _ = judge.judge($0) }; return judge.isSpam }.count
        return (records.count, spam)
    }

    @Test("a block's tally is its records judged one by one (sum and chi-square, negative weights)",
          arguments: [ScoreModel.sum, ScoreModel.chiSquare])
    func tallyIsPerRecordVerdicts(model: ScoreModel) throws {
        var random = SeededGenerator(defaultSeed: 520)
        for round in 0..<150 {
            let patterns = Self.patterns(&random, count: Int.random(in: 2...12, using: &random))
            let rules = patterns.map { Rule(pattern: $0, weight: Double(Int.random(in: -20...30, using: &random)) / 10) }
            let filter = try SpamFilter(rules: rules, options: Self.options(caseInsensitive: true, unicode: true),
                                        threshold: model == .sum ? 1.5 : 0.9, model: model)
            var judge = RecordJudge(filter, recordingHits: false)
            var block = Self.text(&random, pieces: Int.random(in: 0...120, using: &random))
            if Bool.random(using: &random) { block.append(0x0A) }
            guard judge.canTallyRecords(delimiter: 0x0A) else {
                #expect(!judge.recordWithoutMatchesIsClean, "seed \(random.seed) round \(round)")
                continue
            }
            let tally = block.withUnsafeBufferPointer { judge.tallyRecords(in: $0, delimiter: 0x0A) }
            let expected = Self.judgedOneByOne(filter, block)
            #expect(tally.records == expected.0 && tally.spam == expected.1,
                    "seed \(random.seed) round \(round): \(tally) against \(expected)")
        }
    }

    static let subtitles = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
        "../../../shared/corpora/rebar/opensubtitles/en-sampled.txt").standardized.path

    @Test("the built-in list over real subtitles: the tally is the per-record verdicts",
          .enabled(if: FileManager.default.fileExists(atPath: subtitles), "needs ../shared/corpora/rebar (SOURCES.md)"))
    func builtInListOnSubtitles() throws {
        let text = Array(try Data(contentsOf: URL(fileURLWithPath: Self.subtitles)))
        let filter = try SpamFilter.standard()
        var judge = RecordJudge(filter, recordingHits: false)
        #expect(judge.canTallyRecords(delimiter: 0x0A))
        let tally = text.withUnsafeBufferPointer { judge.tallyRecords(in: $0, delimiter: 0x0A) }
        let expected = Self.judgedOneByOne(filter, text)
        #expect(tally.records == expected.0)
        #expect(tally.spam == expected.1)
        #expect(tally.spam > 0 && tally.spam < tally.records)
    }
    static let corpora = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent(
        "../../../shared/corpora").standardized.path

    /// The set's hits (equal patterns expanded) against the matcher's overlapping matches,
    /// and the block tally against the records judged one by one: the fast path and the
    /// existing path of `filter --count` on `text` with `filter`'s list.
    static func expectFastPathIsTheMatcher(_ filter: SpamFilter, _ text: [UInt8], _ context: String, real: Bool) throws {
        let set = try #require(filter.matcher.strategy.wholeWordSet, "\(context): the list is a whole-word set")
        let expanded = expandedHits(set, text)
        let ours = expanded.sorted { $0.lexicographicallyPrecedes($1) }
        let engine = filter.matcher.matches(in: text).map { [$0.pattern, $0.start, $0.end] }
            .sorted { $0.lexicographicallyPrecedes($1) }
        if real { #expect(!engine.isEmpty, "\(context): the text holds some of the list's words") }
        #expect(ours.count == engine.count, "\(context): \(ours.count) hits against \(engine.count) matches")
        if ours != engine, let k = zip(ours, engine).enumerated().first(where: { $0.element.0 != $0.element.1 })?.offset {
            Issue.record("\(context): hit \(k) is \(ours[k]), the matcher's \(engine[k])")
        }
        var judge = RecordJudge(filter, recordingHits: false)
        let tally = text.withUnsafeBufferPointer { judge.tallyRecords(in: $0, delimiter: 0x0A) }
        let expected = judgedOneByOne(filter, text)
        #expect(tally.records == expected.0 && tally.spam == expected.1, "\(context): \(tally) against \(expected)")
    }

    @Test("the built-in list on real text (subtitles in three scripts, a novel, 2002 mail): fast path = matcher",
          .enabled(if: FileManager.default.fileExists(atPath: corpora + "/rebar") && FileManager.default.fileExists(atPath: corpora + "/spamassassin"),
                   "needs ../shared/corpora/rebar and spamassassin (SOURCES.md)"))
    func builtInListFastPathOnRealText() throws {
        let filter = try SpamFilter.standard()
        for file in ["rebar/opensubtitles/en-sampled.txt", "rebar/opensubtitles/ru-sampled.txt", "rebar/opensubtitles/zh-sampled.txt",
                     "rebar/sherlock.txt", "spamassassin/spam.mbox"] {
            var text = Array(try Data(contentsOf: URL(fileURLWithPath: Self.corpora + "/" + file)))
            if text.count > 1 << 20 { text = Array(text[..<(1 << 20)]) }
            try Self.expectFastPathIsTheMatcher(filter, text, file, real: true)
        }
    }

    @Test("the built-in list on random text of its own words and phrases: fast path = matcher")
    func builtInListFastPathOnRandomText() throws {
        let filter = try SpamFilter.standard()
        var random = SeededGenerator(defaultSeed: 5213)
        let words = filter.rules.map { String(decoding: $0.pattern, as: UTF8.self) }
        let fillers = Self.fillers + ["YOU", "You ", "to ", "No", "FREE  ", "Txt", "é"]
        for round in 0..<40 {
            var text: [UInt8] = []
            for _ in 0..<Int.random(in: 1...400, using: &random) {
                var piece = Bool.random(using: &random) ? words.randomElement(using: &random)! : fillers.randomElement(using: &random)!
                if Int.random(in: 0..<4, using: &random) == 0 { piece = piece.uppercased() }
                if Int.random(in: 0..<6, using: &random) == 0 { piece = String(piece.dropLast()) }
                text.append(contentsOf: piece.utf8)
                if Int.random(in: 0..<3, using: &random) != 0 { text.append(UInt8(ascii: " ")) }
            }
            guard !text.isEmpty else { continue }
            try Self.expectFastPathIsTheMatcher(filter, text, "seed \(random.seed) round \(round)", real: false)
        }
    }
}
