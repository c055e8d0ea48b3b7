import AutomatonCore
import Turnstile

/// `turnstile match --json`: ripgrep's JSON Lines messages, so tools that read
/// `rg --json` read ours. For each input with a match, `begin`, one `match` per record
/// with a match (`lines`, `line_number`, `absolute_offset`, `submatches` with offsets
/// in the record), and `end` with the input's statistics; after the last input, one
/// `summary`. Text is `{"text": …}` when the bytes are UTF-8, `{"bytes": base64}`
/// otherwise, as rg writes it. Each submatch also carries `"pattern"`, the pattern id
/// (rg has one pattern; readers of rg's messages skip unknown keys).
///
/// One thread: the messages of an input come in order and carry its totals.
struct RipgrepJSONSink: ChunkSink {
    typealias Failure = OutputError

    let output: OutputWriter
    /// Per input and over the run: what rg's `stats` objects hold.
    struct Stats {
        var searches = 0
        var searchesWithMatch = 0
        var bytesSearched = 0
        var bytesPrinted = 0
        var matchedLines = 0
        var matches = 0
        var nanoseconds: UInt64 = 0
    }
    private(set) var total = Stats()
    private var input = Stats()
    private var pathJSON: [UInt8] = []
    private var began = false
    private var inputStart: UInt64 = 0
    private let runStart: UInt64
    /// The number of the next record in this input (1-based).
    private var recordNumber = 0
    private var scratch: [UInt8] = []

    init(output: OutputWriter) {
        self.output = output
        runStart = Self.now()
    }

    /// Whether any record had a match: the exit status.
    var matchedAny: Bool { total.matchedLines > 0 }
    /// `-v`: the records without a match are the ones reported, with no submatches,
    /// as rg reports them.
    var invert = false

    /// The summary carries the totals of every input: no threads.
    var parallelism: SinkParallelism { .none }

    mutating func takeTally() -> RecordTally {
        defer { selectedSinceTake = 0 }
        return RecordTally(selected: selectedSinceTake)
    }
    private var selectedSinceTake = 0

    mutating func takeOutput(reusing storage: ChunkOutput) -> ChunkOutput { output.takeCollected(next: storage) }

    mutating func beginInput(name: String?, firstRecord: Int) {}


    mutating func inputRead(_ fd: Int32) throws(OutputError) { try endInput() }

    mutating func runEnded() throws(OutputError) { try summary() }

    /// A new input: its statistics start, and its path is kept as JSON data.
    mutating func inputOpened(_ fd: Int32, name: String) -> InputStart {
        input = Stats()
        input.searches = 1
        recordNumber = 0
        began = false
        inputStart = Self.now()
        pathJSON.removeAll(keepingCapacity: true)
        var copy = name
        var path: [UInt8] = []
        copy.withUTF8 { Self.appendData($0, to: &path) }
        pathJSON = path
        return .read
    }

    /// The input's `end` message and its share of the summary (inputs with a match).
    mutating func endInput() throws(OutputError) {
        input.nanoseconds = Self.now() &- inputStart
        if began {
            // Written, not emitted: rg's bytes_printed (here and in the summary) counts
            // the begin and match messages, not the end message itself.
            try output.write("{\"type\":\"end\",\"data\":{\"path\":" + json(pathJSON) + ",\"binary_offset\":null,\"stats\":"
                     + statsJSON(input) + "}}\n")
        }
        // rg's totals count the inputs with a match only.
        guard began else { return }
        total.searches += input.searches
        total.searchesWithMatch += input.searchesWithMatch
        total.bytesSearched += input.bytesSearched
        total.bytesPrinted += input.bytesPrinted
        total.matchedLines += input.matchedLines
        total.matches += input.matches
        total.nanoseconds &+= input.nanoseconds
    }

    /// The run's `summary` message.
    mutating func summary() throws(OutputError) {
        let elapsed = Self.now() &- runStart
        let line = "{\"data\":{\"elapsed_total\":" + Self.elapsedJSON(elapsed, sorted: true) + ",\"stats\":{\"bytes_printed\":\(total.bytesPrinted),\"bytes_searched\":\(total.bytesSearched),\"elapsed\":"
            + Self.elapsedJSON(total.nanoseconds, sorted: true)
            + ",\"matched_lines\":\(total.matchedLines),\"matches\":\(total.matches),\"searches\":\(total.searches),\"searches_with_match\":\(total.searchesWithMatch)}},\"type\":\"summary\"}\n"
        try output.write(line)
    }

    var acceptsCleanRuns: Bool { !invert }

    mutating func cleanRun(_ bytes: UnsafeBufferPointer<UInt8>, records: Int) throws(OutputError) {
        recordNumber += records
        input.bytesSearched += bytes.count
    }

    mutating func record(
        content: UnsafeBufferPointer<UInt8>, terminator: UnsafeBufferPointer<UInt8>,
        offset: Int, matches: ArraySlice<Match>, truncated: Bool
    ) throws(OutputError) {
        recordNumber += 1
        input.bytesSearched += content.count + terminator.count
        // Empty matches count, as in rg, except one right where the last match ended
        // (rg's iterator steps past it).
        var found: [Match] = []
        for m in matches where m.end <= content.count {
            if m.isEmpty, let last = found.last, last.end == m.start { continue }
            // rg reports no empty match after the last byte of a line without a newline.
            if m.isEmpty, m.start == content.count, terminator.isEmpty { continue }
            found.append(m)
        }
        if invert {
            guard found.isEmpty else { return }
        } else {
            guard !found.isEmpty else { return }
        }
        if !began {
            began = true
            input.searchesWithMatch = 1
            try emit("{\"type\":\"begin\",\"data\":{\"path\":" + json(pathJSON) + "}}\n")
        }
        input.matchedLines += 1
        selectedSinceTake += 1
        input.matches += found.count
        scratch.removeAll(keepingCapacity: true)
        scratch.append(contentsOf: "{\"type\":\"match\",\"data\":{\"path\":".utf8)
        scratch.append(contentsOf: pathJSON)
        scratch.append(contentsOf: ",\"lines\":".utf8)
        var line = Array(content)
        line.append(contentsOf: terminator)
        line.withUnsafeBufferPointer { Self.appendData($0, to: &scratch) }
        scratch.append(contentsOf: ",\"line_number\":\(recordNumber),\"absolute_offset\":\(offset),\"submatches\":[".utf8)
        for (i, m) in found.enumerated() {
            if i > 0 { scratch.append(UInt8(ascii: ",")) }
            scratch.append(contentsOf: "{\"match\":".utf8)
            Self.appendData(UnsafeBufferPointer(rebasing: content[m.range]), to: &scratch)
            scratch.append(contentsOf: ",\"start\":\(m.start),\"end\":\(m.end),\"pattern\":\(m.pattern)}".utf8)
        }
        scratch.append(contentsOf: "]}}\n".utf8)
        input.bytesPrinted += scratch.count
        try output.write(scratch)
    }

    mutating func tail(_ bytes: UnsafeBufferPointer<UInt8>, end: UnsafeBufferPointer<UInt8>?) throws(OutputError) {
        input.bytesSearched += bytes.count + (end?.count ?? 0)
    }

    mutating func willRead() throws(OutputError) { try output.flushIfInteractive() }

    private mutating func emit(_ text: String) throws(OutputError) {
        input.bytesPrinted += text.utf8.count
        try output.write(text)
    }

    private func json(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    private func statsJSON(_ s: Stats) -> String {
        "{\"elapsed\":" + Self.elapsedJSON(s.nanoseconds, sorted: false) + ",\"searches\":\(s.searches),\"searches_with_match\":\(s.searchesWithMatch),\"bytes_searched\":\(s.bytesSearched),\"bytes_printed\":\(s.bytesPrinted),\"matched_lines\":\(s.matchedLines),\"matches\":\(s.matches)}"
    }

    /// rg's duration object (keys in rg's order: `secs, nanos, human` in an input's
    /// stats, sorted in the summary).
    private static func elapsedJSON(_ nanoseconds: UInt64, sorted: Bool) -> String {
        let secs = nanoseconds / 1_000_000_000, nanos = nanoseconds % 1_000_000_000
        var fraction = String(nanos)
        fraction = String(repeating: "0", count: 9 - fraction.count) + fraction
        let human = "\"\(secs).\(fraction.prefix(6))s\""
        return sorted ? "{\"human\":\(human),\"nanos\":\(nanos),\"secs\":\(secs)}"
            : "{\"secs\":\(secs),\"nanos\":\(nanos),\"human\":\(human)}"
    }

    private static func now() -> UInt64 {
        var t = timespec()
        clock_gettime(CLOCK_MONOTONIC, &t)
        return UInt64(t.tv_sec) &* 1_000_000_000 &+ UInt64(t.tv_nsec)
    }

    /// rg's arbitrary data: `{"text":"…"}` when `bytes` are UTF-8, else
    /// `{"bytes":"<base64>"}`.
    static func appendData(_ bytes: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
        var i = 0
        var valid = true
        while i < bytes.count {
            let length = Rendering.validScalarLength(bytes, at: i)
            if length == 0 { valid = false; break }
            i += length
        }
        if valid {
            out.append(contentsOf: "{\"text\":".utf8)
            Rendering.appendJSONString(bytes, to: &out)
        } else {
            out.append(contentsOf: "{\"bytes\":\"".utf8)
            Base64.append(bytes, to: &out)
            out.append(UInt8(ascii: "\""))
        }
        out.append(UInt8(ascii: "}"))
    }
}

/// Standard base64 with padding (RFC 4648, section 4), as rg's `bytes` fields.
enum Base64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// Appends the encoding of `bytes` to `out`.
    ///
    /// ```swift
    /// var out: [UInt8] = []
    /// Base64.append(buffer, to: &out)   // "/yBmb28K" for FF 20 66 6F 6F 0A
    /// ```
    static func append(_ bytes: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
        var i = 0
        while i + 3 <= bytes.count {
            let v = UInt32(bytes[i]) << 16 | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2])
            for shift in [18, 12, 6, 0] { out.append(alphabet[Int(v >> UInt32(shift) & 63)]) }
            i += 3
        }
        let rest = bytes.count - i
        if rest > 0 {
            var v = UInt32(bytes[i]) << 16
            if rest == 2 { v |= UInt32(bytes[i + 1]) << 8 }
            out.append(alphabet[Int(v >> 18 & 63)])
            out.append(alphabet[Int(v >> 12 & 63)])
            out.append(rest == 2 ? alphabet[Int(v >> 6 & 63)] : UInt8(ascii: "="))
            out.append(UInt8(ascii: "="))
        }
    }
}
