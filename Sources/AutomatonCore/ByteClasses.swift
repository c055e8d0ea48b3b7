/// The alphabet Σ compressed to equivalence classes: bytes that no transition of an
/// automaton distinguishes share one class, so the table needs one column per class
/// instead of 256.
///
/// Every automaton also has one extra symbol after the byte classes, the
/// end-of-input symbol (``eoi``), which lets a builder express look-ahead at the end
/// of the haystack (`$`, `\b`) as an ordinary transition.
///
/// ```swift
/// var set = ByteClassSet()
/// set.add(UInt8(ascii: "a")...UInt8(ascii: "z"))
/// let classes = set.byteClasses()   // 3 classes: below a, a-z, above z
/// classes[UInt8(ascii: "q")] == classes[UInt8(ascii: "a")]  // true
/// ```
///
/// - Complexity: lookup is O(1); building from a ``ByteClassSet`` is O(256).
public struct ByteClasses: Sendable, Hashable {
    /// byte → class; always 256 entries; classes are numbered 0..<count in byte
    /// order of their first member, and every class has at least one byte.
    @usableFromInline internal let map: [UInt8]

    /// Number of byte classes (1...256), not counting the end-of-input symbol.
    public let count: Int

    /// Creates classes from a byte → class map; classes must be 0..<n, each used,
    /// numbered in order of first appearance. Returns nil otherwise.
    public init?(map: [UInt8]) {
        guard map.count == 256 else { return nil }
        var next = 0
        for byte in 0..<256 {
            let c = Int(map[byte])
            if c == next { next += 1 } else if c > next { return nil }
        }
        self.map = map
        self.count = next
    }

    @usableFromInline internal init(uncheckedMap map: [UInt8], count: Int) {
        self.map = map
        self.count = count
    }

    /// Every byte in its own class: 256 classes.
    public static let singletons = ByteClasses(uncheckedMap: (0..<256).map { UInt8($0) }, count: 256)

    /// All bytes in one class.
    public static let single = ByteClasses(uncheckedMap: [UInt8](repeating: 0, count: 256), count: 1)

    /// The class of `byte`.
    @inlinable
    public subscript(byte: UInt8) -> UInt8 {
        // SAFETY: map always has 256 entries, so any UInt8 is in range.
        map.withUnsafeBufferPointer { $0[Int(byte)] }
    }

    /// Number of symbols the table needs: the byte classes plus end-of-input.
    @inlinable public var alphabetLength: Int { count + 1 }

    /// The symbol index of end-of-input (one past the last byte class).
    @inlinable public var eoi: Int { count }

    /// One byte of each class, in class order (useful to enumerate Σ).
    public var representatives: [UInt8] {
        var result: [UInt8] = []
        result.reserveCapacity(count)
        var seen = 0
        for byte in 0..<256 where Int(map[byte]) == seen {
            result.append(UInt8(byte))
            seen += 1
        }
        return result
    }

    /// The bytes of class `c`, as maximal contiguous ranges in byte order.
    public func ranges(ofClass c: Int) -> [ClosedRange<UInt8>] {
        var result: [ClosedRange<UInt8>] = []
        var runStart: Int? = nil
        for byte in 0...256 {
            let inClass = byte < 256 && Int(map[byte]) == c
            if inClass, runStart == nil { runStart = byte }
            if !inClass, let s = runStart {
                result.append(UInt8(s)...UInt8(byte - 1))
                runStart = nil
            }
        }
        return result
    }

    /// The raw byte → class map (256 entries), for serialization and fast loops.
    public var classMap: [UInt8] { map }
}

/// Collects the byte ranges an automaton distinguishes and turns them into the
/// coarsest ``ByteClasses`` that keeps every range whole.
///
/// A boundary is recorded after the last byte of every range added and before its
/// first; bytes between two boundaries share a class.
public struct ByteClassSet: Sendable {
    /// bit i set ⇔ byte i and byte i+1 lie in different classes.
    private var boundaries: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)

    public init() {}

    private mutating func setBoundary(after byte: Int) {
        guard byte >= 0, byte < 255 else { return }
        let word = byte >> 6, bit = UInt64(1) << UInt64(byte & 63)
        switch word {
        case 0: boundaries.0 |= bit
        case 1: boundaries.1 |= bit
        case 2: boundaries.2 |= bit
        default: boundaries.3 |= bit
        }
    }

    private func isBoundary(after byte: Int) -> Bool {
        let word = byte >> 6, bit = UInt64(1) << UInt64(byte & 63)
        switch word {
        case 0: return boundaries.0 & bit != 0
        case 1: return boundaries.1 & bit != 0
        case 2: return boundaries.2 & bit != 0
        default: return boundaries.3 & bit != 0
        }
    }

    /// Keeps the bytes of `range` apart from the bytes around it.
    public mutating func add(_ range: ClosedRange<UInt8>) {
        setBoundary(after: Int(range.lowerBound) - 1)
        setBoundary(after: Int(range.upperBound))
    }

    /// Keeps `byte` in a class of its own.
    public mutating func add(_ byte: UInt8) { add(byte...byte) }

    /// Merges the boundaries of another set into this one.
    public mutating func formUnion(_ other: ByteClassSet) {
        boundaries.0 |= other.boundaries.0
        boundaries.1 |= other.boundaries.1
        boundaries.2 |= other.boundaries.2
        boundaries.3 |= other.boundaries.3
    }

    /// The classes these boundaries define.
    public func byteClasses() -> ByteClasses {
        var map = [UInt8](repeating: 0, count: 256)
        var c = 0
        for byte in 0..<256 {
            map[byte] = UInt8(c)
            if byte < 255, isBoundary(after: byte) { c += 1 }
        }
        return ByteClasses(uncheckedMap: map, count: c + 1)
    }
}
