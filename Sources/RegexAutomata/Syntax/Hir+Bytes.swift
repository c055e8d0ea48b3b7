// Which bytes a match of a Hir may contain and which assertions it uses: enough for a
// caller to tell whether a haystack of records can be searched in one pass (no match
// can contain the delimiter, nothing depends on where a record starts or ends).

extension Hir {
    /// 256 flags: byte b may occur inside a match (UTF-8 scalars ≥ U+0080 count as
    /// every byte ≥ 0x80), and the assertions the pattern uses.
    ///
    /// ```swift
    /// let (bytes, looks) = try RegexSyntax.parse("^a[0-9]", options: .init()).bytesAndLooks
    /// bytes[0x61]   // true
    /// looks         // [.textStart]
    /// ```
    /// - Complexity: O(Hir size + total class ranges × 256).
    public var bytesAndLooks: (bytes: [Bool], looks: Set<Look>) {
        var bytes = [Bool](repeating: false, count: 256)
        var looks = Set<Look>()
        func walk(_ h: Hir) {
            switch h {
            case .empty: break
            case .literal(let b): for x in b { bytes[Int(x)] = true }
            case .byteClass(let ranges): for r in ranges { for x in r { bytes[Int(x)] = true } }
            case .scalarClass(let ranges):
                for r in ranges {
                    if r.lowerBound < 0x80 { for x in r.lowerBound...min(r.upperBound, 0x7F) { bytes[Int(x)] = true } }
                    if r.upperBound >= 0x80 { for x in 0x80...0xFF { bytes[x] = true } }
                }
            case .look(let l): looks.insert(l)
            case .concat(let items), .alternation(let items): items.forEach(walk)
            case .repetition(let sub, _, let max, _): if max != 0 { walk(sub) }
            }
        }
        walk(self)
        return (bytes, looks)
    }
}
