// CRC-32C (Castagnoli, polynomial 0x1EDC6F41, reflected 0x82F63B78): the checksum of
// saved files. Chosen over CRC-32 (zlib) for its better error detection on short
// bursts and because iSCSI, ext4 and Btrfs use it, so other tools can check a file.
// Table-driven, one byte per step: a saved rule set of a few MB checks in a few ms,
// well under the cost of reading it. Catches every single-byte change and every burst
// up to 32 bits.

/// The CRC-32C of a byte sequence.
///
/// ```swift
/// CRC32C.checksum(Array("123456789".utf8))   // 0xE3069283 (the standard check value)
/// ```
///
/// - Complexity: O(n), one table lookup per byte.
public enum CRC32C {
    private static let table: [UInt32] = (0..<256).map { (n: Int) -> UInt32 in
        var c = UInt32(n)
        for _ in 0..<8 { c = c & 1 != 0 ? (c >> 1) ^ 0x82F6_3B78 : c >> 1 }
        return c
    }

    /// The CRC-32C of `bytes`, continuing from `crc` (the result for the bytes before).
    public static func checksum(_ bytes: UnsafeRawBufferPointer, continuing crc: UInt32 = 0) -> UInt32 {
        var c = ~crc
        table.withUnsafeBufferPointer { t in
            for b in bytes { c = t[Int((c ^ UInt32(b)) & 0xFF)] ^ (c >> 8) }
        }
        return ~c
    }

    /// The CRC-32C of `bytes`, continuing from `crc`.
    public static func checksum(_ bytes: [UInt8], continuing crc: UInt32 = 0) -> UInt32 {
        bytes.withUnsafeBytes { checksum($0, continuing: crc) }
    }
}
