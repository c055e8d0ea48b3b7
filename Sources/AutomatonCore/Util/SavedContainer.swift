// The envelope of every file `turnstile compile -o` writes: what it is, which format
// version, how long, and a checksum over all of it, so a truncated or damaged file is
// a typed error before any of its content is trusted.
//
// Layout (little-endian):
//   offset  size  field
//   0       8     magic (the kind of content, e.g. "TRNSTRUL")
//   8       4     format version of the content
//   12      8     payload length in bytes
//   20      4     CRC-32C of bytes 0..<20 followed by the payload
//   24      n     payload

/// Seals a payload in a checksummed envelope and opens it again.
///
/// ```swift
/// let file = SavedContainer.seal(Array("payload".utf8), magic: Array("TRNSTXMP".utf8), version: 1)
/// let payload = try SavedContainer.open(file, magic: Array("TRNSTXMP".utf8), version: 1)
/// ```
///
/// Every truncation and every change of a single byte is rejected: a length that does
/// not match is ``AutomatonError/Kind/truncated(needed:available:)`` or
/// ``AutomatonError/Kind/corrupt(_:)``, any other change
/// ``AutomatonError/Kind/checksumMismatch(stored:computed:)`` (or a wrong magic or
/// version, checked first so an old or foreign file says what it is).
///
/// - Complexity: O(payload) to seal and to open.
public enum SavedContainer {
    /// Bytes before the payload.
    public static let headerSize = 24

    /// The sealed file for `payload`.
    public static func seal(_ payload: [UInt8], magic: [UInt8], version: UInt32) -> [UInt8] {
        precondition(magic.count == 8, "a magic is 8 bytes")
        var out = magic
        out.reserveCapacity(headerSize + payload.count)
        for k in 0..<4 { out.append(UInt8(truncatingIfNeeded: version >> (8 * k))) }
        let length = UInt64(payload.count)
        for k in 0..<8 { out.append(UInt8(truncatingIfNeeded: length >> (8 * k))) }
        let crc = CRC32C.checksum(payload, continuing: CRC32C.checksum(out))
        for k in 0..<4 { out.append(UInt8(truncatingIfNeeded: crc >> (8 * k))) }
        out.append(contentsOf: payload)
        return out
    }

    /// The payload of a sealed file, after checking its magic, version, length and
    /// checksum.
    public static func open(_ bytes: [UInt8], magic: [UInt8], version: UInt32) throws(AutomatonError) -> ArraySlice<UInt8> {
        let payload = try bytes.withUnsafeBytes { raw in
            Result { () throws(AutomatonError) in try payloadRange(of: raw, magic: magic, version: version) }
        }.get()
        return bytes[payload]
    }

    /// The payload of a sealed file that is part of a larger one (a slice keeps the
    /// indices of the array it was cut from), checked as ``open(_:magic:version:)-([UInt8],_,_)`` does.
    public static func open(_ bytes: ArraySlice<UInt8>, magic: [UInt8], version: UInt32) throws(AutomatonError) -> ArraySlice<UInt8> {
        try open(bytes, magic: magic, version: version, checksumCovered: false)
    }

    /// As ``open(_:magic:version:)-(ArraySlice<UInt8>,_,_)``; with `checksumCovered`
    /// the checksum is not computed again, because the caller has already checked an
    /// enclosing container's checksum over these same bytes (a saved rule set holds a
    /// literal automaton that holds a DFA: one pass over the file, not three).
    package static func open(
        _ bytes: ArraySlice<UInt8>, magic: [UInt8], version: UInt32, checksumCovered: Bool
    ) throws(AutomatonError) -> ArraySlice<UInt8> {
        let payload = try bytes.withUnsafeBytes { raw in
            Result { () throws(AutomatonError) in
                try payloadRange(of: raw, magic: magic, version: version, checksumCovered: checksumCovered)
            }
        }.get()
        return bytes[(bytes.startIndex + payload.lowerBound)..<(bytes.startIndex + payload.upperBound)]
    }

    /// Where the payload of the sealed file in `bytes` lies, after checking its magic,
    /// version, length and checksum: the one reader every saved format goes through.
    public static func payloadRange(of bytes: UnsafeRawBufferPointer, magic: [UInt8], version: UInt32) throws(AutomatonError) -> Range<Int> {
        try payloadRange(of: bytes, magic: magic, version: version, checksumCovered: false)
    }

    /// As ``payloadRange(of:magic:version:)``; with `checksumCovered` every field but
    /// the checksum is checked (magic, version, length), for a container nested in one
    /// whose checksum the caller has already verified.
    package static func payloadRange(
        of bytes: UnsafeRawBufferPointer, magic: [UInt8], version: UInt32, checksumCovered: Bool
    ) throws(AutomatonError) -> Range<Int> {
        func field(_ at: Int, _ size: Int) -> UInt64 {
            var v: UInt64 = 0
            for k in 0..<size { v |= UInt64(bytes[at + k]) << (8 * k) }
            return v
        }
        if bytes.count < magic.count {
            if bytes.elementsEqual(magic.prefix(bytes.count)) {
                throw AutomatonError(.truncated(needed: headerSize, available: bytes.count))
            }
            throw AutomatonError(.notAnAutomaton)
        }
        guard bytes.prefix(magic.count).elementsEqual(magic) else { throw AutomatonError(.notAnAutomaton) }
        guard bytes.count >= 12 else { throw AutomatonError(.truncated(needed: headerSize, available: bytes.count)) }
        let found = UInt32(field(8, 4))
        guard found == version else { throw AutomatonError(.unsupportedVersion(found: found, supported: version)) }
        guard bytes.count >= headerSize else { throw AutomatonError(.truncated(needed: headerSize, available: bytes.count)) }
        let length = field(12, 8)
        let available = UInt64(bytes.count - headerSize)
        if length > available {
            throw AutomatonError(.truncated(needed: headerSize + Int(min(length, UInt64(Int.max / 2))), available: bytes.count))
        }
        if length < available {
            throw AutomatonError(.corrupt("\(available - length) unexpected trailing bytes after the saved content"))
        }
        if checksumCovered { return headerSize..<bytes.count }
        let stored = UInt32(field(20, 4))
        let computed = CRC32C.checksum(UnsafeRawBufferPointer(rebasing: bytes[headerSize...]),
                                       continuing: CRC32C.checksum(UnsafeRawBufferPointer(rebasing: bytes[0..<20])))
        guard stored == computed else { throw AutomatonError(.checksumMismatch(stored: stored, computed: computed)) }
        return headerSize..<bytes.count
    }

    /// `file` with its checksum recomputed: for tests that change a field on purpose
    /// and want the content check, not the checksum, to answer.
    package static func resealed(_ file: [UInt8]) -> [UInt8] {
        var out = file
        let crc = CRC32C.checksum(Array(file[headerSize...]), continuing: CRC32C.checksum(Array(file[0..<20])))
        for k in 0..<4 { out[20 + k] = UInt8(truncatingIfNeeded: crc >> (8 * k)) }
        return out
    }
}
