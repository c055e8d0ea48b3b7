// The search vocabulary of the oracle: isMatch / firstMatch / matches / count, on
// bytes, on Strings (their UTF-8) and on raw buffers (for benchmarks).
//
// All positions are byte offsets into the haystack, half-open start..<end.

extension PCRE2Regex {
    /// Every successive non-overlapping match, as byte ranges, found with PCRE2's
    /// global loop (the one Perl's `//g` and pcre2grep use).
    ///
    /// ```swift
    /// try PCRE2Regex(pattern: "a*").matches(in: Array("ab".utf8))  // [0..<1, 1..<1, 2..<2]
    /// try PCRE2Regex(pattern: "|a").matches(in: Array("a".utf8))   // [0..<0, 0..<1, 1..<1]
    /// ```
    /// - Throws: ``PCRE2Error`` of kind `.match`, for example when the haystack is not
    ///   valid UTF-8 in UTF mode.
    /// - Complexity: PCRE2's search cost; one allocation per call plus the result array.
    public func matches(in haystack: [UInt8]) throws(PCRE2Error) -> [Range<Int>] {
        try haystack.withUnsafeBufferPointer { matchesResult(in: $0) }.get()
    }

    /// Every successive non-overlapping match in the UTF-8 of `haystack`, as byte ranges.
    ///
    /// ```swift
    /// try PCRE2Regex(pattern: ".").matches(in: "é!")  // [0..<2, 2..<3]
    /// ```
    /// - Throws: ``PCRE2Error`` of kind `.match`.
    /// - Complexity: as ``matches(in:)-([UInt8])``.
    public func matches(in haystack: String) throws(PCRE2Error) -> [Range<Int>] {
        var text = haystack
        return try text.withUTF8 { matchesResult(in: $0) }.get()
    }

    /// Every successive non-overlapping match in `haystack`, as byte ranges.
    ///
    /// ```swift
    /// let ranges = try bytes.withUnsafeBufferPointer { try regex.matches(in: $0) }
    /// ```
    /// - Throws: ``PCRE2Error`` of kind `.match`.
    /// - Complexity: as ``matches(in:)-([UInt8])``.
    public func matches(in haystack: UnsafeBufferPointer<UInt8>) throws(PCRE2Error) -> [Range<Int>] {
        try matchesResult(in: haystack).get()
    }

    /// The number of matches ``matches(in:)-([UInt8])`` would return, without
    /// building the array (no allocation per match; for benchmarks).
    ///
    /// ```swift
    /// try PCRE2Regex(pattern: "a").count(in: Array("banana".utf8))  // 3
    /// ```
    /// - Throws: ``PCRE2Error`` of kind `.match`.
    /// - Complexity: PCRE2's search cost; one allocation per call.
    public func count(in haystack: [UInt8]) throws(PCRE2Error) -> Int {
        try haystack.withUnsafeBufferPointer { countResult(in: $0) }.get()
    }

    /// The number of matches in the UTF-8 of `haystack`.
    ///
    /// ```swift
    /// try PCRE2Regex(pattern: "an").count(in: "banana")  // 2
    /// ```
    /// - Throws: ``PCRE2Error`` of kind `.match`.
    /// - Complexity: as ``count(in:)-([UInt8])``.
    public func count(in haystack: String) throws(PCRE2Error) -> Int {
        var text = haystack
        return try text.withUTF8 { countResult(in: $0) }.get()
    }

    /// The number of matches in `haystack` (for benchmarks that hold raw buffers).
    ///
    /// ```swift
    /// let n = try bytes.withUnsafeBufferPointer { try regex.count(in: $0) }
    /// ```
    /// - Throws: ``PCRE2Error`` of kind `.match`.
    /// - Complexity: as ``count(in:)-([UInt8])``.
    public func count(in haystack: UnsafeBufferPointer<UInt8>) throws(PCRE2Error) -> Int {
        try countResult(in: haystack).get()
    }

    /// The leftmost-first match that starts at or after byte `start`, or nil.
    ///
    /// Bytes before `start` are still visible to lookbehind, `\b` and `^` (as with
    /// PCRE2's start offset). In UTF mode `start` must be at a scalar boundary.
    ///
    /// ```swift
    /// try PCRE2Regex(pattern: "a").firstMatch(in: Array("banana".utf8), from: 2)  // 3..<4
    /// ```
    /// - Throws: ``PCRE2Error`` of kind `.match` (including `start` past the end or
    ///   inside a UTF-8 scalar).
    /// - Complexity: PCRE2's search cost; one allocation per call.
    public func firstMatch(in haystack: [UInt8], from start: Int = 0) throws(PCRE2Error) -> Range<Int>? {
        try haystack.withUnsafeBufferPointer { firstMatchResult(in: $0, from: start) }.get()
    }

    /// The leftmost-first match in the UTF-8 of `haystack` at or after byte `start`.
    ///
    /// ```swift
    /// try PCRE2Regex(pattern: "b+").firstMatch(in: "abba")  // 1..<3
    /// ```
    /// - Throws: ``PCRE2Error`` of kind `.match`.
    /// - Complexity: as ``firstMatch(in:from:)-([UInt8],_)``.
    public func firstMatch(in haystack: String, from start: Int = 0) throws(PCRE2Error) -> Range<Int>? {
        var text = haystack
        return try text.withUTF8 { firstMatchResult(in: $0, from: start) }.get()
    }

    /// `true` when the pattern matches somewhere in `haystack`.
    ///
    /// ```swift
    /// try PCRE2Regex(pattern: "x").isMatch(in: Array("abc".utf8))  // false
    /// ```
    /// - Throws: ``PCRE2Error`` of kind `.match`.
    /// - Complexity: PCRE2's search cost; one allocation per call.
    public func isMatch(in haystack: [UInt8]) throws(PCRE2Error) -> Bool {
        try firstMatch(in: haystack) != nil
    }

    /// `true` when the pattern matches somewhere in the UTF-8 of `haystack`.
    ///
    /// ```swift
    /// try PCRE2Regex(pattern: "b").isMatch(in: "abc")  // true
    /// ```
    /// - Throws: ``PCRE2Error`` of kind `.match`.
    /// - Complexity: as ``isMatch(in:)-([UInt8])``.
    public func isMatch(in haystack: String) throws(PCRE2Error) -> Bool {
        try firstMatch(in: haystack) != nil
    }

    // MARK: - Result-returning cores (the closures of withUnsafeBufferPointer and
    // withUTF8 are not typed-throws, so errors travel as Result values).

    private func matchesResult(in subject: UnsafeBufferPointer<UInt8>) -> Result<[Range<Int>], PCRE2Error> {
        var ranges: [Range<Int>] = []
        if let error = forEachMatch(in: subject, from: 0, { start, end in
            ranges.append(start..<end)
            return true
        }) {
            return .failure(error)
        }
        return .success(ranges)
    }

    private func countResult(in subject: UnsafeBufferPointer<UInt8>) -> Result<Int, PCRE2Error> {
        var count = 0
        if let error = forEachMatch(in: subject, from: 0, { _, _ in
            count += 1
            return true
        }) {
            return .failure(error)
        }
        return .success(count)
    }

    private func firstMatchResult(in subject: UnsafeBufferPointer<UInt8>, from start: Int) -> Result<Range<Int>?, PCRE2Error> {
        var found: Range<Int>?
        if let error = forEachMatch(in: subject, from: start, { matchStart, matchEnd in
            found = matchStart..<matchEnd
            return false
        }) {
            return .failure(error)
        }
        return .success(found)
    }
}
