/// A set and a map kept as plain arrays, read by linear search: the option tables a
/// command line is checked against at start-up (a few dozen spellings).
///
/// Why not `Set` and `Dictionary`: the first `String`-keyed hashed collection of a run
/// makes the runtime prove `String: Hashable` by scanning every conformance record of
/// the executable (the specialisation the linker keeps comes from a module built with
/// mangled-name metadata accessors). Callgrind, `match -c '^#' small.txt`: the table's
/// dictionaries cost 455 K of 2.39 M instructions, 240 K of it that scan; a lookup in
/// a few dozen short strings costs a few hundred.
struct ShortSet<Element: Equatable>: ExpressibleByArrayLiteral, Equatable {
    private(set) var elements: [Element]

    init(arrayLiteral elements: Element...) { self.elements = []; formUnion(elements) }
    init<S: Sequence>(_ elements: S) where S.Element == Element { self.elements = []; formUnion(elements) }

    var isEmpty: Bool { elements.isEmpty }
    func contains(_ element: Element) -> Bool { elements.contains(element) }

    mutating func insert(_ element: Element) {
        if !elements.contains(element) { elements.append(element) }
    }

    mutating func formUnion<S: Sequence>(_ other: S) where S.Element == Element {
        for element in other { insert(element) }
    }

    func union<S: Sequence>(_ other: S) -> ShortSet where S.Element == Element {
        var sum = self
        sum.formUnion(other)
        return sum
    }

    mutating func remove(_ element: Element) { elements.removeAll { $0 == element } }

    func filter(_ isIncluded: (Element) -> Bool) -> [Element] { elements.filter(isIncluded) }

    /// Equal as sets: the same elements in any order.
    static func == (a: ShortSet, b: ShortSet) -> Bool {
        a.elements.count == b.elements.count && a.elements.allSatisfy(b.contains)
    }
}

extension ShortSet: Sequence {
    func makeIterator() -> IndexingIterator<[Element]> { elements.makeIterator() }
}

/// A map from a few keys to values; the first value given for a key is kept.
struct ShortMap<Key: Equatable, Value>: ExpressibleByDictionaryLiteral {
    private(set) var pairs: [(key: Key, value: Value)]

    init(dictionaryLiteral pairs: (Key, Value)...) {
        self.pairs = []
        for (key, value) in pairs where self[key] == nil { self.pairs.append((key, value)) }
    }

    var isEmpty: Bool { pairs.isEmpty }
    var keys: [Key] { pairs.map(\.key) }

    subscript(key: Key) -> Value? {
        get { pairs.first { $0.key == key }?.value }
        set {
            pairs.removeAll { $0.key == key }
            if let newValue { pairs.append((key, newValue)) }
        }
    }

    /// Adds a pair whose key the caller knows is new (a table written out once), without
    /// the search ``subscript(_:)``'s setter makes.
    mutating func append(_ key: Key, _ value: Value) { pairs.append((key, value)) }

    /// `other`'s pairs whose key is not here yet.
    mutating func add(_ other: ShortMap) {
        for (key, value) in other.pairs where self[key] == nil { pairs.append((key, value)) }
    }
}

extension ShortSet: Sendable where Element: Sendable {}
extension ShortMap: Sendable where Key: Sendable, Value: Sendable {}
