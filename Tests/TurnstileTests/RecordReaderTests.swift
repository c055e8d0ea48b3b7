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

@Suite("RecordReader")
struct RecordReaderTests {
    /// Reads `text` through a pipe with `reader` and returns what the sink saw.
    private static func read(_ text: String, _ reader: inout RecordReader) -> CollectingSink {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        let bytes = Array(text.utf8)
        precondition(bytes.count < 60_000, "must fit the pipe buffer")
        let written = bytes.withUnsafeBytes { write(fds[1], $0.baseAddress, $0.count) }
        #expect(written == bytes.count)
        close(fds[1])
        defer { close(fds[0]) }
        var sink = CollectingSink()
        do throws(RecordReadError<Never>) {
            try reader.read(fd: fds[0], into: &sink)
        } catch {
            Issue.record("read failed: \(error)")
        }
        return sink
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

    /// With `stopAfterVerdict` the sink needs each rule once per record (the verdict
    /// counts a rule once), so the reader keeps only each rule's first match in a
    /// record — memory bounded by the rules, not the matches (issue 16: a 19 MB line
    /// dense with matches). Every path: block search of several records, one record
    /// at a time (blank-line records), and a record over the limit; negative weights,
    /// so there is no early exit. The verdicts equal SpamFilter's own.
    @Test("stopAfterVerdict: each rule's first match per record only, verdicts unchanged",
          arguments: [RecordDelimiter.line, .blank])
    func firstMatchPerRule(delimiter: RecordDelimiter) throws {
        var options = Matcher.Options()
        options.syntax = .literal
        let filter = try SpamFilter(rules: [SpamFilter.Rule(pattern: Array("cash".utf8), weight: 2),
                                            SpamFilter.Rule(pattern: Array("free".utf8), weight: 1),
                                            SpamFilter.Rule(pattern: Array("lunch".utf8), weight: -1)],
                                    options: options, threshold: 2)
        let separator = delimiter == .line ? "\n" : "\n\n"
        let records = ["free free cash free cash", "lunch free lunch", "nothing here", "cash lunch cash lunch free"]
        var reader = RecordReader(matcher: filter.matcher, delimiter: delimiter, maxRecordBytes: 1 << 20,
                                  stopAfterVerdict: filter)
        defer { reader.deallocate() }
        let sink = Self.read(records.joined(separator: separator) + separator, &reader)
        #expect(sink.records.map(\.matches) == [["0-4:1", "10-14:0"], ["0-5:2", "6-10:1"], [],
                                               ["0-4:0", "5-10:2", "22-26:1"]])
        var judge = RecordJudge(filter)
        for (record, seen) in zip(records, sink.records) {
            let bytes = Array(record.utf8)
            let fromReader = bytes.withUnsafeBufferPointer { buffer in
                let found = filter.matcher.matches(in: bytes).filter { m in
                    seen.matches.contains("\(m.start)-\(m.end):\(m.pattern)")
                }
                _ = judge.judge(buffer, found: found[...])
                return judge.isSpam
            }
            #expect(fromReader == filter.verdict(for: bytes).isSpam, "\(record)")
        }
        // Over the limit: the head's first matches per rule only.
        var small = RecordReader(matcher: filter.matcher, delimiter: delimiter, maxRecordBytes: 16,
                                 stopAfterVerdict: filter)
        defer { small.deallocate() }
        let long = Self.read("cash cash free cash free" + separator, &small)
        #expect(long.records.map(\.matches) == [["0-4:0", "10-14:1"]])
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
