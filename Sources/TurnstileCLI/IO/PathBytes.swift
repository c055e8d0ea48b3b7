#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// File names (and every other argument) are bytes, which need not be UTF-8; Swift
/// strings are Unicode. Bytes that are not part of valid UTF-8 are carried through the
/// strings the argument parser and the commands pass around as the private-use scalars
/// U+F780…U+F7FF (byte 0x80 + n is U+F780 + n), and turned back into those bytes
/// wherever a name meets the system: opening, `stat`, directory listings, output. So
/// `grep x $'caf\351'` opens the file whose name holds byte 0xE9 and prints that byte,
/// as grep does.
///
/// Known limit: a name that really holds one of those 128 private-use scalars is
/// taken for the bytes they stand for.
enum PathBytes {
    private static let base: UInt32 = 0xF700

    /// The bytes `raw` as a string: valid UTF-8 as itself, any other byte as its
    /// stand-in scalar.
    static func string<Bytes: Collection<UInt8>>(_ raw: Bytes) -> String where Bytes.Index == Int {
        // Nearly every name is ASCII: decoding it is a copy (the generic validating
        // initializer below took ~1,000 instructions a name of a `grep -r`).
        if raw.allSatisfy({ $0 < 0x80 }) { return String(decoding: raw, as: UTF8.self) }
        // Nearly every other name is valid UTF-8: one validating copy, no scalar by scalar.
        if let valid = String(validating: raw, as: UTF8.self) { return valid }
        var scalars = String.UnicodeScalarView()
        var i = raw.startIndex
        while i < raw.endIndex {
            let length = validSequenceLength(raw, at: i)
            if length == 0 {
                scalars.append(Unicode.Scalar(base + UInt32(raw[i]))!)
                i += 1
                continue
            }
            let decoded = String(decoding: raw[i..<(i + length)], as: UTF8.self)
            scalars.append(contentsOf: decoded.unicodeScalars)
            i += length
        }
        return String(scalars)
    }

    /// `folder/name` (one slash, none added after a trailing one), in one allocation:
    /// `folder + "/" + name` made two strings a path, ~600 instructions each, and a
    /// `grep -r` makes one a directory entry.
    static func joined(_ folder: String, _ name: String) -> String {
        var folder = folder, name = name
        let slash = folder.utf8.last == UInt8(ascii: "/") ? 0 : 1
        let folderCount = folder.utf8.count, nameCount = name.utf8.count
        return String(unsafeUninitializedCapacity: folderCount + slash + nameCount) { buffer in
            folder.withUTF8 { bytes in _ = UnsafeMutableBufferPointer(rebasing: buffer[..<folderCount]).initialize(from: bytes) }
            if slash == 1 { buffer[folderCount] = UInt8(ascii: "/") }
            name.withUTF8 { bytes in _ = UnsafeMutableBufferPointer(rebasing: buffer[(folderCount + slash)...]).initialize(from: bytes) }
            return folderCount + slash + nameCount
        }
    }

    /// The bytes a string from ``string(_:)`` stands for.
    static func bytes(_ string: String) -> [UInt8] {
        // A stand-in (U+F780…U+F7FF) starts with the byte EF in UTF-8: without one,
        // the string's UTF-8 is its bytes.
        if !mayHoldStandIns(string) { return Array(string.utf8) }
        var result: [UInt8] = []
        result.reserveCapacity(string.utf8.count)
        for scalar in string.unicodeScalars {
            if scalar.value >= base + 0x80, scalar.value <= base + 0xFF {
                result.append(UInt8(scalar.value - base))
            } else {
                result.append(contentsOf: String(scalar).utf8)
            }
        }
        return result
    }

    /// Whether `string` holds a stand-in for a byte (then it must go through ``bytes(_:)``).
    static func hasStandIns(_ string: String) -> Bool {
        mayHoldStandIns(string) && string.unicodeScalars.contains { $0.value >= base + 0x80 && $0.value <= base + 0xFF }
    }

    /// Whether the string's UTF-8 holds the byte EF, which starts every stand-in:
    /// one memchr over a native string's bytes. Why not `utf8.contains`: it walks the
    /// view byte by byte (callgrind, `grep -r` over 6,000 files: 1,360 instructions a
    /// name, and the scalar walk of ``hasStandIns(_:)`` 1,150 more, at every open).
    private static func mayHoldStandIns(_ string: String) -> Bool {
        if let found = string.utf8.withContiguousStorageIfAvailable({ bytes -> Bool in
            guard let start = bytes.baseAddress, !bytes.isEmpty else { return false }
            return memchr(start, 0xEF, bytes.count) != nil
        }) {
            return found
        }
        return string.utf8.contains(0xEF)
    }

    /// Calls `body` with the name as a C string of its bytes.
    static func withCString<R>(_ string: String, _ body: (UnsafePointer<CChar>) -> R) -> R {
        guard hasStandIns(string) else { return string.withCString(body) }
        return (bytes(string) + [0]).withUnsafeBufferPointer { buffer in
            buffer.withMemoryRebound(to: CChar.self) { body($0.baseAddress!) }
        }
    }

    /// The length of the valid UTF-8 sequence at `i`, or 0 when the byte there starts none.
    private static func validSequenceLength<Bytes: Collection<UInt8>>(_ raw: Bytes, at i: Int) -> Int
    where Bytes.Index == Int {
        let lead = raw[i]
        if lead < 0x80 { return 1 }
        var length = 0, low: UInt8 = 0x80, high: UInt8 = 0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; low = 0xA0
        case 0xE1...0xEC, 0xEE...0xEF: length = 3
        case 0xED: length = 3; high = 0x9F
        case 0xF0: length = 4; low = 0x90
        case 0xF1...0xF3: length = 4
        case 0xF4: length = 4; high = 0x8F
        default: return 0
        }
        guard i + length <= raw.endIndex else { return 0 }
        for k in 1..<length {
            let b = raw[i + k]
            let (lo, hi) = k == 1 ? (low, high) : (UInt8(0x80), UInt8(0xBF))
            if b < lo || b > hi { return 0 }
        }
        return length
    }
}

/// The process's arguments as ``PathBytes`` strings: CommandLine.arguments would
/// replace bytes that are not UTF-8 with U+FFFD, losing the file name.
func rawArguments() -> [String] {
    (0..<Int(CommandLine.argc)).map { i in
        guard let p = CommandLine.unsafeArgv[i] else { return "" }
        return PathBytes.string(UnsafeBufferPointer(start: UnsafeRawPointer(p).assumingMemoryBound(to: UInt8.self),
                                                    count: strlen(p)))
    }
}
