// Splitting a multipart body into its parts (RFC 2046 §5.1.1). A delimiter line is
// `--boundary` at the start of a line (anything after it on the line is ignored, as
// mail readers do); `--boundary--` closes the body. The line break before a delimiter
// belongs to it, the preamble before the first delimiter and the epilogue after the
// closing one are not parts. A body whose closing delimiter is missing ends its last
// part at the end of the body (counted as `missingClosingBoundary`); one in which the
// boundary never occurs has no parts (`missingBoundary`: the caller reads it as text).

/// The parts of a multipart body.
///
/// ```swift
/// let body = Array("pre\r\n--b\r\none\r\n--b\r\ntwo\r\n--b--\r\n".utf8)
/// var problems = MailDecodingProblems()
/// body.withUnsafeBufferPointer { MultipartBody.parts(of: $0[...], boundary: Array("b".utf8), maxParts: 10, problems: &problems) }
/// // [10..<13, 20..<23]: "one", "two"
/// ```
///
/// - Complexity: O(body bytes): one `memchr` per line and a compare at each line start.
enum MultipartBody {
    /// The byte ranges of the parts (offsets of the base buffer), at most `maxParts`
    /// (`tooManyParts` counted past it); nil when the boundary does not occur.
    static func parts(
        of body: Slice<UnsafeBufferPointer<UInt8>>, boundary: [UInt8], maxParts: Int,
        problems: inout MailDecodingProblems
    ) -> [Range<Int>]? {
        let buffer = body.base
        let end = body.endIndex
        var parts: [Range<Int>] = []
        var partStart: Int? = nil
        var sawDelimiter = false
        var line = body.startIndex
        while line < end {
            let (_, next) = HeaderFields.lineEnd(buffer, from: line, end: end)
            if isDelimiter(buffer, at: line, end: end, boundary: boundary) {
                sawDelimiter = true
                if let start = partStart {
                    // The part ends before the line break that precedes this line.
                    var e = line - 1
                    if e > start, buffer[e - 1] == 0x0D { e -= 1 }
                    parts.append(start..<max(start, e))
                    if parts.count >= maxParts {
                        problems.add(.tooManyParts)
                        return parts
                    }
                }
                let after = line + 2 + boundary.count
                if after + 1 < end, buffer[after] == UInt8(ascii: "-"), buffer[after + 1] == UInt8(ascii: "-") {
                    return parts  // closed
                }
                partStart = next
            }
            line = next
        }
        guard sawDelimiter else {
            problems.add(.missingBoundary)
            return nil
        }
        problems.add(.missingClosingBoundary)
        if let start = partStart, start < end { parts.append(start..<end) }
        return parts
    }

    /// Whether `--boundary` starts at `at`.
    private static func isDelimiter(_ buffer: UnsafeBufferPointer<UInt8>, at: Int, end: Int, boundary: [UInt8]) -> Bool {
        guard end - at >= 2 + boundary.count, buffer[at] == UInt8(ascii: "-"), buffer[at + 1] == UInt8(ascii: "-")
        else { return false }
        var k = at + 2
        for b in boundary {
            if buffer[k] != b { return false }
            k += 1
        }
        return true
    }
}
