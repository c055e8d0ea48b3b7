import Testing
import AutomatonCore
import TestSupport

/// The saved-file checksum: the CPU-instruction path and the slicing-by-8 path against
/// a bit-at-a-time reference written from the polynomial, on every length and
/// alignment a loop tail or head can see.
@Suite struct CRC32CTests {
    /// CRC-32C one bit at a time, straight from the reflected polynomial.
    static func reference(_ bytes: ArraySlice<UInt8>, continuing crc: UInt32 = 0) -> UInt32 {
        var c = ~crc
        for b in bytes {
            c ^= UInt32(b)
            for _ in 0..<8 { c = c & 1 != 0 ? (c >> 1) ^ 0x82F6_3B78 : c >> 1 }
        }
        return ~c
    }

    @Test("standard check values: '123456789', 32 zeros, 32 0xFF bytes (RFC 3720 B.4)")
    func checkValues() {
        #expect(CRC32C.checksum(Array("123456789".utf8)) == 0xE306_9283)
        #expect(CRC32C.checksum([UInt8](repeating: 0, count: 32)) == 0x8A91_36AA)
        #expect(CRC32C.checksum([UInt8](repeating: 0xFF, count: 32)) == 0x62A8_AB43)
        #expect(CRC32C.checksum([]) == 0)
    }

    @Test("fast and portable paths equal the bitwise reference for every length 0...80, every offset 0...7, and chained")
    func pathsAgree() {
        var rng = SeededGenerator(defaultSeed: 0xC4C3_2C)
        let data = (0..<100).map { _ in UInt8.random(in: 0...255, using: &rng) }
        print("CRC32C paths (hardware: \(CRC32C.usesHardware)), seed \(rng.seed)")
        data.withUnsafeBytes { raw in
            for offset in 0..<8 {
                for length in 0...80 {
                    let part = UnsafeRawBufferPointer(rebasing: raw[offset..<(offset + length)])
                    let want = Self.reference(data[offset..<(offset + length)])
                    #expect(CRC32C.checksum(part) == want, "offset \(offset) length \(length)")
                    #expect(CRC32C.portableChecksum(part) == want, "offset \(offset) length \(length)")
                    let split = length / 3
                    let head = UnsafeRawBufferPointer(rebasing: part[0..<split])
                    let tail = UnsafeRawBufferPointer(rebasing: part[split...])
                    #expect(CRC32C.checksum(tail, continuing: CRC32C.checksum(head)) == want)
                    #expect(CRC32C.portableChecksum(tail, continuing: CRC32C.portableChecksum(head)) == want)
                }
            }
        }
    }
}
