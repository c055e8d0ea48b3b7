// CRC-32C (Castagnoli, polynomial 0x1EDC6F41, reflected 0x82F63B78): the checksum of
// saved files. Chosen over CRC-32 (zlib) for its better error detection on short
// bursts and because iSCSI, ext4 and Btrfs use it, so other tools can check a file.
// Computed in C (CChecksum): the CPU's CRC-32C instruction, 8 bytes per step, or
// slicing-by-8 tables where there is none. Catches every single-byte change and every
// burst up to 32 bits.

import CChecksum

/// The CRC-32C of a byte sequence.
///
/// ```swift
/// CRC32C.checksum(Array("123456789".utf8))   // 0xE3069283 (the standard check value)
/// ```
///
/// - Complexity: O(n); with the instruction about 8 bytes per cycle or two.
public enum CRC32C {
    /// The CRC-32C of `bytes`, continuing from `crc` (the result for the bytes before).
    public static func checksum(_ bytes: UnsafeRawBufferPointer, continuing crc: UInt32 = 0) -> UInt32 {
        guard let base = bytes.baseAddress else { return crc }
        return tc_crc32c(crc, base.assumingMemoryBound(to: UInt8.self), bytes.count)
    }

    /// The CRC-32C of `bytes`, continuing from `crc`.
    public static func checksum(_ bytes: [UInt8], continuing crc: UInt32 = 0) -> UInt32 {
        bytes.withUnsafeBytes { checksum($0, continuing: crc) }
    }

    /// The portable (table) version, whatever the CPU: for tests that check the two agree.
    package static func portableChecksum(_ bytes: UnsafeRawBufferPointer, continuing crc: UInt32 = 0) -> UInt32 {
        guard let base = bytes.baseAddress else { return crc }
        return tc_crc32c_portable(crc, base.assumingMemoryBound(to: UInt8.self), bytes.count)
    }

    /// `true` when ``checksum(_:continuing:)-(UnsafeRawBufferPointer,_)`` uses the CPU's instruction.
    package static var usesHardware: Bool { tc_crc32c_hardware() != 0 }
}
