// The glue every fuzz target shares: running libFuzzer's driver with a Swift check,
// reading structured values from the fuzz input, and failing loudly.

import FuzzDriver
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

nonisolated(unsafe) private var currentCheck: (([UInt8]) -> Void)?

/// Runs libFuzzer with `check` as the per-input function and exits with its status.
///
/// Before the driver starts, `extraCommands` gets a chance to handle arguments of its
/// own (e.g. `--write-seeds DIR`); it returns `true` when it handled them.
public func runFuzzer(
    extraCommands: ([String]) -> Bool = { _ in false },
    _ check: @escaping ([UInt8]) -> Void
) -> Never {
    if extraCommands(CommandLine.arguments) { exit(0) }
    currentCheck = check
    var argc = CommandLine.argc
    var argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = CommandLine.unsafeArgv
    let status = LLVMFuzzerRunDriver(&argc, &argv) { data, size in
        let bytes = size == 0 ? [] : Array(UnsafeBufferPointer(start: data, count: size))
        currentCheck!(bytes)
        return 0
    }
    exit(status)
}

/// Reports a finding and aborts, so libFuzzer saves the input as a crash artifact.
public func fuzzFailure(_ message: String) -> Never {
    let text = Array("\n*** Turnstile fuzz finding ***\n\(message)\n".utf8)
    _ = text.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    abort()
}

/// Reads structured values from the fuzz input, front to back; past the end every
/// read returns zero, so any input is a valid (if short) description.
public struct FuzzInput {
    public let bytes: [UInt8]
    public private(set) var position = 0

    public init(_ bytes: [UInt8]) { self.bytes = bytes }

    public var isAtEnd: Bool { position >= bytes.count }
    public var remaining: Int { max(0, bytes.count - position) }

    public mutating func byte() -> UInt8 {
        guard position < bytes.count else { return 0 }
        defer { position += 1 }
        return bytes[position]
    }

    /// A value in `0..<bound` (bound ≥ 1).
    public mutating func int(below bound: Int) -> Int { Int(byte()) % bound }

    public mutating func uint64() -> UInt64 {
        var v: UInt64 = 0
        for k in 0..<8 { v |= UInt64(byte()) << (8 * UInt64(k)) }
        return v
    }

    /// The next `count` bytes (fewer at the end).
    public mutating func take(_ count: Int) -> [UInt8] {
        let n = min(count, remaining)
        defer { position += n }
        return Array(bytes[position..<position + n])
    }

    /// Everything not read yet.
    public mutating func rest() -> [UInt8] { take(remaining) }

    /// Bytes up to (not including) the next `separator`, which is consumed.
    public mutating func take(until separator: UInt8) -> [UInt8] {
        var out: [UInt8] = []
        while position < bytes.count {
            let b = bytes[position]
            position += 1
            if b == separator { break }
            out.append(b)
        }
        return out
    }
}

/// Bytes as a readable, copy-pasteable Swift literal: the string when it is valid
/// UTF-8, and the byte array as well.
public func showBytes(_ bytes: [UInt8]) -> String {
    let text = String(validating: bytes, as: UTF8.self).map { $0.debugDescription } ?? "(not UTF-8)"
    return "\(text) bytes: \(bytes)"
}

/// Writes `seeds` as files `seed-<n>` into `directory` (for `--write-seeds`).
public func writeSeeds(_ seeds: [[UInt8]], to directory: String) {
    mkdir(directory, 0o755)
    for (n, seed) in seeds.enumerated() {
        let path = "\(directory)/seed-\(n)"
        guard let f = fopen(path, "wb") else { fuzzFailure("cannot write \(path)") }
        _ = seed.withUnsafeBytes { fwrite($0.baseAddress, 1, $0.count, f) }
        fclose(f)
    }
    print("wrote \(seeds.count) seeds to \(directory)")
}
