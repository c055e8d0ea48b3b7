// Little-endian binary fields for saved files: a writer that appends them and a reader
// that checks every length before it reads, so a short or lying file is a typed
// `truncated` error, never an out-of-bounds read.

/// Appends little-endian fields to a byte array.
///
/// ```swift
/// var w = ByteWriter()
/// w.u32(7); w.bytes([1, 2])
/// w.out   // [7, 0, 0, 0, 1, 2]
/// ```
public struct ByteWriter: Sendable {
    /// What has been written.
    public private(set) var out: [UInt8] = []

    public init() {}

    public mutating func u8(_ v: UInt8) { out.append(v) }
    public mutating func u32(_ v: UInt32) { for k in 0..<4 { out.append(UInt8(truncatingIfNeeded: v >> (8 * k))) } }
    public mutating func u64(_ v: UInt64) { for k in 0..<8 { out.append(UInt8(truncatingIfNeeded: v >> (8 * k))) } }
    public mutating func bytes(_ b: [UInt8]) { out.append(contentsOf: b) }
}

/// Reads little-endian fields from the front of a byte slice.
///
/// ```swift
/// var r = ByteReader([7, 0, 0, 0, 1, 2][...])
/// try r.u32()      // 7
/// try r.bytes(3)   // throws .truncated: 2 bytes remain
/// ```
public struct ByteReader: Sendable {
    private let data: ArraySlice<UInt8>
    private var position: Int

    public init(_ data: ArraySlice<UInt8>) {
        self.data = data
        self.position = data.startIndex
    }

    /// Bytes not read yet.
    public var remaining: Int { data.endIndex - position }

    private func need(_ count: Int) throws(AutomatonError) {
        if count < 0 || count > remaining {
            throw AutomatonError(.truncated(needed: position - data.startIndex + max(count, 0), available: data.count))
        }
    }

    public mutating func u8() throws(AutomatonError) -> UInt8 {
        try need(1)
        defer { position += 1 }
        return data[position]
    }

    /// Fields are 4 or 8 bytes (``field(_:)`` loads exactly those two sizes).
    public mutating func u32() throws(AutomatonError) -> UInt32 { UInt32(try field(4)) }

    public mutating func u64() throws(AutomatonError) -> UInt64 { try field(8) }

    /// The next `count` bytes.
    public mutating func bytes(_ count: Int) throws(AutomatonError) -> [UInt8] {
        try need(count)
        defer { position += count }
        return Array(data[position..<(position + count)])
    }

    /// The next `count` bytes as a slice of the data, without copying them.
    public mutating func slice(_ count: Int) throws(AutomatonError) -> ArraySlice<UInt8> {
        try need(count)
        defer { position += count }
        return data[position..<(position + count)]
    }

    private mutating func field(_ size: Int) throws(AutomatonError) -> UInt64 {
        try need(size)
        let offset = position - data.startIndex
        // SAFETY: `need` checked `size` bytes from `offset`; the load is unaligned.
        let v = data.withUnsafeBytes { raw in
            size == 8 ? UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
                : UInt64(UInt32(littleEndian: raw.loadUnaligned(fromByteOffset: offset, as: UInt32.self)))
        }
        position += size
        return v
    }
}
