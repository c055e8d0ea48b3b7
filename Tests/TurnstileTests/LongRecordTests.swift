// Records longer than the reader's limit, judged whole (issue 48): a sink that only
// selects records sees the same records selected as with no limit, with every byte of
// each record, whether the input is a pipe (the record is spooled to a temporary file)
// or a regular file (it is read back in place) — for literals, -i, -w, -x and regexes
// with anchors, on random lines against the same matcher with a limit past every line.
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Foundation
import Testing
import AutomatonCore
import Turnstile
import TestSupport

/// A sink that needs only to know which records hold a match (grep's lines, -c, -v).
private struct SelectingSink: RecordSink {
    typealias Failure = Never
    var needsEveryMatch: Bool { false }
    /// (record with its tails, selected, offset) per record.
    var records: [(content: [UInt8], selected: Bool, offset: Int)] = []
    mutating func record(
        content: UnsafeBufferPointer<UInt8>, terminator: UnsafeBufferPointer<UInt8>,
        offset: Int, matches: ArraySlice<Match>, truncated: Bool
    ) {
        records.append((Array(content), !matches.isEmpty, offset))
    }
    mutating func tail(_ bytes: UnsafeBufferPointer<UInt8>, end: UnsafeBufferPointer<UInt8>?) {
        records[records.count - 1].content += Array(bytes)
    }
}

@Suite("RecordReader: long records judged whole")
struct LongRecordTests {
    enum Source: String, CaseIterable { case pipe, file }

    /// What `reader` hands a selecting sink for `bytes` read from `source`.
    private static func read(_ bytes: [UInt8], _ reader: inout RecordReader, from source: Source) throws -> SelectingSink {
        var sink = SelectingSink()
        let fd: Int32
        switch source {
        case .pipe:
            var fds: [Int32] = [0, 0]
            #expect(pipe(&fds) == 0)
            precondition(bytes.count < 60_000, "must fit the pipe buffer")
            let written = bytes.withUnsafeBytes { write(fds[1], $0.baseAddress, $0.count) }
            #expect(written == bytes.count)
            close(fds[1])
            fd = fds[0]
        case .file:
            let url = FileManager.default.temporaryDirectory.appendingPathComponent("long-\(UUID().uuidString).txt")
            try Data(bytes).write(to: url)
            fd = open(url.path, O_RDONLY)
            try? FileManager.default.removeItem(at: url)
            #expect(fd >= 0)
        }
        defer { close(fd) }
        do throws(RecordReadError<Never>) {
            try reader.read(fd: fd, into: &sink)
        } catch {
            Issue.record("read failed: \(error)")
        }
        return sink
    }

    /// Matchers of every strategy family: (name, patterns, options).
    static func matchers() throws -> [(String, Matcher)] {
        func make(_ patterns: [String], _ edit: (inout Matcher.Options) -> Void) throws -> Matcher {
            var options = Matcher.Options()
            options.lineRecords = true
            edit(&options)
            return try Matcher(patterns: patterns, options: options)
        }
        return [
            ("one literal", try make(["ab"]) { $0.syntax = .literal }),
            ("literal set -i", try make(["ab", "CA", "bbb"]) { $0.syntax = .literal; $0.caseInsensitive = true }),
            ("literal -w (bytes)", try make(["ab"]) { $0.syntax = .literal; $0.wholeWord = true; $0.bytesMode = true }),
            ("literal -x", try make(["abc", "a"]) { $0.syntax = .literal; $0.wholeLine = true }),
            ("regex a.*b$", try make(["a.*b$"]) { _ in }),
            ("regex ^c+ | b{3}", try make(["^c+", "b{3}"]) { _ in }),
            ("regex \\bca\\b", try make(["\\bca\\b"]) { $0.bytesMode = true }),
            ("regex empty-or-anchor ^$", try make(["^$"]) { _ in }),
            ("regex a*", try make(["a*"]) { _ in }),
        ]
    }

    @Test("random lines over a 6-byte limit: the same records selected, every byte handed on",
          arguments: Source.allCases)
    func randomLines(source: Source) throws {
        var rng = SeededGenerator(defaultSeed: 4_848)
        for (name, matcher) in try Self.matchers() {
            for round in 0..<8 {
                var text: [UInt8] = []
                for _ in 0..<Int.random(in: 1...12, using: &rng) {
                    let length = Int.random(in: 0...30, using: &rng)
                    text += (0..<length).map { _ in Array("abc -".utf8).randomElement(using: &rng)! }
                    text.append(0x0A)
                }
                if Bool.random(using: &rng) { text.removeLast() }  // a last line without a newline
                var whole = RecordReader(matcher: matcher, delimiter: .line, maxRecordBytes: 1 << 20)
                var small = RecordReader(matcher: matcher, delimiter: .line, maxRecordBytes: 6)
                small.judgesLongRecordsWhole = true
                let expected = try Self.read(text, &whole, from: source)
                let got = try Self.read(text, &small, from: source)
                let context = "seed \(rng.seed) round \(round) \(name) on \(String(decoding: text, as: UTF8.self).debugDescription)"
                #expect(got.records.map(\.content) == expected.records.map(\.content), "\(context)")
                #expect(got.records.map(\.selected) == expected.records.map(\.selected), "\(context)")
                #expect(got.records.map(\.offset) == expected.records.map(\.offset), "\(context)")
                #expect(!small.truncatedSomeRecord, "\(context)")
            }
        }
    }

    @Test("a 1.5 MB line with the match at its end, through a pipe and from a file, over a 4 KiB limit",
          arguments: Source.allCases)
    func matchAtTheEnd(source: Source) throws {
        let line = [UInt8](repeating: UInt8(ascii: "z"), count: 1_500_000) + Array(" needle".utf8)
        let text = Array("first\n".utf8) + line + [0x0A] + Array("last needle\n".utf8)
        guard source == .file || text.count < 60_000 else {
            // A pipe holds 64 KiB: feed it from a thread.
            return try matchAtTheEndThroughAFeeder(text, line: line)
        }
        let matcher = try Matcher(patterns: ["z needle$"], options: Matcher.Options())
        var reader = RecordReader(matcher: matcher, delimiter: .line, maxRecordBytes: 4096)
        reader.judgesLongRecordsWhole = true
        let sink = try Self.read(text, &reader, from: source)
        #expect(sink.records.map(\.selected) == [false, true, false])
        #expect(sink.records[1].content == line)
    }

    private func matchAtTheEndThroughAFeeder(_ text: [UInt8], line: [UInt8]) throws {
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        let writer = fds[1]
        let feeder = Thread {
            text.withUnsafeBytes { raw in
                var done = 0
                while done < raw.count {
                    let n = write(writer, raw.baseAddress! + done, raw.count - done)
                    if n <= 0 { break }
                    done += n
                }
            }
            close(writer)
        }
        feeder.start()
        defer { close(fds[0]) }
        let matcher = try Matcher(patterns: ["z needle$"], options: Matcher.Options())
        var reader = RecordReader(matcher: matcher, delimiter: .line, maxRecordBytes: 4096)
        reader.judgesLongRecordsWhole = true
        var sink = SelectingSink()
        do throws(RecordReadError<Never>) {
            try reader.read(fd: fds[0], into: &sink)
        } catch {
            Issue.record("read failed: \(error)")
        }
        #expect(sink.records.map(\.selected) == [false, true, false])
        #expect(sink.records.count == 3 && sink.records[1].content == line)
    }

    @Test("without judgesLongRecordsWhole (filter), a long record is still judged on its head")
    func headWhenNotAsked() throws {
        let matcher = try Matcher(patterns: ["x"], options: Matcher.Options())
        var reader = RecordReader(matcher: matcher, delimiter: .line, maxRecordBytes: 4)
        let sink = try Self.read(Array("abcdefxg\n".utf8), &reader, from: .pipe)
        #expect(sink.records.map(\.selected) == [false])
        #expect(reader.truncatedSomeRecord)
    }
}
