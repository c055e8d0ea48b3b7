#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Testing
import AutomatonCore
import Turnstile

/// Collects what a RecordReader hands on.
private struct CollectingSink: RecordSink {
    typealias Failure = Never
    /// (content, terminator, matches as "start-end:pattern", truncated) per record.
    var records: [(content: [UInt8], terminator: [UInt8], matches: [String], truncated: Bool)] = []
    /// Tails of truncated records, appended to the record's content; the terminator replaced.
    mutating func record(
        content: UnsafeBufferPointer<UInt8>, terminator: UnsafeBufferPointer<UInt8>,
        offset: Int, matches: ArraySlice<Match>, truncated: Bool
    ) {
        records.append((Array(content), Array(terminator), matches.map { "\($0.start)-\($0.end):\($0.pattern)" }, truncated))
    }
    mutating func tail(_ bytes: UnsafeBufferPointer<UInt8>, end: UnsafeBufferPointer<UInt8>?) {
        records[records.count - 1].content += Array(bytes)
        if let end { records[records.count - 1].terminator = Array(end) }
    }
}

/// Takes matches as a stream (``RecordSink/takesMatchStream``): each record with the
/// matches streamed since the previous one; `stopAfter` matches of a record, then no more.
private struct StreamingSink: RecordSink {
    typealias Failure = Never
    var stopAfter = Int.max
    /// (content with its tail, streamed matches as "start-end:pattern", matches listed with the record).
    var records: [(content: String, matches: [String], listed: Int)] = []
    var pending: [String] = []
    var takesMatchStream: Bool { true }
    mutating func match(_ m: Match) -> Bool {
        pending.append("\(m.start)-\(m.end):\(m.pattern)")
        return pending.count < stopAfter
    }
    mutating func record(
        content: UnsafeBufferPointer<UInt8>, terminator: UnsafeBufferPointer<UInt8>,
        offset: Int, matches: ArraySlice<Match>, truncated: Bool
    ) {
        records.append((String(decoding: content, as: UTF8.self), pending, matches.count))
        pending = []
    }
    mutating func tail(_ bytes: UnsafeBufferPointer<UInt8>, end: UnsafeBufferPointer<UInt8>?) {
        records[records.count - 1].content += String(decoding: bytes, as: UTF8.self)
    }
}

@Suite("RecordReader")
struct RecordReaderTests {
    /// Reads `text` through a pipe with `reader` and returns what the sink saw.
    private static func read(_ text: String, _ reader: inout RecordReader) -> CollectingSink {
        var sink = CollectingSink()
        read(text, &reader, into: &sink)
        return sink
    }

    /// Reads `text` through a pipe with `reader` into `sink`.
    private static func read<Sink: RecordSink>(_ text: String, _ reader: inout RecordReader, into sink: inout Sink)
    where Sink.Failure == Never {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        let bytes = Array(text.utf8)
        precondition(bytes.count < 60_000, "must fit the pipe buffer")
        let written = bytes.withUnsafeBytes { write(fds[1], $0.baseAddress, $0.count) }
        #expect(written == bytes.count)
        close(fds[1])
        defer { close(fds[0]) }
        do throws(RecordReadError<Never>) {
            try reader.read(fd: fds[0], into: &sink)
        } catch {
            Issue.record("read failed: \(error)")
        }
    }

    @Test("every kind of record: content plus terminator, record after record, is the input",
          arguments: RecordDelimiter.allCases)
    func recordsRebuildTheInput(_ delimiter: RecordDelimiter) {
        let text = "one\ntwo\r\n\nthree\0four\n\n\nfive"
        var reader = RecordReader(delimiter: delimiter, maxRecordBytes: 1 << 20)
        defer { reader.deallocate() }
        let sink = Self.read(text, &reader)
        let rebuilt = sink.records.flatMap { $0.content + $0.terminator }
        #expect(String(decoding: rebuilt, as: UTF8.self) == text)
        let expectedCount = [RecordDelimiter.line: 7, .nul: 2, .blank: 3, .none: 1, .mbox: 1][delimiter]!
        #expect(sink.records.count == expectedCount)
        #expect(sink.records.allSatisfy { $0.matches.isEmpty && !$0.truncated })
    }

    @Test("with a matcher each record gets its own matches, offsets relative to the record",
          arguments: [true, false])
    func matchesPerRecord(literal: Bool) throws {
        var options = Matcher.Options()
        options.syntax = literal ? .literal : .regex
        let matcher = try Matcher(patterns: ["cash", "prize"], options: options)
        var reader = RecordReader(matcher: matcher, delimiter: .line, maxRecordBytes: 1 << 20)
        defer { reader.deallocate() }
        let sink = Self.read("no\ncash prize\nprize\n", &reader)
        #expect(sink.records.map(\.matches) == [[], ["0-4:0", "5-10:1"], ["0-5:1"]])
        #expect(reader.bytesRead == 20)
    }

    /// A sink that takes matches as a stream gets every match of a record, relative
    /// to the record, right before the record itself (which comes with an empty
    /// list), and the search of a record stops when the sink says so. Every path:
    /// block search of several records (lines), one record at a time (blank-line
    /// records), a record over the limit, and the early stop (issue 28, point 5).
    @Test("a streaming sink: each match once, before its record; stopping skips to the next record",
          arguments: [RecordDelimiter.line, .blank])
    func streamedMatches(delimiter: RecordDelimiter) throws {
        var options = Matcher.Options()
        options.syntax = .literal
        options.matchKind = .overlapping
        let matcher = try Matcher(patterns: ["cash", "free", "free cash", "lunch"], options: options)
        let separator = delimiter == .line ? "\n" : "\n\n"
        let records = ["free free cash free cash", "lunch free lunch", "nothing here", "", "cash lunch cash lunch free"]
        let text = records.joined(separator: separator) + separator + "free"
        var reader = RecordReader(matcher: matcher, delimiter: delimiter, maxRecordBytes: 1 << 20)
        defer { reader.deallocate() }
        var sink = StreamingSink()
        Self.read(text, &reader, into: &sink)
        let expected = (records.filter { delimiter == .line || !$0.isEmpty } + ["free"]).map { record in
            matcher.matches(in: Array(record.utf8)).map { "\($0.start)-\($0.end):\($0.pattern)" }
        }
        #expect(sink.records.map(\.content) == (records.filter { delimiter == .line || !$0.isEmpty } + ["free"]))
        #expect(sink.records.map(\.matches) == expected)
        #expect(sink.records.allSatisfy { $0.listed == 0 }, "streamed matches are not listed again")
        // Stop after each record's first match: the rest of the record is skipped, the
        // next record's matches still come.
        var first = RecordReader(matcher: matcher, delimiter: delimiter, maxRecordBytes: 1 << 20)
        defer { first.deallocate() }
        var stopping = StreamingSink(stopAfter: 1)
        Self.read(text, &first, into: &stopping)
        #expect(stopping.records.map(\.matches) == expected.map { Array($0.prefix(1)) })
        // Over the limit: the head's matches only; the tail follows.
        var small = RecordReader(matcher: matcher, delimiter: delimiter, maxRecordBytes: 16)
        defer { small.deallocate() }
        var long = StreamingSink()
        Self.read("cash cash free cash free" + separator + "free", &small, into: &long)
        #expect(long.records.map(\.matches) == [["0-4:0", "5-9:0", "10-14:1"], ["0-4:1"]])
        #expect(long.records.map(\.content) == ["cash cash free cash free", "free"])
        #expect(small.truncatedSomeRecord)
    }

    @Test("a record longer than the limit is judged on its head and the rest streams as its tail")
    func longRecordsAreBounded() throws {
        let matcher = try Matcher(patterns: ["x"], options: Matcher.Options())
        var reader = RecordReader(matcher: matcher, delimiter: .line, maxRecordBytes: 4)
        defer { reader.deallocate() }
        let sink = Self.read("ab\nabcdefxg\nx\n", &reader)
        #expect(sink.records.map { String(decoding: $0.content, as: UTF8.self) } == ["ab", "abcdefxg", "x"])
        #expect(sink.records.map(\.truncated) == [false, true, false])
        #expect(sink.records[1].matches.isEmpty, "the match at byte 6 is past the 4-byte head")
        #expect(reader.truncatedSomeRecord)
    }
}
