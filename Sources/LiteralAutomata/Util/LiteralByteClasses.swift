import AutomatonCore

/// Byte classes for a set of literals: one class per distinct byte the patterns use
/// (ASCII letters folded together when matching case-insensitively), and one class
/// for every other byte. A literal automaton never distinguishes two bytes that no
/// pattern mentions, so this is the coarsest alphabet that preserves its language —
/// and with case folding `A` and `a` share a column, which is how case-insensitive
/// matching costs nothing at search time.
enum LiteralByteClasses {
    @inline(__always)
    static func fold(_ b: UInt8) -> UInt8 { asciiLowercased(b) }

    static func make<C: Collection>(_ patterns: C, asciiCaseInsensitive: Bool) -> ByteClasses
    where C.Element == [UInt8] {
        var used = [Bool](repeating: false, count: 256)
        for p in patterns {
            for b in p { used[Int(asciiCaseInsensitive ? fold(b) : b)] = true }
        }
        var classOfKey = [Int](repeating: -1, count: 256)
        var otherClass = -1
        var next = 0
        var map = [UInt8](repeating: 0, count: 256)
        for byte in 0..<256 {
            let key = Int(asciiCaseInsensitive ? fold(UInt8(byte)) : UInt8(byte))
            if used[key] {
                if classOfKey[key] < 0 { classOfKey[key] = next; next += 1 }
                map[byte] = UInt8(classOfKey[key])
            } else {
                if otherClass < 0 { otherClass = next; next += 1 }
                map[byte] = UInt8(otherClass)
            }
        }
        // 256 used bytes and no "other" class gives exactly 256 classes (ids 0...255).
        return ByteClasses(map: map)!
    }
}
