#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Testing
import AutomatonCore
import TestSupport
import Turnstile

/// Records as a sink sees them: content, terminator, offset and matches per record.
private struct TranscriptSink: RecordSink {
    typealias Failure = Never
    var text: [UInt8] = []
    /// Called at the first record (a test cuts the file there).
    var atFirstRecord: (() -> Void)? = nil
    mutating func record(
        content: UnsafeBufferPointer<UInt8>, terminator: UnsafeBufferPointer<UInt8>,
        offset: Int, matches: ArraySlice<Match>, truncated: Bool
    ) {
        if let cut = atFirstRecord { atFirstRecord = nil; cut() }
        text += Array("\(offset) \(matches.map { "\($0.start)-\($0.end)" }) \(truncated) ".utf8) + Array(content)
            + Array(terminator)
    }
    /// A tail comes in pieces of whatever size the reads or windows give: appended as is.
    mutating func tail(_ bytes: UnsafeBufferPointer<UInt8>, end: UnsafeBufferPointer<UInt8>?) {
        text += Array(bytes) + (end.map(Array.init) ?? [])
    }
}

/// A regular file read through mapped windows (Records/MappedInput.swift) against the
/// same file read with read(2): the mapping is a strategy, on and off.
@Suite("MappedInput: a regular file searched mapped")
struct MappedInputTests {
    private static func temporaryFile(_ bytes: [UInt8]) throws -> String {
        var template = Array("/tmp/turnstile-mapped-XXXXXX".utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        try #require(fd >= 0)
        let written = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        try #require(written == bytes.count)
        close(fd)
        return template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }

    /// Random lines around the 16 MiB window edges (lines of up to 3 KB, some with a
    /// match), plus an offset the file is read from (a redirected standard input that
    /// another reader moved).
    private static func input(seed: UInt64, bytes: Int) -> [UInt8] {
        var rng = SeededGenerator(defaultSeed: seed)
        let words: [[UInt8]] = [Array("free".utf8), Array("cash".utf8), Array("lunch".utf8), Array("x".utf8)]
        var text: [UInt8] = []
        text.reserveCapacity(bytes + 4096)
        while text.count < bytes {
            let length = Int.random(in: 0..<3_000, using: &rng)
            var line: [UInt8] = []
            while line.count < length { line += words.randomElement(using: &rng)! + [0x20] }
            text += line + [0x0A]
        }
        return text
    }

    private static func transcript(_ path: String, mapped: Bool, matcher: Matcher, from offset: Int,
                                   maxRecordBytes: Int = 1 << 20) -> (text: [UInt8], position: Int, bytes: Int) {
        let fd = open(path, O_RDONLY)
        defer { close(fd) }
        _ = lseek(fd, off_t(offset), SEEK_SET)
        var reader = RecordReader(matcher: matcher, delimiter: .line, maxRecordBytes: maxRecordBytes)
        reader.mapsFiles = mapped
        var sink = TranscriptSink()
        do throws(RecordReadError<Never>) { try reader.read(fd: fd, into: &sink) } catch {
            Issue.record("read failed: \(error)")
        }
        return (sink.text, Int(lseek(fd, 0, SEEK_CUR)), reader.bytesRead)
    }

    @Test("mapped and read: the same records, offsets and matches, from any start, the file position left at the end")
    func mappedEqualsRead() throws {
        let seed: UInt64 = 0x5EED_0051
        print("MappedInputTests seed \(seed)")
        let bytes = Self.input(seed: seed, bytes: 40 << 20)
        let path = try Self.temporaryFile(bytes)
        defer { unlink(path) }
        let matcher = try Matcher(patterns: ["cash", "lunch x"], options: Matcher.Options())
        for offset in [0, 1, 4095, 4097, (16 << 20) + 3] {
            let read = Self.transcript(path, mapped: false, matcher: matcher, from: offset)
            let mapped = Self.transcript(path, mapped: true, matcher: matcher, from: offset)
            let same = mapped.text == read.text
            #expect(same, "offset \(offset): \(mapped.text.count) against \(read.text.count) bytes")
            #expect(mapped.position == bytes.count && read.position == bytes.count)
            #expect(mapped.bytes == bytes.count - offset && read.bytes == mapped.bytes)
        }
    }

    @Test("a record longer than the limit is judged whole and read back from the mapped file")
    func longRecordMapped() throws {
        var bytes = Array(repeating: UInt8(ascii: "a"), count: 3 << 20) + Array(" cash\nlunch\n".utf8)
        bytes = Array("x\n".utf8) + bytes + Array(repeating: UInt8(ascii: "b"), count: 2 << 20) + [0x0A]
        let path = try Self.temporaryFile(bytes)
        defer { unlink(path) }
        let matcher = try Matcher(patterns: ["cash"], options: Matcher.Options())
        let read = Self.transcript(path, mapped: false, matcher: matcher, from: 0, maxRecordBytes: 1 << 20)
        let mapped = Self.transcript(path, mapped: true, matcher: matcher, from: 0, maxRecordBytes: 1 << 20)
        let same = mapped.text == read.text
        if !same {
            let diverges = (0..<min(mapped.text.count, read.text.count)).first(where: { mapped.text[$0] != read.text[$0] }) ?? min(mapped.text.count, read.text.count)
            let around = { (t: [UInt8]) in String(decoding: t[max(0, diverges - 40)..<min(t.count, diverges + 40)], as: UTF8.self) }
            Issue.record("mapped \(mapped.text.count) bytes, read \(read.text.count); at \(diverges): mapped \(around(mapped.text)) | read \(around(read.text))")
        }
    }

    /// The line the shrinking files are made of.
    private static let line = Array("0123456789 cash and more text to fill the line out\n".utf8)

    /// Reads a 40 MiB file mapped, cutting it to `cut` bytes at its first record:
    /// what the sink saw, the bytes read, and whether the input ended with `.shrank`.
    private static func readCut(to cut: Int) throws -> (text: [UInt8], bytesRead: Int, shrank: Bool) {
        var bytes: [UInt8] = []
        while bytes.count < 40 << 20 { bytes += line }
        let path = try temporaryFile(bytes)
        defer { unlink(path) }
        let matcher = try Matcher(patterns: ["cash"], options: Matcher.Options())
        let fd = open(path, O_RDONLY)
        defer { close(fd) }
        var reader = RecordReader(matcher: matcher, delimiter: .line, maxRecordBytes: 1 << 20)
        reader.mapsFiles = true
        var sink = TranscriptSink()
        sink.atFirstRecord = { _ = truncate(path, off_t(cut)) }
        var shrank = false
        do throws(RecordReadError<Never>) { try reader.read(fd: fd, into: &sink) } catch {
            if case .shrank = error { shrank = true } else { Issue.record("read failed: \(error)") }
        }
        return (sink.text, reader.bytesRead, shrank)
    }

    /// GNU grep reads a file that shrinks and sees a shorter file; rg maps it and dies
    /// of SIGBUS. Here the guard maps zeros past the new end, and the reader stops the
    /// input with `.shrank`: no crash, the records before the cut as they were.
    @Test("a file cut shorter inside the window being searched: no crash, the input ends with .shrank, the records before the cut intact")
    func fileThatShrinks() throws {
        let run = try Self.readCut(to: 8 << 20)
        #expect(run.shrank)
        // The first record was read before the cut: it is the file's.
        let expectedFirst = "0 [\"11-15\"] false " + String(decoding: Self.line, as: UTF8.self)
        #expect(String(decoding: run.text.prefix(expectedFirst.utf8.count), as: UTF8.self) == expectedFirst)
    }

    @Test("a file cut shorter between windows reads as the shorter file, as GNU grep reads it")
    func fileThatShrinksBetweenWindows() throws {
        let cut = ((20 << 20) / Self.line.count) * Self.line.count  // past the first 16 MiB window, on a line end
        let run = try Self.readCut(to: cut)
        #expect(!run.shrank)
        #expect(run.bytesRead == cut)
        #expect(run.text.count(where: { $0 == 0x0A }) == cut / Self.line.count)
    }
}
