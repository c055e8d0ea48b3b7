// Case → dense index (a state's position, an event's byte class) without hashing.
//
// A rule names cases; each event must find its row of the table. Hashing the case
// (SipHash through `Hashable`) costs more than everything else `fire` does, so a case
// type that is one byte of plain data — every enum without payloads and with at most
// 256 cases, the nested `Case` enums included — is looked up by that byte, as the core
// looks a haystack byte up in its `ByteClasses`: `index = table[byte]`. Any other case
// type (a struct, a `String`) keeps the dictionary. The byte table is built from
// `allCases` and checked against the dictionary, so both give the same answer for every
// case listed; a byte no listed case has maps to -1 (unknown), as the dictionary's nil.
//
// PERF: Benchmarks/Sources/EventTable (`event-table`), "StateMachine.fire, no hooks".

/// Finds a case's index in its `allCases` order (the first one when a case is listed twice).
@usableFromInline
internal struct CaseIndex<Case: Hashable & Sendable>: Sendable {
    /// 256 entries when `Case` is one byte of plain data: the index of the case with that
    /// byte, or -1. Empty otherwise.
    @usableFromInline let byByte: [Int16]
    /// Every listed case → its index (the first when listed twice).
    @usableFromInline let byHash: [Case: Int]
    /// Number of distinct cases when `Case` has no bytes at all (one case), else -1.
    @usableFromInline let sizeless: Int

    init(_ cases: [Case]) {
        var byHash: [Case: Int] = [:]
        for (i, c) in cases.enumerated() where byHash[c] == nil { byHash[c] = i }
        self.byHash = byHash
        sizeless = MemoryLayout<Case>.size == 0 && _isPOD(Case.self) ? byHash.count : -1
        guard MemoryLayout<Case>.size == 1, _isPOD(Case.self) else {
            byByte = []
            return
        }
        var table = [Int16](repeating: -1, count: 256)
        for c in cases {
            let byte = withUnsafeBytes(of: c) { Int($0[0]) }
            let index = Int16(byHash[c]!)
            // Two listed cases with one byte but different hashes: trust the dictionary.
            guard table[byte] == -1 || table[byte] == index else {
                byByte = []
                return
            }
            table[byte] = index
        }
        byByte = table
    }

    /// The index of `c`, or -1 when it is not one of the listed cases.
    ///
    /// - Complexity: O(1): one load for one-byte cases, a hash lookup otherwise.
    @inlinable @inline(__always)
    func index(of c: Case) -> Int {
        if MemoryLayout<Case>.size == 1, !byByte.isEmpty {
            // SAFETY: `Case` is one byte of plain data (checked in init, else byByte is
            // empty), so its single byte is readable and below 256.
            return withUnsafeBytes(of: c) { Int(byByte[Int($0[0])]) }
        }
        if MemoryLayout<Case>.size == 0, sizeless >= 0 {
            return sizeless > 0 ? 0 : -1
        }
        return byHash[c] ?? -1
    }
}
