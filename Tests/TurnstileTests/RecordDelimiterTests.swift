import Testing
@testable import Turnstile

@Suite("RecordDelimiter")
struct RecordDelimiterTests {
    /// All records of `text` as (content, terminator) strings.
    static func split(_ text: String, _ d: RecordDelimiter) -> [[String]] {
        let bytes = Array(text.utf8)
        return bytes.withUnsafeBufferPointer { buffer in
            var out: [[String]] = []
            var start = 0
            while let (contentEnd, next) = d.nextRecord(in: buffer, from: start, atEnd: true) {
                out.append([String(decoding: bytes[start..<contentEnd], as: UTF8.self),
                            String(decoding: bytes[contentEnd..<next], as: UTF8.self)])
                start = next
            }
            #expect(start == bytes.count)
            return out
        }
    }

    @Test("line, nul, blank and none")
    func delimiters() {
        #expect(Self.split("a\nb\r\nc", .line) == [["a", "\n"], ["b\r", "\n"], ["c", ""]])
        #expect(Self.split("a\0b\0", .nul) == [["a", "\0"], ["b", "\0"]])
        #expect(Self.split("a\nb\n\n\nc\r\n\r\nd\n", .blank) == [["a\nb", "\n\n\n"], ["c\r", "\n\r\n"], ["d", "\n"]])
        #expect(Self.split("\n\na\n\nb", .blank) == [["\n\na", "\n\n"], ["b", ""]])
        #expect(Self.split("\n\n", .blank) == [["", "\n\n"]])
        #expect(Self.split("a\n\nb", .none) == [["a\n\nb", ""]])
        #expect(Self.split("", .line).isEmpty)
    }

    @Test("an unfinished record is not returned until the end of input")
    func incomplete() {
        let bytes = Array("ab\ncd".utf8)
        bytes.withUnsafeBufferPointer { b in
            #expect(RecordDelimiter.line.nextRecord(in: b, from: 3, atEnd: false) == nil)
            #expect(RecordDelimiter.line.nextRecord(in: b, from: 0, atEnd: false)! == (2, 3))
        }
        let para = Array("ab\n\n".utf8)   // more blank lines may follow
        para.withUnsafeBufferPointer { b in
            #expect(RecordDelimiter.blank.nextRecord(in: b, from: 0, atEnd: false) == nil)
            #expect(RecordDelimiter.blank.nextRecord(in: b, from: 0, atEnd: true)! == (2, 4))
        }
    }
}
