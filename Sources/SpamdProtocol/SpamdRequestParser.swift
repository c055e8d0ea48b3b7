// Reading a spamc request's first line and header section as spamd reads them
// (spamd's main loop, parse_headers and the got_*_header checks): the method is found
// anywhere in the first line before ` SPAMC/`; header lines end with CRLF and the
// section with an empty CRLF line; names are case-sensitive (`Content-length`);
// at most 255 headers. Deviations, each stricter: a request header longer than
// `maxHeaderBytes` is refused, a `Message-class` other than spam or ham is refused
// (spamd takes any value as ham), and `Compress: zlib` is refused as spamd refuses it
// without Compress::Zlib (spamc then sends the message uncompressed on a retry by hand).

/// Parses the head of a request from the bytes received so far.
///
/// ```swift
/// let bytes = Array("CHECK SPAMC/1.5\r\nContent-length: 5\r\n\r\nhello".utf8)
/// if case .head(let head, let bodyStart) = SpamdRequestParser().parse(bytes, inputEnded: false) {
///     head.method          // .check
///     head.contentLength   // 5
///     bodyStart            // 38
/// }
/// ```
///
/// - Complexity: O(head bytes) per call; the caller calls again only when a line end
///   arrived (``mayComplete(after:)``).
public struct SpamdRequestParser: Sendable {
    /// The most bytes of first line and header section together.
    public var maxHeaderBytes: Int
    /// spamd's limit: 255 header lines and the empty one.
    public static let maxHeaderLines = 256

    public init(maxHeaderBytes: Int = 8192) {
        self.maxHeaderBytes = maxHeaderBytes
    }

    /// What the bytes so far give.
    public enum Outcome: Sendable, Hashable {
        /// The head is not complete yet.
        case needMore
        /// The head, and the offset of the first message byte.
        case head(SpamdRequestHead, bodyStart: Int)
        /// The request is refused with this answer.
        case error(SpamdError)
    }

    /// Parses `bytes`, the start of the connection's input; `inputEnded`: no more will come.
    public func parse(_ bytes: [UInt8], inputEnded: Bool) -> Outcome {
        bytes.withUnsafeBufferPointer { parse($0, inputEnded: inputEnded) }
    }

    public func parse(_ bytes: UnsafeBufferPointer<UInt8>, inputEnded: Bool) -> Outcome {
        // The first line: up to LF, or to the end of the input (perl's getline).
        var lineEnd = 0
        while lineEnd < bytes.count, bytes[lineEnd] != 0x0A { lineEnd += 1 }
        if lineEnd == bytes.count {
            if !inputEnded { return tooLong(bytes.count) ?? .needMore }
            if bytes.isEmpty { return .error(.protocolError("(closed before headers)")) }
        }
        if let error = tooLong(min(lineEnd + 1, bytes.count)) { return error }
        let next = min(lineEnd + 1, bytes.count)
        var line = Array(bytes[0..<lineEnd])
        if line.last == 0x0D { line.removeLast() }
        guard let (method, version) = Self.requestLine(line) else {
            return .error(.protocolError(Self.printable(line)))
        }
        var head = SpamdRequestHead(method: method, version: version)
        guard method.hasHeaders(version: version) else { return .head(head, bodyStart: next) }
        return headers(bytes, from: next, inputEnded: inputEnded, into: &head)
    }

    /// Whether a chunk that arrived can complete a head: it holds a line end.
    public static func mayComplete(after chunk: UnsafeRawBufferPointer) -> Bool {
        chunk.contains(0x0A)
    }

    private func tooLong(_ count: Int) -> Outcome? {
        count > maxHeaderBytes ? .error(.protocolError("(request header longer than \(maxHeaderBytes) bytes)")) : nil
    }

    /// The header lines from `start` to the empty line.
    private func headers(_ bytes: UnsafeBufferPointer<UInt8>, from start: Int, inputEnded: Bool,
                         into head: inout SpamdRequestHead) -> Outcome {
        var at = start
        for _ in 0..<Self.maxHeaderLines {
            var lineEnd = at
            while lineEnd < bytes.count, bytes[lineEnd] != 0x0A { lineEnd += 1 }
            if lineEnd == bytes.count {
                if let error = tooLong(bytes.count) { return error }
                if !inputEnded { return .needMore }
                // perl's getline gives the last, unended line; only nothing at all is EOF.
                if at == bytes.count { return .error(.protocolError("(EOF during headers)")) }
            }
            let next = min(lineEnd + 1, bytes.count)
            if let error = tooLong(next) { return error }
            var line = Array(bytes[at..<next])
            // spamd strips CRLF only: a line of a bare LF is not the end of the headers.
            if line.count >= 2, line[line.count - 2] == 0x0D, line[line.count - 1] == 0x0A { line.removeLast(2) }
            if line.isEmpty {
                if head.method == .tell, head.set.contains(.local), head.remove.contains(.local) {
                    return .error(.protocolError("Unable to set local and remove local in the same operation."))
                }
                if head.method == .tell, head.set.contains(.remote), head.remove.contains(.remote) {
                    return .error(.protocolError("Unable to set remote and remove remote in the same operation."))
                }
                return .head(head, bodyStart: next)
            }
            if let error = Self.header(line, into: &head) { return .error(error) }
            at = next
        }
        return .error(.protocolError("(too many headers)"))
    }

    /// One `Name: value` line (CRLF removed): nil when it is fine.
    static func header(_ line: [UInt8], into head: inout SpamdRequestHead) -> SpamdError? {
        guard let colon = line.firstIndex(of: UInt8(ascii: ":")) else {
            return .protocolError("(header not in 'Name: value' format)")
        }
        let name = String(decoding: line[..<colon], as: UTF8.self)
        var valueStart = colon + 1
        while valueStart < line.count, Self.isPerlSpace(line[valueStart]) { valueStart += 1 }
        var value = Array(line[valueStart...])
        // perl's `$` matches before a final newline: a value ended by LF alone reads the same.
        if value.last == 0x0A { value.removeLast() }
        switch name {
        case "Content-length":
            guard value.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else {
                return .protocolError("(Content-Length contains non-numeric bytes)")
            }
            guard value.count <= 18 else { return .protocolError("(Content-Length too large)") }
            head.contentLength = value.reduce(0) { $0 * 10 + Int($1 - 0x30) }
        case "User":
            guard value.allSatisfy({ $0 >= 0x20 && $0 != 0x7F }) else {
                return .protocolError("(User header contains control chars)")
            }
            head.user = String(decoding: value, as: UTF8.self)
        case "Message-class":
            guard let kind = SpamdMessageClass(rawValue: String(decoding: value, as: UTF8.self).lowercased()) else {
                return .protocolError("(Message-class header contains invalid class)")
            }
            head.messageClass = kind
        case "Set":
            head.set = Self.targets(value)
        case "Remove":
            head.remove = Self.targets(value)
        case "Compress":
            let text = String(decoding: value, as: UTF8.self)
            if text.lowercased().contains("zlib") {
                return .protocolError("(compression not supported: \(Self.printable(value)))")
            }
            return .protocolError("(compression type not supported: \(Self.printable(value)))")
        default:
            break
        }
        return nil
    }

    /// `local` and `remote` anywhere in the value, any case (spamd's got_set_header).
    static func targets(_ value: [UInt8]) -> SpamdTellTargets {
        let text = String(decoding: value, as: UTF8.self).lowercased()
        var targets: SpamdTellTargets = []
        if text.contains("local") { targets.insert(.local) }
        if text.contains("remote") { targets.insert(.remote) }
        return targets
    }

    /// perl's `\s`: space, TAB, LF, VT, FF, CR.
    static func isPerlSpace(_ b: UInt8) -> Bool { b == 0x20 || (b >= 0x09 && b <= 0x0D) }

    /// The method and version of a request line: the leftmost `METHOD SPAMC/` in it,
    /// as spamd's unanchored matches find it (judging methods first, then TELL, then
    /// SKIP and PING); the version is the number the rest
    /// starts with (perl's numeric value of `1.5`, `1.5x`; 0 when none).
    static func requestLine(_ line: [UInt8]) -> (SpamdMethod, Double)? {
        // spamd tries three patterns in turn, each anywhere in the line.
        let groups: [[SpamdMethod]] = [[.process, .check, .symbols, .report, .headers, .reportIfSpam], [.tell], [.skip, .ping]]
        let marker = Array(" SPAMC/".utf8)
        for methods in groups {
            for start in line.indices {
                for method in methods {
                    let word = Array(method.rawValue.utf8)
                    let end = start + word.count + marker.count
                    guard end <= line.count, line[start..<start + word.count].elementsEqual(word),
                          line[(start + word.count)..<end].elementsEqual(marker) else { continue }
                    return (method, Self.perlNumber(line[end...]))
                }
            }
        }
        return nil
    }

    /// The number a string starts with, as perl reads it (leading spaces skipped).
    static func perlNumber(_ text: ArraySlice<UInt8>) -> Double {
        var digits = ""
        var seenDot = false
        for b in text.drop(while: { isPerlSpace($0) }) {
            if b >= 0x30 && b <= 0x39 { digits.append(Character(UnicodeScalar(b))) }
            else if b == UInt8(ascii: "."), !seenDot { seenDot = true; digits.append(".") }
            else { break }
        }
        return Double(digits) ?? (digits.hasPrefix(".") ? Double("0" + digits) ?? 0 : 0)
    }

    /// Bytes as text for an error line: control bytes and non-ASCII as `?`.
    static func printable(_ bytes: [UInt8]) -> String {
        String(decoding: bytes.map { $0 >= 0x20 && $0 < 0x7F ? $0 : UInt8(ascii: "?") }, as: UTF8.self)
    }
}
