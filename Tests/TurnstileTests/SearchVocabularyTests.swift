import Foundation
import Testing
import TestSupport
import Turnstile
import AutomatonCore
import LiteralAutomata
import RegexAutomata

/// The one search vocabulary (`MatchSearcher`): every entry point, over every haystack
/// type, must give exactly the matches of the existing array API over an
/// `UnsafeBufferPointer` — on a seeded random corpus dense enough in matches that the
/// lazy sequence resumes across many batches.
@Suite("Search vocabulary: lazy matches, forEachMatch, count over every haystack type")
struct SearchVocabularyTests {
    /// A searcher under test and the reference: its array API over an UnsafeBufferPointer.
    struct Subject {
        var name: String
        var check: (String, inout [String]) -> Void
    }

    /// Random text over a small alphabet (so matches are dense), with a non-ASCII
    /// scalar now and then so String indices and UTF-8 offsets differ.
    static func text(_ rng: inout SeededGenerator, count: Int) -> String {
        let pieces = ["a", "b", "ab", "ba", " ", "abba", "é", "B", "aa", "-"]
        var s = ""
        for _ in 0..<count { s += pieces[Int(rng.next() % UInt64(pieces.count))] }
        return s
    }

    static func word(_ rng: inout SeededGenerator) -> String {
        let letters = ["a", "b", "B", "é"]
        let n = 1 + Int(rng.next() % 4)
        return (0..<n).map { _ in letters[Int(rng.next() % UInt64(letters.count))] }.joined()
    }

    /// Checks every entry point of `searcher` against `reference` (the array API).
    static func check<S: MatchSearcher>(_ searcher: S, _ text: String, reference: ([UInt8]) -> [Match],
                                        _ failures: inout [String], _ label: String) {
        let bytes = Array(text.utf8)
        let expected = reference(bytes)
        func expect(_ got: [Match], _ what: String) {
            if got != expected { failures.append("\(label) \(what): \(got.count) matches, expected \(expected.count)") }
        }
        expect(Array(searcher.matches(in: text)), "String")
        expect(Array(searcher.matches(in: text[...])), "Substring")
        expect(Array(searcher.matches(in: bytes)), "[UInt8]")
        expect(Array(searcher.matches(in: bytes[...])), "ArraySlice")
        expect(Array(searcher.matches(in: Data(bytes))), "Data")
        expect(Array(searcher.matches(in: bytes.lazy.map { $0 })), "non-contiguous collection")
        bytes.withUnsafeBufferPointer { buffer in
            expect(Array(searcher.matches(in: buffer)), "UnsafeBufferPointer")
            expect(Array(searcher.matches(in: UnsafeRawBufferPointer(buffer))), "UnsafeRawBufferPointer")
        }
        var each: [Match] = []
        searcher.forEachMatch(in: text) { each.append($0); return true }
        expect(each, "forEachMatch(String)")
        each = []
        searcher.forEachMatch(in: Data(bytes)) { each.append($0); return true }
        expect(each, "forEachMatch(Data)")
        // Early stop: exactly the first k.
        let k = expected.count / 3
        var firstK: [Match] = []
        searcher.forEachMatch(in: bytes[...]) { firstK.append($0); return firstK.count < max(k, 1) }
        if firstK != Array(expected.prefix(max(k, 1))) { failures.append("\(label) forEachMatch early stop at \(k)") }
        if Array(searcher.matches(in: text).prefix(k)) != Array(expected.prefix(k)) {
            failures.append("\(label) lazy prefix(\(k))")
        }
        if searcher.count(in: text) != expected.count || searcher.count(in: Data(bytes)) != expected.count {
            failures.append("\(label) count")
        }
        if searcher.matches(in: text).count != expected.count { failures.append("\(label) matches.count") }
        if searcher.isMatch(in: text[...]) != !expected.isEmpty || searcher.isMatch(in: Data(bytes)) != !expected.isEmpty {
            failures.append("\(label) isMatch")
        }
        if searcher.firstMatch(in: bytes[...]) != expected.first || searcher.matches(in: text).first != expected.first {
            failures.append("\(label) firstMatch")
        }
        // Substrings of a String haystack are the matched bytes.
        for m in expected.prefix(50) where m.substring(in: text).utf8.elementsEqual(bytes[m.range]) == false {
            failures.append("\(label) substring(in:) of \(m)")
        }
        // A Substring in the middle is its own haystack: offsets from its start.
        let start = text.index(text.startIndex, offsetBy: text.count / 3)
        let middle = text[start...]
        let middleExpected = reference(Array(middle.utf8))
        if Array(searcher.matches(in: middle)) != middleExpected { failures.append("\(label) middle Substring") }
        for m in middleExpected.prefix(50) where !m.substring(in: middle).utf8.elementsEqual(Array(middle.utf8)[m.range]) {
            failures.append("\(label) substring(in: Substring) of \(m)")
        }
    }

    @Test("AhoCorasick, KMP, RegexAutomaton and Matcher agree with their array API on a seeded corpus")
    func everyEntryPointAgrees() throws {
        var rng = SeededGenerator(defaultSeed: 0x5EA7C4)
        print("SearchVocabularyTests seed \(rng.seed)")
        var failures: [String] = []
        for round in 0..<12 {
            let text = Self.text(&rng, count: 600 + Int(rng.next() % 600))
            let words = (0..<(2 + Int(rng.next() % 5))).map { _ in Self.word(&rng) } + (round % 4 == 0 ? [""] : [])
            let label = "seed \(rng.seed) round \(round) words \(words)"
            for kind in [MatchKind.leftmostFirst, .leftmostLongest, .overlapping] {
                for (ci, ww) in [(false, false), (true, false), (false, true), (true, true)] {
                    let ac = try AhoCorasick(words, matchKind: kind, asciiCaseInsensitive: ci, wholeWord: ww)
                    Self.check(ac, text, reference: { b in b.withUnsafeBufferPointer { ac.matches(in: $0) } },
                               &failures, "\(label) AC \(kind) ci \(ci) ww \(ww)")
                    let compact = try AhoCorasick.Builder().matchKind(kind).asciiCaseInsensitive(ci).wholeWord(ww)
                        .representation(.compact).build(words)
                    Self.check(compact, text, reference: { b in b.withUnsafeBufferPointer { compact.matches(in: $0) } },
                               &failures, "\(label) compact AC \(kind) ci \(ci) ww \(ww)")
                    let kmp = try KMP(words[0], matchKind: kind, asciiCaseInsensitive: ci, wholeWord: ww)
                    Self.check(kmp, text, reference: { b in kmp.matches(in: b) as [Match] },
                               &failures, "\(label) KMP \(kind) ci \(ci) ww \(ww)")
                    var options = Matcher.Options()
                    options.syntax = .literal
                    options.matchKind = kind
                    options.caseInsensitive = ci
                    options.wholeWord = ww
                    for patterns in [[words[0]], words] {
                        let matcher = try Matcher(patterns: patterns, options: options)
                        Self.check(matcher, text, reference: { b in matcher.matches(in: b) as [Match] },
                                   &failures, "\(label) Matcher \(matcher.representation) \(kind) ci \(ci) ww \(ww)")
                    }
                }
            }
            let alternation = words.map { NSRegularExpression.escapedPattern(for: $0) }.joined(separator: "|")
            for pattern in [alternation, "a*", "(?:ab|b)+", "\\bb?a*\\b", "[^ ]+é?"] {
                for bytesMode in [false, true] {
                    let regex = try RegexCompiler().bytes(bytesMode).compile(pattern)
                    Self.check(regex, text, reference: { b in b.withUnsafeBufferPointer { regex.matches(in: $0) } },
                               &failures, "\(label) regex /\(pattern)/ bytes \(bytesMode)")
                }
                var options = Matcher.Options()
                options.caseInsensitive = true
                let matcher = try Matcher(patterns: [pattern, "ba"], options: options)
                Self.check(matcher, text, reference: { b in matcher.matches(in: b) as [Match] },
                           &failures, "\(label) Matcher regex /\(pattern)/")
            }
        }
        #expect(failures.isEmpty, "\(failures.count) failures, first: \(failures.prefix(5))")
    }

    @Test("one-step construction equals the builders")
    func oneStepConstruction() throws {
        let text = "Win a FREE prize: free entry, prizes https://example.org and http://a.b"
        let ac = try AhoCorasick(["free", "prize"], asciiCaseInsensitive: true)
        let built = try AhoCorasick.Builder().asciiCaseInsensitive(true).build(["free", "prize"])
        #expect(Array(ac.matches(in: text)) == built.matches(in: text) as [Match])
        let regex = try RegexAutomaton("https?://[a-z.]+")
        let compiled = try RegexCompiler().compile("https?://[a-z.]+")
        #expect(Array(regex.matches(in: text)) == compiled.matches(in: text) as [Match])
        #expect(regex.matches(in: text).map { String($0.substring(in: text)) } == ["https://example.org", "http://a.b"])
        let kmp = try KMP("free")
        #expect(kmp.count(in: text) == 1)
    }
}

/// Code written against the array-returning `matches(in:)` keeps compiling and
/// returning the same arrays (the README promises it).
@Suite("Search vocabulary: the array API still answers where an array is needed")
struct ArrayAPICompatibilityTests {
    @Test func arrayUsesPickTheArrayOverload() throws {
        let ac = try AhoCorasick(["ab", "b"])
        let text = "abab b"
        let all: [Match] = ac.matches(in: text)
        #expect(ac.matches(in: text)[0] == all[0])
        #expect(ac.matches(in: text) == all)
        #expect(ac.matches(in: Array(text.utf8)) == Array(ac.matches(in: text)))
        var sorted = ac.matches(in: text) as [Match]
        sorted.sort { $0.end > $1.end }
        #expect(sorted.count == 3 && all.count == 3 && sorted.first?.end == 6)
    }
}
