// The workload file (Corpora/bench/workloads.json), word lists sampled with a fixed
// seed, and the haystacks: shared corpora repeated in memory, or generated messages.

import AutomatonCore
import Foundation

struct WorkloadFile: Decodable {
    var haystacks: [String: HaystackSpec]
    var workloads: [Workload]
}

struct HaystackSpec: Decodable {
    /// A file under the shared corpora folder.
    var file: String?
    /// A generator name ("messages").
    var generator: String?
    var seed: UInt64?
    var note: String?
}

struct WordSpec: Decodable {
    /// "dictionary" (rebar/dictionary/english/sorted.txt), "stopwords"
    /// (stopwords/stopwords-en.txt, all of it) or "inline" (`words`).
    var source: String
    var count: Int?
    var seed: UInt64?
    var words: [String]?
}

struct Workload: Decodable {
    enum Kind: String, Decodable {
        case memchr, literal, regex, pathological, buildLiteral = "build-literal", buildRegex = "build-regex", filter
    }
    var name: String
    var kind: Kind
    var haystack: String?
    var words: WordSpec?
    var patterns: [String]?
    var caseInsensitive: Bool?
    var wholeWord: Bool?
    var unit: String?
    var byte: UInt8?
    var tail: String?
    var sizes: [Int]?
    var quickSizes: [Int]?
    var sizeMiB: Double?
    var quick: Bool?
    var skip: [String: String]?
    var note: String?

    var isCaseInsensitive: Bool { caseInsensitive ?? false }
    var isWholeWord: Bool { wholeWord ?? false }
}


/// Finds the repository (the folder holding Corpora/bench/workloads.json) from the
/// working directory or the executable's path.
func repositoryRoot() -> URL? {
    var candidates = [URL(fileURLWithPath: FileManager.default.currentDirectoryPath)]
    candidates.append(URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent())
    for start in candidates {
        var dir = start.standardizedFileURL
        for _ in 0..<8 {
            if FileManager.default.fileExists(atPath: dir.appendingPathComponent("Corpora/bench/workloads.json").path) {
                return dir
            }
            dir = dir.deletingLastPathComponent()
        }
    }
    return nil
}

func readFile(_ path: String) -> [UInt8]? {
    guard let data = FileManager.default.contents(atPath: path) else { return nil }
    return [UInt8](data)
}

/// Word lists and haystacks, loaded once and kept for the whole run.
final class Corpus {
    let corporaDir: String?
    let options: CompareOptions
    private var dictionary: [String]?
    private var stopwords: [String]?
    private var haystackCache: [String: [UInt8]] = [:]

    init(corporaDir: String?, options: CompareOptions) {
        self.corporaDir = corporaDir
        self.options = options
    }

    enum Missing: Error, CustomStringConvertible {
        case corpora(String)
        var description: String {
            switch self { case .corpora(let what): return what }
        }
    }

    private func lines(_ relative: String) throws -> [String] {
        guard let dir = corporaDir else {
            throw Missing.corpora("shared corpora not found (set TURNSTILE_SHARED_CORPORA or --corpora; expected ../shared/corpora beside the repository)")
        }
        guard let bytes = readFile(dir + "/" + relative) else {
            throw Missing.corpora("\(dir)/\(relative) is missing")
        }
        var seen = Set<String>()
        var out: [String] = []
        for line in bytes.split(separator: UInt8(ascii: "\n")) {
            var l = Array(line)
            if l.last == UInt8(ascii: "\r") { l.removeLast() }
            guard !l.isEmpty else { continue }
            let s = String(decoding: l, as: UTF8.self)
            if seen.insert(s).inserted { out.append(s) }
        }
        return out
    }

    /// The words of a spec: inline as given, the whole stop-word list, or `count`
    /// dictionary words chosen with a partial Fisher–Yates shuffle seeded by `seed`.
    func words(_ spec: WordSpec) throws -> [String] {
        switch spec.source {
        case "inline":
            return spec.words ?? []
        case "stopwords":
            if stopwords == nil { stopwords = try lines("stopwords/stopwords-en.txt") }
            let all = stopwords!
            return spec.count.map { Array(all.prefix($0)) } ?? all
        case "dictionary":
            if dictionary == nil { dictionary = try lines("rebar/dictionary/english/sorted.txt") }
            var pool = dictionary!
            let n = min(spec.count ?? pool.count, pool.count)
            var rng = SplitMix64(seed: spec.seed ?? 1)
            for i in 0..<n {
                let j = i + rng.below(pool.count - i)
                pool.swapAt(i, j)
            }
            return Array(pool.prefix(n))
        default:
            fail("unknown word source '\(spec.source)'")
        }
    }

    /// The haystack `name` at `bytes` bytes (file haystacks are repeated whole, then
    /// cut at a line end; generated ones are made to size).
    func haystack(_ name: String, spec: HaystackSpec, bytes: Int) throws -> [UInt8] {
        let key = "\(name)#\(bytes)"
        if let cached = haystackCache[key] { return cached }
        let base: [UInt8]
        if let file = spec.file {
            guard let dir = corporaDir else {
                throw Missing.corpora("shared corpora not found (set TURNSTILE_SHARED_CORPORA or --corpora; expected ../shared/corpora beside the repository)")
            }
            guard let b = readFile(dir + "/" + file) else { throw Missing.corpora("\(dir)/\(file) is missing") }
            base = b
        } else if spec.generator == "messages" {
            base = try generateMessages(seed: spec.seed ?? 1, bytes: min(bytes, 16 << 20))
        } else {
            fail("haystack '\(name)' has neither file nor a known generator")
        }
        let result = repeated(base, to: bytes)
        haystackCache[key] = result
        return result
    }

    /// Generated SMS-like messages, one per line: mostly stop words and dictionary
    /// words, with spam material mixed in at fixed rates.
    func generateMessages(seed: UInt64, bytes: Int) throws -> [UInt8] {
        let stop = try words(WordSpec(source: "stopwords"))
        let dict = try words(WordSpec(source: "dictionary", count: 20_000, seed: seed))
        let spamWords = ["FREE", "free", "winner", "WINNER", "prize", "urgent", "claim", "cash", "offer",
                         "guaranteed", "bonus", "credit", "viagra", "v1agra", "vi!agra", "c1alis", "fr3e",
                         "c@sh", "w1nner", "priz3", "txt", "STOP", "call now", "you have won", "click here"]
        let tlds = ["com", "net", "org", "info", "biz", "co", "io"]
        var rng = SplitMix64(seed: seed)
        var out: [UInt8] = []
        out.reserveCapacity(bytes + 256)
        func add(_ s: String) { out.append(contentsOf: s.utf8) }
        func digits(_ n: Int) -> String { String((0..<n).map { _ in Character(String(rng.below(10))) }) }
        while out.count < bytes {
            let tokens = 4 + rng.below(22)
            for t in 0..<tokens {
                if t > 0 { add(" ") }
                let roll = rng.below(1000)
                switch roll {
                case 0..<560:
                    var w = stop[rng.below(stop.count)]
                    if t == 0 { w = w.prefix(1).uppercased() + w.dropFirst() }
                    add(w)
                case 560..<900: add(dict[rng.below(dict.count)])
                case 900..<940: add(spamWords[rng.below(spamWords.count)])
                case 940..<950:
                    add(rng.below(3) == 0 ? "http://" : "https://")
                    add("www." + dict[rng.below(dict.count)].lowercased().filter { $0.isASCII && $0.isLetter })
                    add("." + tlds[rng.below(tlds.count)])
                    if rng.below(2) == 0 { add("/" + digits(4) + "/offer.html") }
                case 950..<958:
                    add(stop[rng.below(stop.count)].filter { $0.isLetter } + "." + digits(2) + "@mail")
                    add("." + tlds[rng.below(tlds.count)])
                case 958..<970:
                    switch rng.below(4) {
                    case 0: add("$" + digits(1 + rng.below(5)))
                    case 1: add("$" + digits(1) + "," + digits(3) + "." + digits(2))
                    case 2: add(digits(1 + rng.below(4)) + " USD")
                    default: add(digits(2) + " pounds")
                    }
                case 970..<980:
                    switch rng.below(3) {
                    case 0: add("(" + digits(3) + ") " + digits(3) + "-" + digits(4))
                    case 1: add(digits(3) + "." + digits(3) + "." + digits(4))
                    default: add("0" + digits(4) + " " + digits(6))
                    }
                case 980..<990:
                    add(["WIN", "CALL", "NOW", "URGENT", "FREE", "TXT"][rng.below(6)] + ["!", "!!", "?!", "!!!"][rng.below(4)])
                default:
                    add(digits(1 + rng.below(4)))
                }
            }
            add(["", ".", "!", "?", "..."][rng.below(5)])
            out.append(UInt8(ascii: "\n"))
        }
        return out
    }
}

/// `base` repeated until `bytes`, then cut after the last line end at or before
/// `bytes` (so no line is torn; a haystack never ends inside a word).
func repeated(_ base: [UInt8], to bytes: Int) -> [UInt8] {
    precondition(!base.isEmpty)
    var out: [UInt8] = []
    out.reserveCapacity(bytes + base.count)
    while out.count < bytes { out.append(contentsOf: base) }
    return Array(out[..<lineBoundary(out, atMost: bytes)])
}

/// The length of the longest prefix of `haystack` no longer than `limit` that ends
/// with a line end (or `limit` when there is no line end before it).
func lineBoundary(_ haystack: [UInt8], atMost limit: Int) -> Int {
    if limit >= haystack.count { return haystack.count }
    var i = limit
    while i > 0 && haystack[i - 1] != UInt8(ascii: "\n") { i -= 1 }
    return i > 0 ? i : limit
}
