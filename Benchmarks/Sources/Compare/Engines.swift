// The in-process engines: Turnstile's own searchers (KMP, Aho-Corasick, the regex
// DFA) and PCRE2 through PCRE2Oracle, each built once and then run over the haystack.

import AutomatonCore
import Foundation
import LiteralAutomata
import PCRE2Oracle
import RegexAutomata
import Turnstile

/// What a count counts: every (non-overlapping, leftmost-first) match, or the lines
/// holding at least one (what `grep -c` prints).
enum CountKind: String { case matches, lines }

/// A built in-process searcher: `count` runs it over a haystack; `lines` (Turnstile
/// only) also gives the number of lines with a match, for the `grep -c` columns.
struct BuiltSearcher {
    var count: ([UInt8]) -> Result<Int, EngineFailure>
    var matchesAndLines: (([UInt8]) -> (matches: Int, lines: Int))?
    /// Table bytes for Turnstile's automata; nil where the engine does not say.
    var memoryBytes: Int?
    var detail: String
}

/// An engine's refusal or error, kept apart from a crash.
struct EngineFailure: Error, CustomStringConvertible {
    /// "refused" (the pattern was not accepted), "match limit", "error".
    var label: String
    var message: String
    var description: String { "\(label): \(message)" }

    static func fromPCRE2(_ error: PCRE2Error) -> EngineFailure {
        let text = error.description
        let shown = text.count > 300 ? String(text.prefix(150)) + " … " + String(text.suffix(120)) : text
        switch error.kind {
        case .compile, .jit: return EngineFailure(label: "refused", message: shown)
        case .match(let code, let message):
            // PCRE2_ERROR_MATCHLIMIT (-47), DEPTHLIMIT (-53), HEAPLIMIT (-63), JIT_STACKLIMIT (-46)
            let label = [-47, -53, -63, -46].contains(code) ? "match limit" : "error"
            return EngineFailure(label: label, message: "PCRE2 error \(code): \(message)")
        }
    }
}

/// Counts distinct lines from match starts given in increasing order.
struct LineCounter {
    var lines = 0
    private var lineEnd = -1

    mutating func add(start: Int, in haystack: UnsafeBufferPointer<UInt8>) {
        guard start >= lineEnd else { return }
        lines += 1
        let n = haystack.count
        if start >= n { lineEnd = n + 1; return }
        // SAFETY: start < n, so base + start and the n - start bytes after it are valid.
        if let hit = memchr(haystack.baseAddress! + start, 0x0A, n - start) {
            lineEnd = haystack.baseAddress!.distance(to: hit.assumingMemoryBound(to: UInt8.self)) + 1
        } else {
            lineEnd = n + 1
        }
    }
}

enum Engines {
    /// Turnstile on a word list: KMP for one word, Aho-Corasick (leftmost-first, the
    /// representation it picks) for several — the choice `Matcher` makes.
    static func turnstileLiteral(words: [String], caseInsensitive: Bool, wholeWord: Bool) throws -> BuiltSearcher {
        if words.count == 1 {
            let kmp = try KMP(words[0], asciiCaseInsensitive: caseInsensitive, wholeWord: wholeWord)
            return BuiltSearcher(
                count: { .success(kmp.matches(in: $0).count) },
                matchesAndLines: { haystack in
                    let found = kmp.matches(in: haystack)
                    var lines = LineCounter()
                    haystack.withUnsafeBufferPointer { buffer in
                        for m in found { lines.add(start: m.start, in: buffer) }
                    }
                    return (found.count, lines.lines)
                },
                memoryBytes: kmp.statistics.memoryBytes,
                detail: "KMP, \(kmp.statistics)")
        }
        let ac = try AhoCorasick.Builder()
            .matchKind(.leftmostFirst)
            .asciiCaseInsensitive(caseInsensitive)
            .wholeWord(wholeWord)
            .build(words)
        return BuiltSearcher(
            count: { haystack in
                var n = 0
                haystack.withUnsafeBufferPointer { buffer in
                    ac.forEachMatch(in: buffer) { _ in n &+= 1; return true }
                }
                return .success(n)
            },
            matchesAndLines: { haystack in
                var n = 0
                var lines = LineCounter()
                haystack.withUnsafeBufferPointer { buffer in
                    ac.forEachMatch(in: buffer) { m in
                        n += 1
                        lines.add(start: m.start, in: buffer)
                        return true
                    }
                }
                return (n, lines.lines)
            },
            memoryBytes: ac.statistics.memoryBytes,
            detail: "Aho-Corasick, \(ac.statistics)")
    }

    /// The limits for the build workloads (a DFA of thousands of states is the point).
    static let roomyLimits = Limits(maxStates: 1_000_000, maxTableBytes: 1 << 30, maxCacheBytes: 64 << 20)

    /// Turnstile's regex engine on one pattern or a set (UTF-8 mode, leftmost-first).
    static func turnstileRegex(patterns: [String], caseInsensitive: Bool, roomy: Bool = false) throws -> BuiltSearcher {
        var compiler = RegexCompiler().caseInsensitive(caseInsensitive)
        if roomy { compiler = compiler.limits(roomyLimits) }
        let regex = try compiler.compile(patterns: patterns)
        var bytes: Int? = nil
        var detail = "regex, \(regex.engineKind)"
        if let f = regex.forwardDFA, let r = regex.reverseDFA {
            bytes = f.memoryBytes + r.memoryBytes
            detail += ", forward DFA \(f.stateCount) states × \(f.byteClasses.count) classes, reverse DFA \(r.stateCount) states"
        } else {
            detail += " (cache up to \(compiler.limits.maxCacheBytes) bytes per direction)"
        }
        return BuiltSearcher(
            count: { .success(regex.matches(in: $0).count) },
            matchesAndLines: { haystack in
                let found = regex.matches(in: haystack)
                var lines = LineCounter()
                haystack.withUnsafeBufferPointer { buffer in
                    for m in found { lines.add(start: m.start, in: buffer) }
                }
                return (found.count, lines.lines)
            },
            memoryBytes: bytes, detail: detail)
    }

    /// The PCRE2 pattern for a workload: the escaped alternation of the words (bytes
    /// mode, `\b…\b` for whole words), or the regexes joined in order.
    static func pcre2Pattern(words: [String]?, patterns: [String]?, wholeWord: Bool) -> (String, PCRE2Options.Encoding) {
        if let words { return (PCRE2Regex.alternation(of: words, wholeWord: wholeWord), .bytes) }
        let p = patterns ?? []
        return (p.count == 1 ? p[0] : p.map { "(?:\($0))" }.joined(separator: "|"), .utf)
    }

    static func pcre2(pattern: String, encoding: PCRE2Options.Encoding, caseInsensitive: Bool, jit: Bool) throws(EngineFailure) -> BuiltSearcher {
        let regex: PCRE2Regex
        do {
            regex = try PCRE2Regex(pattern: pattern, options: PCRE2Options(encoding: encoding, caseless: caseInsensitive, jit: jit))
        } catch {
            throw EngineFailure.fromPCRE2(error)
        }
        return BuiltSearcher(
            count: { haystack in
                do throws(PCRE2Error) { return .success(try regex.count(in: haystack)) } catch { return .failure(.fromPCRE2(error)) }
            },
            matchesAndLines: nil, memoryBytes: nil,
            detail: jit ? "PCRE2 10.x JIT (pcre2_jit_compile, PCRE2_JIT_COMPLETE)" : "PCRE2 interpreter")
    }
}
