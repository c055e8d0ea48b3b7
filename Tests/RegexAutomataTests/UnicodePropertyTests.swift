// `\p{…}` / `\P{…}` and (*UCP) against PCRE2 10.42 (PCRE2_UTF, and PCRE2_UCP where
// asked): every generated table checked code point by code point (PCRE2's `\p{X}+` over
// one haystack holding every scalar gives the runs of X as its matches), the compiled
// automata on sampled scalars, and generated patterns (fixed seed, printed; replay with
// TURNSTILE_SEED).
import Foundation
import PCRE2Oracle
@testable import RegexAutomata
import Testing
import TestSupport

/// Every scalar in order (surrogates left out), UTF-8 encoded, and where each starts.
private let allScalars: [UInt8] = {
    var out: [UInt8] = []
    out.reserveCapacity(4_400_000)
    for c in UInt32(0)..<0x110000 where !(0xD800...0xDFFF).contains(c) {
        switch c {
        case 0..<0x80: out.append(UInt8(c))
        case 0x80..<0x800: out.append(UInt8(0xC0 | c >> 6)); out.append(UInt8(0x80 | c & 0x3F))
        case 0x800..<0x10000:
            out.append(UInt8(0xE0 | c >> 12)); out.append(UInt8(0x80 | c >> 6 & 0x3F)); out.append(UInt8(0x80 | c & 0x3F))
        default:
            out.append(UInt8(0xF0 | c >> 18)); out.append(UInt8(0x80 | c >> 12 & 0x3F))
            out.append(UInt8(0x80 | c >> 6 & 0x3F)); out.append(UInt8(0x80 | c & 0x3F))
        }
    }
    return out
}()

private func scalar(at offset: Int, in bytes: [UInt8]) -> UInt32 {
    let b = bytes[offset]
    if b < 0x80 { return UInt32(b) }
    let length = b >= 0xF0 ? 4 : b >= 0xE0 ? 3 : 2
    var value = UInt32(b) & (length == 2 ? 0x1F : length == 3 ? 0x0F : 0x07)
    for k in 1..<length { value = value << 6 | UInt32(bytes[offset + k] & 0x3F) }
    return value
}

private func lastScalar(endingAt end: Int, in bytes: [UInt8]) -> UInt32 {
    var start = end - 1
    while bytes[start] & 0xC0 == 0x80 { start -= 1 }
    return scalar(at: start, in: bytes)
}

/// The ranges as runs over the haystack of every scalar (a range across the
/// surrogates is one run there).
private func runs(_ ranges: [ClosedRange<UInt32>]) -> [ClosedRange<UInt32>] {
    var out: [ClosedRange<UInt32>] = []
    for r in ranges {
        if let last = out.last, last.upperBound == 0xD7FF, r.lowerBound == 0xE000 {
            out[out.count - 1] = last.lowerBound...r.upperBound
        } else {
            out.append(r)
        }
    }
    return out
}

/// What PCRE2 matches with `pattern` (one item, repeated with `+`), as scalar runs.
private func pcre2Runs(_ item: String, ucp: Bool = false) throws -> [ClosedRange<UInt32>] {
    var options = PCRE2Options()
    options.ucp = ucp
    options.dotall = true
    let oracle = try PCRE2Regex(pattern: item + "+", options: options)
    return try oracle.matches(in: allScalars).map {
        scalar(at: $0.lowerBound, in: allScalars)...lastScalar(endingAt: $0.upperBound, in: allScalars)
    }
}

/// The engines a property pattern runs on here: the lazy DFA always (cheap to build), and
/// the full dense DFA (forward and reverse, determinized up front: a second or two for a
/// class as large as `\p{L}` in a debug build) only when `dense`.
private func propertyEngines(_ pattern: String, _ options: RegexSyntax.Options, dense: Bool) throws -> [(String, RegexAutomaton)] {
    var out = [("lazy", try RegexCompiler().syntax(options).forceLazy(true).compile(pattern))]
    if dense { out.append(("default", try RegexCompiler().syntax(options).compile(pattern))) }
    return out
}

@Suite("Unicode properties")
struct UnicodePropertyTests {
    @Test("the tables name the Unicode version of PCRE2 10.42 and of the case folding table")
    func version() {
        #expect(UnicodeProperties.unicodeVersion == "14.0.0")
        #expect(UnicodeProperties.unicodeVersion == caseFoldingUnicodeVersion)
    }

    @Test("every category, special property and script agrees with PCRE2, code point by code point")
    func everySetAgreesWithPCRE2() throws {
        var names = unicodeGeneralCategoryTable.keys.filter { $0 != "Cs" }.sorted()
        names += ["C", "L", "M", "N", "P", "S", "Z", "L&", "Lc"]
        names += unicodeSpecialPropertyTable.keys.sorted()
        // Every script by its bare name (Script_Extensions); Script (`sc=`) for every
        // eighth script and the common ones (the generator's --check covers them all).
        for (i, (long, short, _, _)) in unicodeScriptTable.enumerated() {
            names.append(long)
            if i % 8 == 0 || ["Latn", "Grek", "Cyrl", "Hani", "Arab", "Zyyy", "Zinh"].contains(short) {
                names.append("sc=\(short)")
            }
        }
        names += ["greek", "Old Italic", "sc:latn", "Script=Cyrillic"]  // loose matching
        #expect(names.count > 200)
        for name in names {
            let ours = try #require(UnicodeProperties.set(named: name), "\\p{\(name)}")
            #expect(try pcre2Runs("\\p{\(name)}") == runs(ours.ranges), "\\p{\(name)}")
        }
    }

    @Test("the (*UCP) classes agree with PCRE2_UCP, code point by code point")
    func ucpClassesAgreeWithPCRE2() throws {
        for name in unicodeUCPClassTable.keys.sorted() {
            let item = name.count == 1 ? "\\\(name)" : "[[:\(name):]]"
            let ours = try #require(UnicodeProperties.ucpClass(name))
            #expect(try pcre2Runs(item, ucp: true) == runs(ours.ranges), "(*UCP) \(item)")
        }
    }

    /// A haystack of scalars sampled from every plane region that has properties, plus
    /// ASCII and newlines (seeded).
    static func sampleHaystack(_ rng: inout SeededGenerator, count: Int) -> [UInt8] {
        let regions: [ClosedRange<UInt32>] = [0x20...0x7E, 0xA0...0x24F, 0x370...0x52F, 0x590...0x6FF, 0x900...0xDFF,
                                              0xE00...0xEFF, 0x1100...0x11FF, 0x1E00...0x1FFF, 0x2000...0x2BFF,
                                              0x3000...0x30FF, 0x4E00...0x9FFF, 0xAC00...0xD7A3, 0xF900...0xFFFF,
                                              0x10000...0x1FFFF, 0x20000...0x2FFFF, 0xE0000...0x10FFFF]
        var out: [UInt8] = []
        for _ in 0..<count {
            if Int.random(in: 0..<40, using: &rng) == 0 { out.append(0x0A); continue }
            let r = regions[Int.random(in: 0..<regions.count, using: &rng)]
            var c = UInt32.random(in: r, using: &rng)
            if (0xD800...0xDFFF).contains(c) { c = 0x41 }
            out += Array(String(Character(Unicode.Scalar(c)!)).utf8)
        }
        return out
    }

    static let curatedPatterns: [(String, RegexSyntax.Options)] = [
        ("\\p{L}+", .init()), ("\\P{L}+", .init()), ("\\p{Lu}\\p{Ll}+", .init()), ("\\p{Greek}+", .init()),
        ("\\p{Han}+", .init()), ("\\p{Cyrillic}+", .init()), ("[\\p{Hiragana}\\p{Katakana}]+", .init()),
        ("\\p{Hangul}+", .init()), ("\\p{Arabic}+", .init()), ("\\p{Hebrew}+", .init()), ("\\p{Thai}+", .init()),
        ("\\p{Devanagari}+", .init()), ("\\p{Latin}+", .init()), ("\\p{sc=Latin}+", .init()),
        ("\\pN+", .init()), ("\\p{Nd}+", .init()), ("\\p{M}+", .init()), ("\\p{Mn}", .init()), ("\\p{P}+", .init()),
        ("\\p{S}+", .init()), ("\\p{Z}+", .init()), ("\\p{C}+", .init()), ("\\p{Any}", .init()),
        ("[^\\p{L}\\p{N}]+", .init()), ("[\\P{L}a]+", .init()), ("\\p{^Greek}+", .init()),
        ("(?i)\\p{Lu}+", .init()), ("(?i)[\\p{Lu}é]+", .init()), ("(?i)[^\\p{Ll}]+", .init()),
        ("\\p{L&}+", .init()), ("\\p{Xan}+", .init()), ("\\p{Xwd}+", .init()), ("\\p{Xps}+", .init()),
        ("(*UCP)\\w+", .init()), ("(*UCP)\\d+", .init()), ("(*UCP)\\s+", .init()), ("(*UCP)[\\W\\d]+", .init()),
        ("(*UCP)[[:alpha:]]+", .init()), ("(*UCP)[[:^alpha:]]+", .init()), ("(*UCP)(?i)[[:upper:]]+", .init()),
        ("(*UCP)[[:punct:]]+", .init()), ("(*UCP)[[:graph:]]+", .init()), ("(*UCP)[[:print:]]+", .init()),
        ("(*UCP)[[:xdigit:]]+", .init()), ("\\w+", .init(ucp: true)), ("[[:lower:]]+", .init(ucp: true)),
        ("(?i)\\p{Greek}+σ", .init()), ("\\h+", .init()), ("\\v", .init()), ("[\\H\\d]+", .init()), ("\\V+", .init()), ("\\p{Ll}\\p{Lu}|\\p{Nd}{2}", .init()),
    ]

    @Test("compiled \\p{…} and (*UCP) patterns find what PCRE2 finds on sampled scalars (seed printed)")
    func curatedPatternsOnSampledScalars() throws {
        var rng = SeededGenerator(defaultSeed: 0x0050_5250)
        print("UnicodePropertyTests.curated seed \(rng.seed) (replay: TURNSTILE_SEED=\(rng.seed))")
        let haystack = Self.sampleHaystack(&rng, count: 1_500)
        for (pattern, options) in Self.curatedPatterns {
            var pcreOptions = PCRE2Options(options)
            if pattern.hasPrefix("(*UCP)") { pcreOptions.ucp = true }
            let oracle = try PCRE2Regex(pattern: pattern, options: pcreOptions)
            let expected = try oracle.matches(in: haystack)
            let dense = pattern.contains("Greek") || pattern.contains("Han")
            for (name, regex) in try propertyEngines(pattern, options, dense: dense) {
                #expect(regex.matches(in: haystack).map(\.range) == expected, "\(name) on /\(pattern)/ (\(expected.count) PCRE2 matches)")
            }
        }
    }

    @Test("generated patterns mixing properties, classes, literals and (?i) agree with PCRE2 (seed printed)")
    func generatedPatterns() throws {
        var rng = SeededGenerator(defaultSeed: 0x0050_5251)
        print("UnicodePropertyTests.generated seed \(rng.seed) (replay: TURNSTILE_SEED=\(rng.seed))")
        let properties = ["L", "Lu", "Ll", "Lt", "Lm", "Lo", "M", "Mn", "N", "Nd", "P", "S", "Z", "C", "Any",
                          "Latin", "Greek", "Cyrillic", "Han", "Arabic", "Hebrew", "Hiragana", "Katakana",
                          "Hangul", "Thai", "Devanagari", "Common", "Inherited", "sc=Greek", "L&"]
        let literals = ["a", "é", "Σ", "σ", "ж", "日", "ア", "ก", "١", " ", "k", "ß"]
        func atom(_ rng: inout SeededGenerator, ucp: Bool) -> String {
            let p = properties[Int.random(in: 0..<properties.count, using: &rng)]
            switch Int.random(in: 0..<8, using: &rng) {
            case 0: return "\\p{\(p)}"
            case 1: return "\\P{\(p)}"
            case 2: return "[\\p{\(p)}\(literals[Int.random(in: 0..<literals.count, using: &rng)])]"
            case 3: return "[^\\p{\(p)}\\d]"
            case 4: return literals[Int.random(in: 0..<literals.count, using: &rng)]
            case 5: return ucp ? ["\\w", "\\W", "\\d", "\\s", "[[:alpha:]]", "[[:^upper:]]", "[[:punct:]]"][Int.random(in: 0..<7, using: &rng)] : "."
            case 6: return "\\p{\(p)}\\p{\(properties[Int.random(in: 0..<properties.count, using: &rng)])}"
            default: return "(?:\\p{\(p)}|\(literals[Int.random(in: 0..<literals.count, using: &rng)]))"
            }
        }
        let haystack = Self.sampleHaystack(&rng, count: 1_500)
        var checked = 0
        for _ in 0..<60 {
            let ucp = Bool.random(using: &rng)
            var pattern = (ucp ? "(*UCP)" : "") + (Bool.random(using: &rng) ? "(?i)" : "")
            for _ in 0..<Int.random(in: 1...3, using: &rng) {
                let item = atom(&rng, ucp: ucp)
                // A repeated group is left to `{1,3}`: `(?:…)+` over a long run hits the JIT's stack limit.
                let quantifiers = item.hasPrefix("(?:") ? ["", "?", "{1,3}"] : ["", "+", "*", "?", "{1,3}"]
                pattern += item + quantifiers[Int.random(in: 0..<quantifiers.count, using: &rng)]
            }
            var pcreOptions = PCRE2Options()
            pcreOptions.ucp = ucp
            let oracle = try PCRE2Regex(pattern: pattern, options: pcreOptions)
            let expected = try oracle.matches(in: haystack)
            for (name, regex) in try propertyEngines(pattern, .init(), dense: false) {
                #expect(regex.matches(in: haystack).map(\.range) == expected, "\(name) on /\(pattern)/ seed \(rng.seed)")
            }
            checked += 1
        }
        #expect(checked == 60)
    }

    @Test("unknown and malformed properties, and word boundaries under UCP, are clear errors")
    func errors() {
        func kind(_ pattern: String) -> RegexSyntaxError.Kind? {
            do { _ = try RegexSyntax.parse(pattern); return nil } catch { return error.kind }
        }
        #expect(kind("\\p{Klingon}") == .unknownProperty)
        #expect(kind("\\p{Hrkt}") == .unknownProperty)       // PCRE2 10.42 does not know it either
        #expect(kind("\\p{Greek") == .malformedProperty)
        #expect(kind("\\p") == .malformedProperty)
        #expect(kind("(*UCP)\\bx") == .unicodeWordBoundary)
        #expect(kind("a(*UCP)") == .notRegular(.verb))       // only at the start, as in PCRE2
        #expect(kind("[\\p{L}-z]") == .classInRange)
        for pattern in ["\\p{Klingon}", "\\p{Hrkt}", "\\p{Greek", "a(*UCP)"] {
            #expect(throws: PCRE2Error.self, "PCRE2 refuses \(pattern) too") { try PCRE2Regex(pattern: pattern) }
        }
    }
}
