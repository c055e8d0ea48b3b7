// The binary save/load format of a dense DFA, and its validating loader.
//
// Source: the layout follows the spirit of regex-automata's `DFA::to_bytes_*` /
// `DFA::from_bytes` (a header, then the raw table), but every field is checked on
// load, so a corrupt or hostile file is a typed error and never a crash, an
// out-of-bounds read during a later search, or a huge allocation.
//
// Format, version 2: the payload of a ``SavedContainer`` (magic "TRNSTDFA", version,
// payload length, CRC-32C), so a truncated file or any changed byte is refused before a
// field is read; every field is then checked as well, which is what keeps searching
// a hand-made file (with a valid checksum) memory-safe. Every integer is a
// little-endian UInt32; offsets are from the start of the file:
//
//   offset  size          field
//   0       24            the container's header (magic, version 2, length, CRC-32C)
//   24      4             match timing (0 immediate, 1 delayedByOne)
//   28      256           byte → class map (one byte each)
//   284     4             class count (1...256)
//   288     4             state count (≥ 1, dead state included)
//   292     4             stride shift (log2 of the stride)
//   296     4             match state count (< state count)
//   300     4             pattern count
//   304     32            8 start state ids (pre-multiplied), by context * 2 + anchored
//   336     4 × (M + 1)   pattern offsets (M = match state count), from 0, strictly increasing
//   …       4 × L         pattern list (L = last offset)
//   …       4 × S·stride  the transition table (pre-multiplied ids)
//
// Version 1 (the same fields with no container) is refused with the version error.
// Known limits: the whole file is read into memory.

extension DenseDFA {
    /// The 8 magic bytes every saved automaton starts with: "TRNSTDFA".
    public static let serializationMagic: [UInt8] = Array("TRNSTDFA".utf8)

    /// The format version this build writes and reads.
    public static let serializationVersion: UInt32 = 2

    /// Size of the fixed header, up to and including the start states.
    static let serializationHeaderSize = SavedContainer.headerSize + 312

    /// The automaton in Turnstile's versioned little-endian binary format, to be
    /// loaded again with ``init(deserializing:)-([UInt8])``.
    ///
    /// ```swift
    /// let bytes = dfa.serialized()
    /// let again = try DenseDFA(deserializing: bytes)
    /// again.isMatch(in: "abb") == dfa.isMatch(in: "abb")   // true
    /// ```
    ///
    /// - Complexity: O(table size) time and memory to save; searching the loaded
    ///   automaton costs exactly what searching this one does.
    public func serialized() -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(Self.serializationHeaderSize + 4 * (patternOffsets.count + patternList.count + table.count))
        func put(_ value: UInt32) {
            out.append(UInt8(truncatingIfNeeded: value))
            out.append(UInt8(truncatingIfNeeded: value >> 8))
            out.append(UInt8(truncatingIfNeeded: value >> 16))
            out.append(UInt8(truncatingIfNeeded: value >> 24))
        }
        put(matchTiming.rawValue)
        out.append(contentsOf: byteClasses.classMap)
        put(UInt32(byteClasses.count))
        put(UInt32(stateCount))
        put(UInt32(strideShift))
        put(UInt32(matchStateCount))
        put(UInt32(patternCount))
        for s in starts { put(s) }
        for o in patternOffsets { put(o) }
        for p in patternList { put(p) }
        for t in table { put(t) }
        return SavedContainer.seal(out, magic: Self.serializationMagic, version: Self.serializationVersion)
    }

    /// Loads an automaton saved by ``serialized()``, validating every field first.
    ///
    /// ```swift
    /// do {
    ///     let dfa = try DenseDFA(deserializing: bytes)
    /// } catch {
    ///     print(error)   // e.g. "the saved automaton is corrupt: table entry … is out of range"
    /// }
    /// ```
    ///
    /// - Throws: ``AutomatonError`` with kind `.notAnAutomaton` (wrong magic),
    ///   `.unsupportedVersion`, `.truncated` (fewer bytes than the header declares),
    ///   `.checksumMismatch` (any other changed byte) or `.corrupt` naming the check that failed (inconsistent sizes, a malformed class
    ///   map, a table entry that is not a valid state id, trailing bytes, …).
    /// - Complexity: O(file size) time to load; memory is allocated only after every
    ///   size has been checked against the bytes actually present. Search cost is
    ///   unchanged.
    public init(deserializing bytes: [UInt8]) throws(AutomatonError) {
        let result = bytes.withUnsafeBytes { raw in
            Result { () throws(AutomatonError) -> DenseDFA in try DenseDFA(deserializing: raw) }
        }
        self = try result.get()
    }

    /// Loads an automaton saved by ``serialized()`` from raw memory; see
    /// ``init(deserializing:)-([UInt8])``.
    ///
    /// - Complexity: O(file size); the bytes are copied, so `raw` need not outlive the
    ///   automaton.
    public init(deserializing raw: UnsafeRawBufferPointer) throws(AutomatonError) {
        try self.init(deserializing: raw, checksumCovered: false)
    }

    /// As ``init(deserializing:)-(UnsafeRawBufferPointer)``; with `checksumCovered` the
    /// container's checksum is not computed again, because the caller verified an
    /// enclosing file's checksum over these bytes (every other field is still checked).
    package init(deserializing raw: UnsafeRawBufferPointer, checksumCovered: Bool) throws(AutomatonError) {
        var reader = SerializedReader(raw)

        // Magic, version, length and checksum: a truncated or changed file stops here.
        _ = try SavedContainer.payloadRange(of: raw, magic: Self.serializationMagic, version: Self.serializationVersion,
                                            checksumCovered: checksumCovered)
        reader.position = SavedContainer.headerSize
        guard raw.count >= Self.serializationHeaderSize else {
            throw AutomatonError(.truncated(needed: Self.serializationHeaderSize, available: raw.count))
        }

        // Fixed header.
        guard let timing = MatchTiming(rawValue: reader.u32()) else {
            throw AutomatonError(.corrupt("the match timing is neither 0 (immediate) nor 1 (delayedByOne)"))
        }
        let classMap = reader.bytes(256)
        guard let classes = ByteClasses(map: classMap) else {
            throw AutomatonError(.corrupt("the byte class map does not number its classes 0, 1, 2, … in byte order"))
        }
        let classCount = Int(reader.u32())
        guard classCount == classes.count else {
            throw AutomatonError(.corrupt("the class count \(classCount) disagrees with the class map's \(classes.count)"))
        }
        let stateCount = Int(reader.u32())
        let shift = Int(reader.u32())
        let matchCount = Int(reader.u32())
        let patternCount = Int(reader.u32())
        var starts: [UInt32] = []
        starts.reserveCapacity(8)
        for _ in 0..<8 { starts.append(reader.u32()) }

        let expectedShift = DenseDFABuilder.stride(for: classes).shift
        guard shift == expectedShift else {
            throw AutomatonError(.corrupt("the stride shift \(shift) is not \(expectedShift), which \(classCount) classes imply"))
        }
        let stride = 1 << shift
        guard stateCount >= 1 else { throw AutomatonError(.corrupt("the state count is 0 (the dead state is missing)")) }
        guard matchCount < stateCount else {
            throw AutomatonError(.corrupt("the match state count \(matchCount) is not below the state count \(stateCount)"))
        }

        // Sizes, checked for overflow and against the bytes present before anything
        // is allocated.
        let header = Self.serializationHeaderSize
        let offsetsEnd = header + 4 * (matchCount + 1)  // matchCount < 2^32: no overflow on 64-bit
        guard raw.count >= offsetsEnd else {
            throw AutomatonError(.truncated(needed: offsetsEnd, available: raw.count))
        }
        let listCount = Int(reader.u32(at: offsetsEnd - 4))
        let (tableCount, tableOverflow) = stateCount.multipliedReportingOverflow(by: stride)
        guard !tableOverflow, tableCount <= Int(UInt32.max) else {
            throw AutomatonError(.corrupt("\(stateCount) states × stride \(stride) do not fit 32-bit state ids"))
        }
        let listEnd = offsetsEnd + 4 * listCount
        let (tableBytes, bytesOverflow) = tableCount.multipliedReportingOverflow(by: 4)
        let (total, totalOverflow) = listEnd.addingReportingOverflow(tableBytes)
        guard !bytesOverflow, !totalOverflow else {
            throw AutomatonError(.corrupt("the declared sizes overflow"))
        }
        guard raw.count >= total else { throw AutomatonError(.truncated(needed: total, available: raw.count)) }
        guard raw.count == total else {
            throw AutomatonError(.corrupt("\(raw.count - total) trailing bytes after the transition table"))
        }

        // Starts.
        let limit = UInt32(tableCount)
        let mask = UInt32(stride - 1)
        for (slot, s) in starts.enumerated() where s & mask != 0 || s >= limit {
            throw AutomatonError(.corrupt("start state \(slot) has id \(s), not a multiple of \(stride) below \(limit)"))
        }

        // Pattern offsets and list: each copied at once, then checked in one pass.
        let offsets = Self.u32s(raw, at: header, count: matchCount + 1)
        if offsets[0] != 0 { throw AutomatonError(.corrupt("the first pattern offset is \(offsets[0]), not 0")) }
        for k in Swift.stride(from: 1, through: matchCount, by: 1) where offsets[k] <= offsets[k - 1] {
            throw AutomatonError(.corrupt("pattern offset \(k) is \(offsets[k]), not above \(offsets[k - 1]): every match state needs a non-empty pattern list"))
        }
        let list = Self.u32s(raw, at: offsetsEnd, count: listCount)
        if let j = list.firstIndex(where: { Int($0) >= patternCount }) {
            throw AutomatonError(.corrupt("pattern list entry \(j) is \(list[j]), not below the pattern count \(patternCount)"))
        }

        // The table: one copy, then one pass that checks every entry. Entries are
        // OR-ed into a flag instead of branching per entry (a 1.8 MB table loads in
        // well under a millisecond); only a table that fails is walked again to name
        // the first bad entry. (Two SIMD16 reductions instead measured slower: the
        // baseline x86-64 has no unsigned 32-bit maximum.)
        let alphabet = classes.alphabetLength
        let table = Self.u32s(raw, at: listEnd, count: tableCount)
        let tableIsValid = table.withUnsafeBufferPointer { t -> Bool in
            var bad: UInt32 = 0
            for k in 0..<stride { bad |= t[k] }
            for row in Swift.stride(from: stride, to: tableCount, by: stride) {
                for k in row..<(row + alphabet) {
                    let v = t[k]
                    bad |= (v & mask) | (v >= limit ? 1 : 0)
                }
                for k in (row + alphabet)..<(row + stride) { bad |= t[k] }
            }
            return bad == 0
        }
        if !tableIsValid {
            for j in 0..<tableCount {
                let t = table[j]
                let column = j & (stride - 1)
                if j < stride || column >= alphabet {
                    guard t == 0 else {
                        throw AutomatonError(.corrupt(j < stride
                            ? "the dead state's row has a non-zero entry at column \(column)"
                            : "state \(j >> shift) has a non-zero entry \(t) past the alphabet, at column \(column)"))
                    }
                } else if t & mask != 0 || t >= limit {
                    throw AutomatonError(.corrupt("table entry \(column) of state \(j >> shift) is \(t), not a multiple of \(stride) below \(limit)"))
                }
            }
        }

        self.init(
            byteClasses: classes, stride: stride, strideShift: shift, stateCount: stateCount,
            matchTiming: timing, patternCount: patternCount, table: table, starts: starts,
            maxMatchID: UInt32(matchCount << shift), patternOffsets: offsets, patternList: list
        )
    }
}

extension DenseDFA {
    /// `count` little-endian UInt32s at `offset` of `raw`, copied in one move; the
    /// caller has checked that they lie inside `raw`.
    static func u32s(_ raw: UnsafeRawBufferPointer, at offset: Int, count: Int) -> [UInt32] {
        precondition(offset >= 0 && offset + 4 * count <= raw.count)
        return [UInt32](unsafeUninitializedCapacity: count) { buffer, initialized in
            // SAFETY: the precondition keeps the source inside `raw`; the destination
            // holds `count` UInt32s; copyMemory needs no alignment.
            if count > 0 {
                UnsafeMutableRawBufferPointer(buffer).copyMemory(
                    from: UnsafeRawBufferPointer(rebasing: raw[offset..<(offset + 4 * count)]))
            }
            initialized = count
            #if _endian(big)
            for k in 0..<count { buffer[k] = UInt32(littleEndian: buffer[k]) }
            #endif
        }
    }
}

/// Reads little-endian fields from raw bytes the loader has already bounds-checked.
struct SerializedReader {
    let raw: UnsafeRawBufferPointer
    var position = 0

    init(_ raw: UnsafeRawBufferPointer) { self.raw = raw }

    /// The UInt32 at `offset`; the caller has checked `offset + 4 <= raw.count`.
    func u32(at offset: Int) -> UInt32 {
        precondition(offset >= 0 && offset + 4 <= raw.count)
        // SAFETY: the precondition above keeps the 4 bytes inside `raw`; the load is
        // unaligned, so any offset is allowed.
        return UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
    }

    /// The next UInt32; advances by 4.
    mutating func u32() -> UInt32 {
        let value = u32(at: position)
        position += 4
        return value
    }

    /// The next `count` bytes; advances by `count`.
    mutating func bytes(_ count: Int) -> [UInt8] {
        precondition(position + count <= raw.count)
        let slice = Array(raw[position..<(position + count)])
        position += count
        return slice
    }
}
