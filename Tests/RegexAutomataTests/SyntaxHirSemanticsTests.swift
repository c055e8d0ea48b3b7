// Checks what the parser's Hir *means*, independently of the NFA/DFA pipeline: a tiny
// backtracking interpreter of Hir (leftmost-first, Perl/PCRE order) runs PCRE2's global
// loop, and its matches must equal PCRE2's on every case of regex.json and on random
// patterns over random haystacks. A disagreement is a parser bug (wrong flags, classes,
// anchors or folding) or an interpreter bug, never a DFA bug.
import PCRE2Oracle
import RegexAutomata
import TestSupport
import Testing

/// A deliberately naive backtracking matcher over Hir, with a step budget so that a
/// pathological pattern is skipped instead of hanging the test.
final class HirBacktracker {
    let haystack: [UInt8]
    let utf8: Bool
    var steps = 0
    let maxSteps: Int
    struct BudgetExceeded: Error {}

    init(haystack: [UInt8], utf8: Bool, maxSteps: Int = 2_000_000) {
        self.haystack = haystack
        self.utf8 = utf8
        self.maxSteps = maxSteps
    }

    /// Every match of PCRE2's global loop: after an empty match at p, try a non-empty
    /// match anchored at p, else step one scalar (UTF-8) or one byte.
    func allMatches(_ hir: Hir) throws -> [[Int]] {
        var out: [[Int]] = []
        var start = 0
        var notEmptyAnchored = false
        while start <= haystack.count {
            let found: Range<Int>?
            if notEmptyAnchored {
                found = try matchAt(hir, start, nonEmpty: true).map { start..<$0 }
            } else {
                found = try find(hir, from: start)
            }
            guard let range = found else {
                if !notEmptyAnchored || start >= haystack.count { break }
                start = nextBoundary(after: start)
                notEmptyAnchored = false
                continue
            }
            out.append([0, range.lowerBound, range.upperBound])
            start = range.upperBound
            notEmptyAnchored = range.isEmpty
            if range.isEmpty && range.upperBound == haystack.count { break }
        }
        return out
    }

    private func nextBoundary(after p: Int) -> Int {
        var q = p + 1
        if utf8 { while q < haystack.count, haystack[q] & 0xC0 == 0x80 { q += 1 } }
        return q
    }

    private func find(_ hir: Hir, from start: Int) throws -> Range<Int>? {
        var s = start
        while s <= haystack.count {
            if let end = try matchAt(hir, s, nonEmpty: false) { return s..<end }
            if s == haystack.count { break }
            s = nextBoundary(after: s)
        }
        return nil
    }

    private func matchAt(_ hir: Hir, _ start: Int, nonEmpty: Bool) throws -> Int? {
        var result: Int? = nil
        _ = try m(hir, start) { end in
            if nonEmpty && end == start { return false }
            result = end
            return true
        }
        return result
    }

    private func m(_ hir: Hir, _ p: Int, _ k: (Int) throws -> Bool) throws -> Bool {
        steps += 1
        if steps > maxSteps { throw BudgetExceeded() }
        switch hir {
        case .empty:
            return try k(p)
        case .literal(let bytes):
            guard p + bytes.count <= haystack.count, haystack[p..<(p + bytes.count)].elementsEqual(bytes) else {
                return false
            }
            return try k(p + bytes.count)
        case .byteClass(let ranges):
            guard p < haystack.count, ranges.contains(where: { $0.contains(haystack[p]) }) else { return false }
            return try k(p + 1)
        case .scalarClass(let ranges):
            guard let (scalar, length) = decode(at: p), ranges.contains(where: { $0.contains(scalar) }) else {
                return false
            }
            return try k(p + length)
        case .look(let look):
            return try holds(look, at: p) ? k(p) : false
        case .concat(let items):
            return try concat(items[...], p, k)
        case .alternation(let branches):
            for branch in branches where try m(branch, p, k) { return true }
            return false
        case .repetition(let sub, let min, let max, let greedy):
            return try repeatMatch(sub, min: min, max: max, greedy: greedy, count: 0, p, k)
        }
    }

    private func concat(_ items: ArraySlice<Hir>, _ p: Int, _ k: (Int) throws -> Bool) throws -> Bool {
        guard let first = items.first else { return try k(p) }
        return try m(first, p) { q in try concat(items.dropFirst(), q, k) }
    }

    private func repeatMatch(
        _ sub: Hir, min: Int, max: Int?, greedy: Bool, count: Int, _ p: Int, _ k: (Int) throws -> Bool
    ) throws -> Bool {
        if let max, count >= max { return try k(p) }
        if count < min {
            return try m(sub, p) { q in
                try repeatMatch(sub, min: min, max: max, greedy: greedy, count: count + 1, q, k)
            }
        }
        // An iteration that matched the empty string ends the loop (as in PCRE).
        func more() throws -> Bool {
            try m(sub, p) { q in
                q == p ? try k(q) : try repeatMatch(sub, min: min, max: max, greedy: greedy, count: count + 1, q, k)
            }
        }
        return greedy ? try more() || k(p) : try k(p) || more()
    }

    private func holds(_ look: Hir.Look, at p: Int) -> Bool {
        let n = haystack.count
        func isWord(_ i: Int) -> Bool {
            guard i >= 0, i < n else { return false }
            let c = haystack[i]
            return (0x30...0x39).contains(c) || (0x41...0x5A).contains(c) || (0x61...0x7A).contains(c) || c == 0x5F
        }
        switch look {
        case .textStart: return p == 0
        case .textEnd: return p == n
        case .lineStart: return p == 0 || haystack[p - 1] == 0x0A
        case .lineEnd: return p == n || haystack[p] == 0x0A
        case .wordBoundary: return isWord(p - 1) != isWord(p)
        case .notWordBoundary: return isWord(p - 1) == isWord(p)
        case .wordStart: return !isWord(p - 1) && isWord(p)
        case .wordEnd: return isWord(p - 1) && !isWord(p)
        case .wordStartHalf: return !isWord(p - 1)
        case .wordEndHalf: return !isWord(p)
        }
    }

    private func decode(at p: Int) -> (UInt32, Int)? {
        guard p < haystack.count else { return nil }
        let lead = haystack[p]
        if lead < 0x80 { return (UInt32(lead), 1) }
        let length = lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 0
        guard length > 0, p + length <= haystack.count else { return nil }
        var value = UInt32(lead) & (length == 2 ? 0x1F : length == 3 ? 0x0F : 0x07)
        for i in 1..<length {
            guard haystack[p + i] & 0xC0 == 0x80 else { return nil }
            value = value << 6 | UInt32(haystack[p + i] & 0x3F)
        }
        return (value, length)
    }
}

@Suite("Hir semantics against PCRE2")
struct SyntaxHirSemanticsTests {
    @Test("the Hir of every regex.json pattern finds the expected matches", arguments: regexCases)
    func caseFile(_ testCase: TestCase) throws {
        let hir = try RegexSyntax.parse(testCase.patterns[0], options: testCase.syntaxOptions)
        let matcher = HirBacktracker(haystack: testCase.haystackBytes, utf8: testCase.options?.bytes != true)
        #expect(try matcher.allMatches(hir) == testCase.expected, "Hir: \(hir)")
    }

    /// Every haystack of up to four characters over a small alphabet (RE2's exhaustive
    /// tester does the same), for every pattern of the case file.
    @Test("the Hir of every regex.json pattern agrees with PCRE2 on all short haystacks", arguments: regexCases)
    func caseFilePatternsOnAllShortHaystacks(_ testCase: TestCase) throws {
        let bytesMode = testCase.options?.bytes == true
        let alphabet: [[UInt8]] = [[0x61], [0x42], [0x0A], [0x20], bytesMode ? [0xFF] : Array("é".utf8)]
        var haystacks: [[UInt8]] = [[]]
        var frontier: [[UInt8]] = [[]]
        for _ in 0..<4 {
            frontier = frontier.flatMap { prefix in alphabet.map { prefix + $0 } }
            haystacks += frontier
        }
        let hir = try RegexSyntax.parse(testCase.patterns[0], options: testCase.syntaxOptions)
        let regex = try PCRE2Regex(pattern: testCase.patterns[0], options: testCase.pcre2Options)
        for haystack in haystacks {
            let expected = try regex.matches(in: haystack).map { [0, $0.lowerBound, $0.upperBound] }
            let found = try HirBacktracker(haystack: haystack, utf8: !bytesMode).allMatches(hir)
            if found != expected {
                Issue.record("on \(haystack): Hir gives \(found), PCRE2 \(expected)")
                return
            }
        }
    }

    @Test(arguments: [RandomRegexGenerator.Mode.utf8, .bytes])
    func randomPatternsAgreeWithPCRE2(mode: RandomRegexGenerator.Mode) throws {
        var generator = RandomRegexGenerator(seed: 0x5345_4D41_4E54_4943, mode: mode)
        var compared = 0
        var failures = 0
        for index in 0..<600 {
            let pattern = generator.pattern()
            let (caseInsensitive, multiLine, dotAll) = generator.flags()
            let hir = try RegexSyntax.parse(
                pattern,
                options: RegexSyntax.Options(
                    caseInsensitive: caseInsensitive, multiLine: multiLine, dotMatchesNewline: dotAll,
                    mode: mode == .utf8 ? .utf8 : .bytes))
            let regex = try PCRE2Regex(
                pattern: pattern,
                options: PCRE2Options(
                    encoding: mode == .utf8 ? .utf : .bytes, caseless: caseInsensitive, multiline: multiLine,
                    dotall: dotAll, jit: false))
            for _ in 0..<4 {
                let haystack = generator.haystack(maxLength: 10)
                let expected = try regex.matches(in: haystack).map { [0, $0.lowerBound, $0.upperBound] }
                let matcher = HirBacktracker(haystack: haystack, utf8: mode == .utf8, maxSteps: 200_000)
                guard let found = try? matcher.allMatches(hir) else { continue }
                compared += 1
                if found != expected {
                    failures += 1
                    if failures <= 5 {
                        Issue.record(
                            """
                            pattern #\(index) \(pattern.debugDescription) i=\(caseInsensitive) m=\(multiLine) \
                            s=\(dotAll) on \(haystack): Hir gives \(found), PCRE2 \(expected); \
                            seed \(generator.seed) (TURNSTILE_SEED)
                            """)
                    }
                }
            }
        }
        #expect(failures == 0)
        #expect(compared > 2_000, "too many patterns exceeded the backtracking budget")
    }
}
