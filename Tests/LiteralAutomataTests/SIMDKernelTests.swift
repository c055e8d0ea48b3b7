import Foundation
import AutomatonCore
import LiteralAutomata
import PCRE2Oracle
import TestSupport
import Testing

/// The prefilter kernels at every SIMD level this CPU runs (portable always, SSSE3 and
/// AVX2 on x86_64, NEON on arm64), each against a one-byte-at-a-time reference:
/// haystacks shorter than a vector, candidates straddling 16- and 32-byte vector
/// boundaries, every start offset, and all 256 byte values.
@Suite struct SIMDKernelTests {
    /// Every level runs here; the portable one on every CPU.
    @Test func portableIsAlwaysSupported() {
        #expect(SIMDLevel.supported.contains(.portable))
        #expect(SIMDLevel.best.isSupported)
    }

    /// The kernels above run at the levels this CPU supports (the arguments are
    /// ``SIMDLevel/supported``); a CPU whose /proc/cpuinfo lists AVX2 must be
    /// detected as one, or the AVX2 kernels would go untested without a word.
    @Test(.enabled(if: Self.cpuInfoFlags.contains("avx2"), "this CPU does not list avx2 in /proc/cpuinfo"))
    func avx2IsDetectedWhereTheCPUHasIt() {
        #expect(SIMDLevel.avx2.isSupported)
        #expect(SIMDLevel.supported.contains(.avx2))
    }

    /// The flags of the first processor in /proc/cpuinfo (empty elsewhere).
    static let cpuInfoFlags: Set<Substring> = {
        guard let text = try? String(contentsOfFile: "/proc/cpuinfo", encoding: .utf8),
              let line = text.split(separator: "\n").first(where: { $0.hasPrefix("flags") }) else { return [] }
        return Set(line.split(separator: " "))
    }()

    @Test(arguments: SIMDLevel.supported)
    func teddyAgreesWithItsDefinition(_ level: SIMDLevel) throws {
        var rng = SeededGenerator(defaultSeed: 0x7EDD_0001 + UInt64(level.rawValue))
        let seed = rng.seed
        for round in 0..<300 {
            // Narrow alphabets make candidates frequent; all 256 values make them rare.
            let wide = round % 3 == 0
            let alphabet: [UInt8] = wide ? Array(0...255) : Array("abcdxyz\n\u{7F}".utf8) + [0x80, 0xFF, 0x00]
            let prefixes = (0..<Int.random(in: 1...64, using: &rng)).map { _ in
                (0..<Int.random(in: 1...4, using: &rng)).map { _ in alphabet.randomElement(using: &rng)! }
            }
            let teddy = try #require(Teddy(prefixes: prefixes, level: level))
            #expect(teddy.level == level)
            let n = Int.random(in: 0...(round % 4 == 0 ? 20 : 200), using: &rng)
            var haystack = (0..<n).map { _ in (wide ? Array("abcdefgh ".utf8) : alphabet).randomElement(using: &rng)! }
            // Plant a prefix across a 16-, 32- or 64-byte boundary (the AVX2 kernel tests
            // 64 positions a step, then 32) now and then.
            if n > 40, let p = prefixes.randomElement(using: &rng) {
                let at = [15, 16, 30, 31, 32, 63, 64, 95, 127, 128].filter { $0 + 4 < n }.randomElement(using: &rng)! - p.count / 2
                haystack.replaceSubrange(at..<min(at + p.count, n), with: p.prefix(n - at))
            }
            haystack.withUnsafeBufferPointer { h in
                // The reference, once per position: is a candidate, starts a prefix.
                let candidate = (0..<n).map { teddy.isCandidate(at: $0, in: h) }
                let occurs = (0..<n).map { i in
                    prefixes.contains { p in i + p.count <= n && h[i..<(i + p.count)].elementsEqual(p) }
                }
                var nextCandidate: Int? = nil, nextOccurrence: Int? = nil
                for from in stride(from: n, through: 0, by: -1) {
                    if from < n && candidate[from] { nextCandidate = from }
                    if from < n && occurs[from] { nextOccurrence = from }
                    #expect(teddy.find(in: h, from: from) == nextCandidate,
                            "seed \(seed) round \(round) \(level) from \(from) prefixes \(show(prefixes)) haystack \(show(haystack))")
                    // Never skips an occurrence: the first one is at or after the candidate.
                    if let nextOccurrence { #expect((nextCandidate ?? Int.max) <= nextOccurrence, "seed \(seed) round \(round)") }
                }
            }
        }
    }

    /// The packed-pair memmem (tl_memmem_pair, through RareBytePrefilter) against a
    /// naive search: narrow alphabets so candidates are frequent and verification fails
    /// often (the give-up rule), occurrences planted across vector boundaries, ASCII
    /// case folding on and off. A give-up must name a position no occurrence precedes.
    @Test(arguments: SIMDLevel.supported)
    func packedPairMemmemAgreesWithANaiveSearch(_ level: SIMDLevel) {
        var rng = SeededGenerator(defaultSeed: 0x3E33_0001 + UInt64(level.rawValue))
        let seed = rng.seed
        for round in 0..<400 {
            let fold = round % 3 == 0
            let alphabet: [UInt8] = round % 2 == 0 ? Array("abAB \n".utf8) : Array("abcdefghxyzXYZ .\n".utf8) + [0xFF]
            let needle = (0..<Int.random(in: 1...9, using: &rng)).map { _ in alphabet.randomElement(using: &rng)! }
            let n = Int.random(in: 0...(round % 4 == 0 ? 24 : 200), using: &rng)
            var haystack = (0..<n).map { _ in alphabet.randomElement(using: &rng)! }
            if n > 40 {
                // Across a 16-, 32- or 64-byte step (the AVX2 kernel tests 64 starts a step).
                let at = [15, 16, 31, 32, 33, 63, 64, 65, 127].filter { $0 + 5 < n }.randomElement(using: &rng)! - needle.count / 2
                haystack.replaceSubrange(at..<min(at + needle.count, n), with: needle.prefix(n - at))
            }
            func lower(_ b: UInt8) -> UInt8 { fold && b >= 0x41 && b <= 0x5A ? b | 0x20 : b }
            let finder = RareBytePrefilter(needle, asciiCaseInsensitive: fold, level: level)
            haystack.withUnsafeBufferPointer { h in
                for from in 0...n {
                    let first = (from..<n).first { s in
                        s + needle.count <= n && (0..<needle.count).allSatisfy { lower(h[s + $0]) == lower(needle[$0]) }
                    }
                    var budget = RareBytePrefilter.CandidateBudget(from: from)
                    let context = "seed \(seed) round \(round) \(level) fold \(fold) from \(from) needle \(show([needle])) haystack \(show(haystack))"
                    switch finder.step(in: h, from: from, budget: &budget) {
                    case .found(let s): #expect(s == first, "\(context)")
                    case .exhausted: #expect(first == nil, "\(context)")
                    case .gaveUp(let at): #expect(at >= from && at <= (first ?? n), "\(context)")
                    }
                }
            }
        }
    }

    @Test(arguments: SIMDLevel.supported)
    func memchrVariantsAgreeWithAByteLoop(_ level: SIMDLevel) {
        var rng = SeededGenerator(defaultSeed: 0x3E3C_0001 + UInt64(level.rawValue))
        let seed = rng.seed
        for round in 0..<400 {
            let n = Int.random(in: 0...(round % 4 == 0 ? 20 : 150), using: &rng)
            let haystack = (0..<n).map { _ in UInt8.random(in: 0...255, using: &rng) }
            // Needles: all 256 values over the rounds, and bytes of the haystack.
            let a = UInt8(truncatingIfNeeded: round), b = haystack.last ?? 0, c = UInt8.random(in: 0...255, using: &rng)
            haystack.withUnsafeBufferPointer { h in
                for from in stride(from: 0, through: n, by: max(1, n / 13)) {
                    let one = (from..<n).first { h[$0] == a }
                    let two = (from..<n).first { h[$0] == a || h[$0] == b }
                    let three = (from..<n).first { h[$0] == a || h[$0] == b || h[$0] == c }
                    let context = "seed \(seed) round \(round) \(level) from \(from) needles \(a) \(b) \(c)"
                    #expect(Memchr.find(a, in: h, from: from) == one, "\(context)")
                    #expect(Memchr.find2(a, b, in: h, from: from, level: level) == two, "\(context)")
                    #expect(Memchr.find3(a, b, c, in: h, from: from, level: level) == three, "\(context)")
                    // The last `a` before every end from here (memrchr).
                    for end in stride(from: from, through: n, by: max(1, n / 7)) {
                        let last = (from..<end).last { h[$0] == a }
                        #expect(Memchr.findLast(a, in: h, from: from, end: end) == last, "\(context) end \(end)")
                    }
                }
            }
        }
    }

    /// The byte counter at each level against a byte loop: lengths around the vector
    /// width and around the 255-vector fold (where a byte counter would wrap), and
    /// haystacks made mostly of the counted byte.
    @Test(arguments: SIMDLevel.supported)
    func memcountAgreesWithAByteLoop(_ level: SIMDLevel) {
        var rng = SeededGenerator(defaultSeed: 0xC0_4E7 + UInt64(level.rawValue))
        let seed = rng.seed
        let lengths = [0, 1, 15, 16, 17, 31, 32, 33, 63, 64, 65, 255 * 16 - 1, 255 * 16, 255 * 16 + 1,
                       255 * 32 - 1, 255 * 32, 255 * 32 + 1, 2 * 255 * 32 + 7, 100_000]
        for (round, n) in lengths.enumerated() {
            for density in [0, 1, 50, 100] {
                let haystack = (0..<n).map { _ in
                    Int.random(in: 0..<100, using: &rng) < density ? 10 : UInt8.random(in: 0...255, using: &rng)
                }
                let expected = haystack.reduce(0) { $0 + ($1 == 10 ? 1 : 0) }
                haystack.withUnsafeBufferPointer { h in
                    #expect(Memchr.count(10, in: h, level: level) == expected,
                            "seed \(seed) round \(round) length \(n) density \(density) \(level)")
                    // From an odd offset too, so the loads are unaligned.
                    if n > 1 {
                        let tail = UnsafeBufferPointer(rebasing: h[1...])
                        #expect(Memchr.count(10, in: tail, level: level) == expected - (h[0] == 10 ? 1 : 0),
                                "seed \(seed) round \(round) length \(n) density \(density) \(level) offset 1")
                    }
                }
            }
        }
    }

    /// Aho-Corasick with Teddy at each level, and with the prefilter off, against the
    /// naive matcher and PCRE2 (leftmost-first) on random text and on the SMS corpus when present.
    @Test(arguments: SIMDLevel.supported)
    func ahoCorasickWithTeddyAtEachLevel(_ level: SIMDLevel) throws {
        var rng = SeededGenerator(defaultSeed: 0x7EDD_AC01 + UInt64(level.rawValue))
        let seed = rng.seed
        let words = ["free", "win", "winner", "cash", "prize", "urgent", "claim", "txt", "reply", "call",
                     "mobile", "stop", "offer", "award", "guaranteed", "now", "you", "the", "to", "ok"]
        let corpus = SharedCorpora.bytes("sms-spam/train.tsv").map { Array($0.prefix(200_000)) }
        for round in 0..<24 {
            let patterns = (0..<Int.random(in: 2...words.count, using: &rng)).map { _ in
                Array(words.randomElement(using: &rng)!.utf8)
            }
            let haystack: [UInt8]
            if let corpus, round % 2 == 0 {
                let start = Int.random(in: 0..<(corpus.count - 20_000), using: &rng)
                haystack = Array(corpus[start..<(start + 20_000)])
            } else {
                haystack = rng.bytes(from: Array("abcdefghinorstuwxy .\n".utf8), maxLength: 3000)
            }
            let ci = round % 3 == 0
            var po = PCRE2Options(encoding: .bytes)
            po.caseless = ci
            let words = patterns.map { String(decoding: $0, as: UTF8.self) }
            let pcre2 = try PCRE2Regex(pattern: PCRE2Regex.alternation(of: words, wholeWord: false), options: po)
                .matches(in: haystack)
            for kind in [MatchKind.leftmostFirst, .leftmostLongest] {
                let expected = NaiveLiteralMatcher(patterns: patterns, kind: kind.naive, caseInsensitive: ci)
                    .matches(in: haystack)
                for prefilter in [true, false] {
                    let ac = try AhoCorasick.Builder().matchKind(kind).asciiCaseInsensitive(ci)
                        .prefilter(prefilter).simdLevel(level).build(patterns)
                    #expect(ac.statistics.hasPrefilter == prefilter)
                    let got: [Match] = ac.matches(in: haystack)
                    let context = "seed \(seed) round \(round) \(level) \(kind) ci \(ci) prefilter \(prefilter) patterns \(show(patterns))"
                    #expect(got == expected, "\(context)")
                    if kind == .leftmostFirst { #expect(got.map(\.range) == pcre2, "PCRE2: \(context)") }
                }
            }
        }
    }
}
