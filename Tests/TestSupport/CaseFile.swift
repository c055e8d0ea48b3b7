import Foundation

/// One data-driven test case from `Corpora/cases/*.json`: the schema every engine's
/// tests share (one file may hold many cases, as a JSON array).
///
/// ```json
/// {"name": "overlap", "patterns": ["abc", "bc"],
///  "options": {"matchKind": "leftmost-first", "caseInsensitive": true},
///  "haystack": "xabc", "expected": [[0, 1, 4]]}
/// ```
/// `expected` lists `[pattern, start, end]` triples in report order. `haystackHex`
/// may replace `haystack` for bytes that are not valid UTF-8.
public struct TestCase: Codable, Sendable, CustomStringConvertible {
    public struct Options: Codable, Sendable, Hashable {
        /// "leftmost-first" (default), "leftmost-longest" or "overlapping".
        public var matchKind: String?
        public var caseInsensitive: Bool?
        public var wholeWord: Bool?
        public var multiLine: Bool?
        public var dotAll: Bool?
        /// Regex bytes mode instead of UTF-8.
        public var bytes: Bool?
        public init() {}
    }

    public var name: String
    public var patterns: [String]
    public var options: Options?
    public var haystack: String?
    public var haystackHex: String?
    public var expected: [[Int]]

    /// The haystack bytes (from `haystackHex` when present).
    public var haystackBytes: [UInt8] {
        if let hex = haystackHex {
            var out: [UInt8] = []
            var chars = Array(hex.utf8).filter { $0 != UInt8(ascii: " ") }[...]
            while chars.count >= 2 {
                let pair = String(decoding: chars.prefix(2), as: UTF8.self)
                out.append(UInt8(pair, radix: 16) ?? 0)
                chars = chars.dropFirst(2)
            }
            return out
        }
        return Array((haystack ?? "").utf8)
    }

    /// Expected matches as (pattern, start, end).
    public var expectedMatches: [(pattern: Int, start: Int, end: Int)] {
        expected.map { ($0[0], $0[1], $0[2]) }
    }

    public var description: String { name }
}

/// Loads the case files under `Corpora/cases/`.
public enum CaseFile {
    /// All cases in `Corpora/cases/<name>`; a missing or malformed file is a fatal
    /// test-setup error (these files are ours and must parse).
    public static func load(_ name: String) -> [TestCase] {
        let url = SharedCorpora.ownCorpora.appendingPathComponent("cases").appendingPathComponent(name)
        guard let data = FileManager.default.contents(atPath: url.path) else {
            fatalError("missing case file \(url.path)")
        }
        do {
            return try JSONDecoder().decode([TestCase].self, from: data)
        } catch {
            fatalError("cannot parse \(url.path): \(error)")
        }
    }
}
