// Patterns read for line records, as grep reads them: a line holds no `\n`, so no
// match can hold one either. Taking `\n` out of every class (`\s`, `[^a]`, `(?s).`)
// changes no line's matches, and it lets the reader search a block of lines in one
// pass (`Matcher.canSearchAcross`), where a class with `\n` in it would have matched
// across the end of a line.

import RegexAutomata

extension Hir {
    /// This Hir with `\n` removed from every class; a literal that holds `\n` never
    /// matches.
    ///
    /// ```swift
    /// try RegexSyntax.parse("a\\sb", options: .init()).withoutNewline()   // a[\t\v\f\r ]b
    /// ```
    /// - Complexity: O(Hir size + class ranges).
    func withoutNewline() -> Hir {
        switch self {
        case .empty, .look:
            return self
        case .literal(let bytes):
            return bytes.contains(0x0A) ? .byteClass([]) : self
        case .byteClass(let ranges):
            return .byteClass(ranges.flatMap { Self.removingNewline($0) })
        case .scalarClass(let ranges):
            return .scalarClass(ranges.flatMap { r -> [ClosedRange<UInt32>] in
                guard r.contains(0x0A) else { return [r] }
                var parts: [ClosedRange<UInt32>] = []
                if r.lowerBound < 0x0A { parts.append(r.lowerBound...0x09) }
                if r.upperBound > 0x0A { parts.append(0x0B...r.upperBound) }
                return parts
            })
        case .concat(let items):
            return .concat(items.map { $0.withoutNewline() })
        case .alternation(let items):
            return .alternation(items.map { $0.withoutNewline() })
        case .repetition(let sub, let min, let max, let greedy):
            return .repetition(sub.withoutNewline(), min: min, max: max, greedy: greedy)
        }
    }

    private static func removingNewline(_ r: ClosedRange<UInt8>) -> [ClosedRange<UInt8>] {
        guard r.contains(0x0A) else { return [r] }
        var parts: [ClosedRange<UInt8>] = []
        if r.lowerBound < 0x0A { parts.append(r.lowerBound...0x09) }
        if r.upperBound > 0x0A { parts.append(0x0B...r.upperBound) }
        return parts
    }
}
