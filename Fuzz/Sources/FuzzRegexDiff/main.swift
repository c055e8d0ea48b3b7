// Fuzz target: differential search, Turnstile's regex engines against PCRE2.
//
// Input, byte 0: bit 0 `i`, bit 1 `m`, bit 2 `s`, bit 3 bytes mode, bit 7 generated.
// - generated (bit 7 set): bytes 1...8 seed the repository's RandomRegexGenerator,
//   which writes a pattern from the shared syntax subset and four haystacks;
// - raw (bit 7 clear): the pattern is the bytes up to the first NUL, the haystack the
//   rest (repaired to valid UTF-8 in UTF-8 mode; ASCII only when case folding could
//   involve non-ASCII letters, where PCRE2's Unicode folding is documented to differ).
// Patterns either side rejects are skipped, and so are those PCRE2 reads differently
// (`PCRE2KnownDifferences`: `\<` and `\>` by design, a PCRE2 10.42 anchoring defect).
// Every engine configuration (full DFA, minimized or not, lazy DFA with a normal and a
// tiny cache) must report exactly PCRE2's matches; any difference aborts with the
// pattern, options and haystack.

import AutomatonCore
import FuzzSupport
import FuzzTestSupport
import PCRE2Oracle
import RegexAutomata

let limits = Limits(maxStates: 4_000, maxTableBytes: 2 << 20, maxCacheBytes: 1 << 20)
let tinyCache = Limits(maxStates: 4_000, maxTableBytes: 2 << 20, maxCacheBytes: 2_000)

func check(pattern: [UInt8], options: RegexSyntax.Options, haystacks: [[UInt8]]) {
    if PCRE2KnownDifferences.reason(pattern) != nil { return }
    let hir: Hir
    do { hir = try RegexSyntax.parse(pattern, options: options) } catch { return }
    let base = RegexCompiler().syntax(options).limits(limits)
    var engines: [(String, RegexAutomaton)] = []
    do {
        engines.append(("dense-minimized", try base.compile(hirs: [hir])))
        engines.append(("dense", try base.minimize(false).compile(hirs: [hir])))
        engines.append(("lazy", try base.forceLazy(true).compile(hirs: [hir])))
        engines.append(("lazy-tiny-cache", try base.forceLazy(true).limits(tinyCache).compile(hirs: [hir])))
    } catch {
        return  // over the NFA limit: a typed error, which the compile target checks
    }
    let pcreOptions = PCRE2Options(
        encoding: options.mode == .utf8 ? .utf : .bytes, caseless: options.caseInsensitive,
        multiline: options.multiLine, dotall: options.dotMatchesNewline)
    guard let oracle = try? PCRE2Regex(pattern: pattern, options: pcreOptions) else { return }
    for h in haystacks {
        guard let expected = try? oracle.matches(in: h) else { continue }
        for (name, regex) in engines {
            let got = regex.matches(in: h)
            if got.map(\.range) != expected {
                fuzzFailure("""
                    \(name) differs from PCRE2
                    pattern:  \(showBytes(pattern))
                    options:  \(options)
                    haystack: \(showBytes(h))
                    turnstile: \(got.map(\.range))
                    pcre2:     \(expected)
                    """)
            }
            if regex.firstMatch(in: h)?.range != expected.first || regex.isMatch(in: h) != !expected.isEmpty {
                fuzzFailure("""
                    \(name): firstMatch/isMatch disagree with PCRE2's first match
                    pattern:  \(showBytes(pattern))
                    options:  \(options)
                    haystack: \(showBytes(h))
                    pcre2:     \(expected)
                    """)
            }
        }
    }
}

runFuzzer { data in
    var input = FuzzInput(data)
    let flags = input.byte()
    var options = RegexSyntax.Options()
    options.caseInsensitive = flags & 1 != 0
    options.multiLine = flags & 2 != 0
    options.dotMatchesNewline = flags & 4 != 0
    options.mode = flags & 8 != 0 ? .bytes : .utf8
    if flags & 0x80 != 0 {
        var generator = RandomRegexGenerator(seed: input.uint64(), mode: options.mode == .utf8 ? .utf8 : .bytes)
        let pattern = Array(generator.pattern().utf8)
        let haystacks = (0..<4).map { _ in generator.haystack(maxLength: 24) }
        check(pattern: pattern, options: options, haystacks: haystacks)
    } else {
        let pattern = input.take(until: 0)
        var haystack = input.rest()
        if options.mode == .utf8 {
            haystack = Array(String(decoding: haystack, as: UTF8.self).utf8)
            let mayFold = options.caseInsensitive || pattern.contains(UInt8(ascii: "i"))
            if mayFold {
                if pattern.contains(where: { $0 >= 0x80 }) { return }
                haystack = haystack.map { $0 & 0x7F }
            }
        }
        check(pattern: pattern, options: options, haystacks: [haystack])
    }
}
