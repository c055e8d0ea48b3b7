// The regex builders' limits are typed errors naming the limit, pathological
// patterns search in linear time (counted in DFA transitions, not timed), and one
// compiled regex is shared by many tasks with identical results.
//
// `TURNSTILE_SANITIZER` (set by `make test-asan` / `make test-tsan`) scales the input
// sizes and iteration counts down, since sanitized builds run 5-20× slower.

import AutomatonCore
@testable import RegexAutomata
import Testing
import TestSupport

typealias SanitizerScale = ConcurrentChecks

@Suite("Regex limits")
struct RegexLimitTests {
    @Test("a{1000}{1000} is a syntax error; (?:a{1000}){1000} exceeds the NFA state limit")
    func repetitionOfRepetition() throws {
        #expect(throws: RegexError.self) { try RegexCompiler().compile("a{1000}{1000}") }
        do {
            _ = try RegexCompiler().compile("(?:a{1000}){1000}")
            Issue.record("a million-state NFA compiled")
        } catch {
            #expect(error.kind == .limit(AutomatonError(.tooManyStates(limit: RegexCompiler.defaultLimits.maxStates))))
            #expect(error.description.contains("Limits.maxStates"))
        }
    }

    @Test("bounds above maxRepetitionBound and nesting deeper than maxNesting are syntax errors")
    func parserLimits() {
        for pattern in ["a{1001}", "a{0,1001}", "a{1001,}", String(repeating: "(", count: 300) + String(repeating: ")", count: 300)] {
            do {
                _ = try RegexCompiler().compile(pattern)
                Issue.record("\(pattern.prefix(20)) compiled")
            } catch {
                guard case .syntax = error.kind else { Issue.record("\(error)"); continue }
            }
        }
        #expect((try? RegexCompiler().compile("a{1000}")) != nil)
    }

    @Test("a long pattern or many patterns hit Limits.maxStates, and a raised limit admits them")
    func patternLengthAndCount() throws {
        var rng = SeededGenerator(defaultSeed: 0x10C6)
        let long = String((0..<20_000).map { _ in "abcdefghijklmnopqrstuvwxyz".randomElement(using: &rng)! })
        #expect(throws: RegexError.self) { try RegexCompiler().compile(long) }
        let many = (0..<5_000).map { "word\($0)" }
        #expect(throws: RegexError.self) { try RegexCompiler().compile(patterns: many) }
        let raised = RegexCompiler().limits(Limits(maxStates: 100_000, maxTableBytes: 16 << 20, maxCacheBytes: 2 << 20))
        let regex = try raised.compile(long)
        #expect(regex.isMatch(in: long + "x"))
    }

    @Test("over the full DFA's state or table limit the compiler switches to the lazy DFA, with the same matches")
    func denseLimitFallsBackToLazy() throws {
        let pattern = "(a|b)*a(a|b){20}"
        let regex = try RegexCompiler().compile(pattern)
        #expect(regex.engineKind == .lazy)
        let small = try RegexCompiler().limits(Limits(maxStates: 100_000, maxTableBytes: 1_024, maxCacheBytes: 1 << 20)).compile("(a|b)*a(a|b){8}")
        #expect(small.engineKind == .lazy)
        let full = try RegexCompiler().compile("(a|b)*a(a|b){8}")
        #expect(full.engineKind == .dense)
        let haystack = Array("bbabababbbabaabbbabbbbaaab".utf8)
        #expect(small.matches(in: haystack) == full.matches(in: haystack))
    }

    @Test("the determinizer itself reports both limits as typed errors")
    func determinizerLimits() throws {
        let nfa = try ThompsonNFA([try RegexSyntax.parse("(a|b)*a(a|b){12}")])
        #expect(throws: AutomatonError(.tooManyStates(limit: 1_000))) {
            try nfa.determinized(limits: Limits(maxStates: 1_000, maxTableBytes: .max, maxCacheBytes: .max))
        }
        #expect(throws: AutomatonError(.tableTooLarge(limit: 10_000))) {
            try nfa.determinized(limits: Limits(maxStates: .max, maxTableBytes: 10_000, maxCacheBytes: .max))
        }
    }

    @Test("a tiny lazy cache is cleared, not grown, and the matches stay right")
    func lazyCacheBound() throws {
        let pattern = "(a|b)*a(a|b){8}"
        let tiny = try RegexCompiler().forceLazy(true)
            .limits(Limits(maxStates: 10_000, maxTableBytes: 4 << 20, maxCacheBytes: 4_096)).compile(pattern)
        let reference = try RegexCompiler().compile(pattern)
        var rng = SeededGenerator(defaultSeed: 0x1A2B)
        let haystack = (0..<SanitizerScale.scale(20_000, sanitized: 2_000)).map { _ in Bool.random(using: &rng) ? UInt8(ascii: "a") : UInt8(ascii: "b") }
        var stats = RegexAutomaton.SearchStats()
        let got = tiny.matches(in: haystack, stats: &stats)
        #expect(got == reference.matches(in: haystack))
        #expect(stats.cacheClears > 0 || stats.nfaFallbacks > 0, "\(stats)")
    }
}

@Suite("Pathological regexes search in linear time")
struct PathologicalLinearTimeTests {
    static let size = SanitizerScale.scale(1 << 20, sanitized: 64 << 10)

    static func repeated(_ unit: String, count: Int) -> [UInt8] {
        let u = Array(unit.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(count)
        while out.count < count { out += u }
        return Array(out.prefix(count))
    }

    static let cases: [(pattern: String, haystack: String)] = [
        ("(a*)*b", "a"), ("(a*)*b", "aaaaaaab"),
        ("(x+x+)+y", "x"), ("(x+x+)+y", "xxxxxxxy"),
        ("(a|aa)*c", "a"), ("(a|aa)*c", "aaaac"),
        ("(a|b)*a(a|b){20}", "ab"), ("(a|b)*a(a|b){20}", "b"), ("(a|b)*a(a|b){20}", "bbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbbba"),
        ("(?:a|a)*(?:a|a)*(?:a|a)*$", "ab"), ("\\b(\\w+\\s*)+$", "aaaa bbbb, "),
    ]

    @Test("transitions ≤ 4 per byte on 1 MB (64 KB sanitized), dense and lazy", arguments: 0..<cases.count)
    func linear(_ index: Int) throws {
        let (pattern, unit) = Self.cases[index]
        let haystack = Self.repeated(unit, count: Self.size)
        for lazy in [false, true] {
            let regex = try RegexCompiler().forceLazy(lazy).compile(pattern)
            var stats = RegexAutomaton.SearchStats()
            let found = regex.matches(in: haystack, stats: &stats)
            // The PikeVM fallback (taken when a lazy cache thrashes) is O(n × NFA size),
            // also linear in n; its steps are not DFA transitions, so count its calls.
            #expect(stats.transitions <= 4 * haystack.count + 64 * (found.count + 1),
                    "/\(pattern)/ \(regex.engineKind): \(stats.transitions) transitions for \(haystack.count) bytes, \(found.count) matches")
            #expect(stats.nfaFallbacks <= found.count + 1, "\(stats)")
        }
    }

    @Test("the same counts double when the input doubles (no hidden quadratic term)")
    func doubling() throws {
        for pattern in ["(a*)*b", "(x+x+)+y", "(a|aa)*c", "(a|b)*a(a|b){20}"] {
            let regex = try RegexCompiler().compile(pattern)
            var s1 = RegexAutomaton.SearchStats(), s2 = RegexAutomaton.SearchStats()
            _ = regex.matches(in: Self.repeated("aab", count: Self.size / 4), stats: &s1)
            _ = regex.matches(in: Self.repeated("aab", count: Self.size / 2), stats: &s2)
            #expect(s2.transitions <= 2 * s1.transitions + 64, "/\(pattern)/: \(s1.transitions) then \(s2.transitions)")
        }
    }
}

@Suite("One regex shared by many tasks")
struct RegexConcurrencyTests {
    @Test("8 tasks × 1,000 searches give identical results (dense and lazy)", arguments: [false, true])
    func sharedRegex(lazy: Bool) async throws {
        let regex = try RegexCompiler().forceLazy(lazy).compile(patterns: ["\\b[a-z]+ing\\b", "(a|b)*a(a|b){6}", "é+"])
        var rng = SeededGenerator(defaultSeed: 0xC0C0)
        let words = ["sing", "ring", "abba", "ab", "ééé", "x", "bing bong", "aaaaaaaaab"]
        let haystacks = (0..<16).map { _ in
            Array((0..<40).map { _ in words.randomElement(using: &rng)! }.joined(separator: " ").utf8)
        }
        let expected = haystacks.map { Array(regex.matches(in: $0)) }
        let rounds = SanitizerScale.scale(1_000, sanitized: 100)
        let mismatches = await ConcurrentChecks.failures(rounds: rounds) { task, i in
            let k = (i + task) % haystacks.count
            return Array(regex.matches(in: haystacks[k])) == expected[k]
        }
        #expect(mismatches == 0)
    }
}
