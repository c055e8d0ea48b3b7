// Literal extraction: the literal prefixes every match of a Hir must start with, after
// regex-syntax's `hir::literal::Extractor` (Rust regex). A prefix set lets a search
// skip to the places a match can start (a prefilter), and when the set is *exact* —
// the regex is nothing but an alternation of those literals — a literal engine can
// replace the regex automaton outright.
//
// The set is a sequence in leftmost-first priority order: concatenation is a cross
// product taken left-major and alternation appends, so the literals keep the order in
// which a backtracking matcher would try them. Each literal is either exact (a whole
// match) or a prefix (the match may go on). Bounds keep it small: past
// `maxLiterals` literals or `maxLiteralBytes` bytes a literal stops growing and
// becomes a prefix; a byte class is expanded only when it has at most
// `maxClassBytes` members. An unbounded set (a leading `.`, `[a-z]`, an empty match)
// is reported as no set at all.
//
// Case: `(?i)` reaches the Hir as two-byte classes (`[Cc]`). In *folded* mode such a
// class is one element, matched without regard to ASCII case, so `(?i)congratulations`
// is one exact literal instead of 2^15; a letter that is *not* folded in the pattern
// still makes a valid prefix under folding, but not an exact set.
//
// Limits: look-arounds are skipped (zero-width) and rule out an exact set; only the
// prefix direction is extracted (no suffix or inner literals yet).

import AutomatonCore

/// The literals every match of a regex starts with.
///
/// ```swift
/// let hir = try RegexSyntax.parse("https?://[a-z]+", options: .init())
/// let set = LiteralSet.prefixes(of: hir)!
/// set.literals   // ["https://", "http://"]
/// set.isExact    // false: the match goes on after the literal
/// ```
///
/// - Complexity: O(Hir size × maxLiterals × maxLiteralBytes).
public struct LiteralSet: Sendable, Hashable {
    /// The literals in leftmost-first priority order, without duplicates; ASCII letters
    /// lowercased when ``isASCIICaseInsensitive``.
    public var literals: [[UInt8]]
    /// Every match is one of ``literals`` in full, and every occurrence of one is a match
    /// (under leftmost-first priority): the regex is this alternation of literals.
    public var isExact: Bool
    /// The literals are matched without regard to ASCII case.
    public var isASCIICaseInsensitive: Bool

    /// Most literals in a set.
    public static let maxLiterals = 64
    /// Longest literal; longer ones are cut and become prefixes.
    public static let maxLiteralBytes = 64
    /// Largest byte class expanded into one literal per byte (per case pair when folding).
    public static let maxClassBytes = 10

    /// The prefix set of `hir`: the exact case-sensitive set when there is one, else the
    /// exact folded set, else the smaller prefix set (case-sensitive on a tie). Nil
    /// when some match can start with any of too many bytes, or can be empty.
    public static func prefixes(of hir: Hir) -> LiteralSet? {
        let plain = extract(hir, folded: false)
        if let plain, plain.isExact { return plain }
        let folded = extract(hir, folded: true)
        if let folded, folded.isExact { return folded }
        // The smaller set makes the better prefilter; on a tie the case-sensitive one
        // says more.
        if let plain, let folded { return folded.literals.count < plain.literals.count ? folded : plain }
        return plain ?? folded
    }

    /// The prefix set in one mode, or nil when unbounded or a literal is empty.
    static func extract(_ hir: Hir, folded: Bool) -> LiteralSet? {
        var extractor = Extractor(folded: folded)
        guard let seq = extractor.walk(hir), !seq.isEmpty,
              !seq.contains(where: { $0.bytes.isEmpty }) else { return nil }
        var seen = Set<[UInt8]>()
        var literals: [[UInt8]] = []
        for lit in seq where seen.insert(lit.bytes).inserted { literals.append(lit.bytes) }
        let exact = extractor.canBeExact && seq.allSatisfy(\.exact)
        return LiteralSet(literals: literals, isExact: exact, isASCIICaseInsensitive: folded)
    }
}

/// One literal of a sequence: its bytes, and whether it is a whole match.
struct ExtractedLiteral: Hashable {
    var bytes: [UInt8]
    var exact: Bool
}

/// The recursive walk. `nil` is the infinite sequence (any byte can start a match).
struct Extractor {
    let folded: Bool
    /// Cleared by a look-around (a literal engine cannot check it) and when folded mode
    /// meets a letter the pattern matches in one case only (the folded set is then a
    /// superset): the set is still a valid prefix set, but not exact.
    var canBeExact = true

    init(folded: Bool) { self.folded = folded }

    mutating func walk(_ hir: Hir) -> [ExtractedLiteral]? {
        switch hir {
        case .empty:
            return [ExtractedLiteral(bytes: [], exact: true)]
        case .literal(let bytes):
            let cut = bytes.count > LiteralSet.maxLiteralBytes
            return [ExtractedLiteral(bytes: bytes.prefix(LiteralSet.maxLiteralBytes).map { fold($0) }, exact: !cut)]
        case .byteClass(let ranges):
            return byteClass(ranges)
        case .scalarClass(let ranges):
            return scalarClass(ranges)
        case .look:
            // Zero-width: every match still starts with what follows, so extraction
            // goes on through it, but a literal engine cannot check the assertion.
            canBeExact = false
            return [ExtractedLiteral(bytes: [], exact: true)]
        case .concat(let items):
            var seq: [ExtractedLiteral] = [ExtractedLiteral(bytes: [], exact: true)]
            for item in items {
                if !seq.contains(where: \.exact) { break }
                seq = cross(seq, walk(item))
            }
            return seq
        case .alternation(let items):
            var seq: [ExtractedLiteral] = []
            for item in items {
                guard let sub = walk(item) else { return nil }
                seq.append(contentsOf: sub)
                if seq.count > LiteralSet.maxLiterals { return nil }
            }
            return seq
        case .repetition(let sub, let min, let max, let greedy):
            return repetition(sub, min: min, max: max, greedy: greedy)
        }
    }

    /// `x` then `y`, left-major; a literal that cannot grow (a prefix, or one that
    /// would break a bound) is kept as a prefix.
    func cross(_ x: [ExtractedLiteral], _ y: [ExtractedLiteral]?) -> [ExtractedLiteral] {
        guard let y else { return x.map { ExtractedLiteral(bytes: $0.bytes, exact: false) } }
        let growing = x.filter(\.exact).count
        if growing * y.count + (x.count - growing) > LiteralSet.maxLiterals {
            return x.map { ExtractedLiteral(bytes: $0.bytes, exact: false) }
        }
        var out: [ExtractedLiteral] = []
        for a in x {
            if !a.exact { out.append(a); continue }
            for b in y {
                var bytes = a.bytes + b.bytes
                var exact = b.exact
                if bytes.count > LiteralSet.maxLiteralBytes {
                    bytes.removeLast(bytes.count - LiteralSet.maxLiteralBytes)
                    exact = false
                }
                out.append(ExtractedLiteral(bytes: bytes, exact: exact))
            }
        }
        return out
    }

    mutating func repetition(_ sub: Hir, min: Int, max: Int?, greedy: Bool) -> [ExtractedLiteral]? {
        if max == 0 { return [ExtractedLiteral(bytes: [], exact: true)] }
        guard let once = walk(sub) else {
            // The sub-pattern may start anywhere; with min 0 it may also be skipped.
            return nil
        }
        let empty = ExtractedLiteral(bytes: [], exact: true)
        if min == 0 {
            // `x?` keeps exactness; `x*` and `x{0,n}` only say the match may begin
            // with x or skip it.
            let body = max == 1 ? once : once.map { ExtractedLiteral(bytes: $0.bytes, exact: false) }
            return greedy ? body + [empty] : [empty] + body
        }
        var seq = once
        var k = 1
        while k < min, seq.contains(where: \.exact) {
            seq = cross(seq, once)
            k += 1
        }
        if max != min || k < min { seq = seq.map { ExtractedLiteral(bytes: $0.bytes, exact: false) } }
        return seq
    }

    /// A byte class: one literal per member (per case pair when folding) if small.
    mutating func byteClass(_ ranges: [ClosedRange<UInt8>]) -> [ExtractedLiteral]? {
        var members = [Bool](repeating: false, count: 256)
        var count = 0
        for r in ranges {
            count += r.count
            if count > 2 * LiteralSet.maxClassBytes + 2 { return nil }
            for b in r { members[Int(b)] = true }
        }
        var out: [UInt8] = []
        for b in 0...255 where members[b] {
            let byte = UInt8(b)
            if folded, isASCIILetter(byte) {
                let lower = byte | 0x20, upper = byte & ~0x20
                if !(members[Int(lower)] && members[Int(upper)]) { canBeExact = false }
                if byte == upper && members[Int(lower)] { continue }  // listed as the lowercase one
                out.append(lower)
            } else {
                out.append(byte)
            }
        }
        if out.isEmpty || out.count > LiteralSet.maxClassBytes { return nil }
        return out.map { ExtractedLiteral(bytes: [$0], exact: true) }
    }

    /// A scalar class: one UTF-8 literal per scalar if small. The ASCII members go
    /// through ``byteClass(_:)``, so a Unicode-folded letter such as `(?i)k` (`[Kk]` plus
    /// U+212A) is still one exact folded literal `k` beside the KELVIN SIGN's bytes.
    mutating func scalarClass(_ ranges: [ClosedRange<UInt32>]) -> [ExtractedLiteral]? {
        var count = 0
        for r in ranges { count += Int(r.upperBound - r.lowerBound) + 1 }
        if count > LiteralSet.maxClassBytes { return nil }
        let ascii = ranges.filter { $0.lowerBound < 0x80 }.map { UInt8($0.lowerBound)...UInt8(min($0.upperBound, 0x7F)) }
        var out: [ExtractedLiteral] = []
        if !ascii.isEmpty {
            guard let bytes = byteClass(ascii) else { return nil }
            out = bytes
        }
        for r in ranges where r.upperBound >= 0x80 {
            for v in max(r.lowerBound, 0x80)...r.upperBound {
                guard let scalar = Unicode.Scalar(v) else { continue }
                out.append(ExtractedLiteral(bytes: Array(String(Character(scalar)).utf8), exact: true))
            }
        }
        return out.isEmpty ? nil : out
    }

    /// In folded mode, a letter matched in one case only: lowercased, and the set can
    /// no longer be exact.
    mutating func fold(_ b: UInt8) -> UInt8 {
        guard folded, isASCIILetter(b) else { return b }
        canBeExact = false
        return b | 0x20
    }
}
