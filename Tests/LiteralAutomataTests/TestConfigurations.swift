import AutomatonCore
import LiteralAutomata
import TestSupport

/// One way of building a literal searcher: every engine and representation that
/// claims the literal semantics, with and without the prefilter.
struct LiteralConfiguration: CustomStringConvertible, Sendable {
    enum Engine: String, Sendable { case ahoCorasick, kmp }
    var engine: Engine
    var representation: LiteralRepresentation
    var prefilter: Bool

    var description: String {
        engine == .kmp ? "KMP(prefilter: \(prefilter))"
            : "AhoCorasick(\(representation), prefilter: \(prefilter))"
    }

    /// Every Aho-Corasick configuration.
    static let ahoCorasick: [LiteralConfiguration] = [
        .init(engine: .ahoCorasick, representation: .dense, prefilter: false),
        .init(engine: .ahoCorasick, representation: .dense, prefilter: true),
        .init(engine: .ahoCorasick, representation: .compact, prefilter: false),
        .init(engine: .ahoCorasick, representation: .compact, prefilter: true),
    ]
    /// KMP (single pattern only).
    static let kmp: [LiteralConfiguration] = [
        .init(engine: .kmp, representation: .dense, prefilter: false),
        .init(engine: .kmp, representation: .dense, prefilter: true),
    ]

    /// Configurations that accept `patternCount` patterns.
    static func all(patternCount: Int) -> [LiteralConfiguration] {
        patternCount == 1 ? ahoCorasick + kmp : ahoCorasick
    }

    /// The searcher's matches over `haystack`.
    func matches(_ patterns: [[UInt8]], kind: MatchKind, caseInsensitive: Bool, wholeWord: Bool,
                 haystack: [UInt8]) throws -> [Match] {
        switch engine {
        case .kmp:
            return try KMP(patterns[0], matchKind: kind, asciiCaseInsensitive: caseInsensitive,
                           wholeWord: wholeWord, prefilter: prefilter).matches(in: haystack)
        case .ahoCorasick:
            return try build(patterns, kind: kind, caseInsensitive: caseInsensitive, wholeWord: wholeWord)
                .matches(in: haystack)
        }
    }

    func build(_ patterns: [[UInt8]], kind: MatchKind, caseInsensitive: Bool, wholeWord: Bool) throws -> AhoCorasick {
        try AhoCorasick.Builder().matchKind(kind).asciiCaseInsensitive(caseInsensitive).wholeWord(wholeWord)
            .prefilter(prefilter).representation(representation).build(patterns)
    }
}

extension MatchKind {
    var naive: NaiveLiteralMatcher.Kind {
        switch self {
        case .overlapping: return .overlapping
        case .leftmostFirst: return .leftmostFirst
        case .leftmostLongest: return .leftmostLongest
        }
    }

    init?(caseName: String?) {
        switch caseName ?? "leftmost-first" {
        case "leftmost-first": self = .leftmostFirst
        case "leftmost-longest": self = .leftmostLongest
        case "overlapping", "standard": self = .overlapping
        default: return nil
        }
    }
}

/// Renders bytes for failure messages (ASCII as is, others as \xNN).
func show(_ bytes: [UInt8]) -> String {
    var s = "\""
    for b in bytes {
        if b >= 0x20 && b < 0x7F && b != 0x22 && b != 0x5C { s.append(Character(UnicodeScalar(b))) }
        else { s += "\\x" + String(b, radix: 16) }
    }
    return s + "\""
}

func show(_ patterns: [[UInt8]]) -> String { "[" + patterns.map(show).joined(separator: ", ") + "]" }

extension SeededGenerator {
    /// A random string over `alphabet` of length 0...maxLength.
    mutating func bytes(from alphabet: [UInt8], maxLength: Int) -> [UInt8] {
        let n = Int.random(in: 0...maxLength, using: &self)
        return (0..<n).map { _ in alphabet[Int.random(in: 0..<alphabet.count, using: &self)] }
    }
}
