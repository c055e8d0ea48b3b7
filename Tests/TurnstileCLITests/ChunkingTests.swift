import Testing
import TestSupport
import Turnstile
@testable import TurnstileCLI

/// The pieces `--threads` is built from, tested alone: where inputs are cut, and the
/// hand-off that restores input order.
@Suite("--threads building blocks: RecordChunker and OrderedHandOff")
struct ChunkingTests {
    /// Cutting a prefix of the input never splits a record: the records of the cut
    /// part followed by those of the rest are the records of the whole, for every
    /// delimiter and every cut position.
    @Test("every cut position of random inputs: whole records before the cut, counted right",
          arguments: RecordDelimiter.allCases)
    func cutsAtRecordBoundaries(delimiter: RecordDelimiter) {
        var rng = SeededGenerator(defaultSeed: 0xC07)
        let alphabet: [UInt8] = Array("ab\n\n\r\0 ".utf8)
        for _ in 0..<300 {
            let input = (0..<Int.random(in: 0...40, using: &rng)).map { _ in alphabet.randomElement(using: &rng)! }
            let whole = Self.records(input, delimiter)
            for prefixLength in 0...input.count {
                let prefix = Array(input[..<prefixLength])
                let atEnd = prefixLength == input.count
                let (end, count) = prefix.withUnsafeBufferPointer {
                    RecordChunker(delimiter: delimiter).cut($0, atEnd: atEnd)
                }
                let head = Self.records(Array(input[..<end]), delimiter)
                let tail = Self.records(Array(input[end...]), delimiter)
                #expect(head.count == 2 * count, "seed \(rng.seed): \(input) cut at \(end)")
                #expect(head + tail == whole, "seed \(rng.seed): \(delimiter) \(input) cut at \(end) of \(prefixLength)")
                if atEnd { #expect(end == input.count) }
            }
        }
    }

    /// The reader loop's hint: after a cut, the unfinished bytes hold no delimiter, so
    /// the next cut (those bytes plus a new read) may search the new bytes only. Fed in
    /// random read sizes, the hinted cuts equal unhinted cuts of the same bytes.
    @Test("cuts given the unfinished bytes as known open equal full cuts",
          arguments: RecordDelimiter.allCases)
    func knownOpenHint(delimiter: RecordDelimiter) {
        var rng = SeededGenerator(defaultSeed: 0xC08)
        let alphabet: [UInt8] = Array("abbbbbbb\n\0".utf8)
        let chunker = RecordChunker(delimiter: delimiter)
        for _ in 0..<300 {
            let input = (0..<Int.random(in: 0...200, using: &rng)).map { _ in alphabet.randomElement(using: &rng)! }
            var pending: [UInt8] = [], offset = 0
            while offset <= input.count {
                let n = min(Int.random(in: 0...9, using: &rng), input.count - offset)
                let atEnd = offset + n == input.count
                let valid = pending + input[offset..<(offset + n)]
                offset += n
                let hinted = valid.withUnsafeBufferPointer { chunker.cut($0, atEnd: atEnd, knownOpen: pending.count) }
                let plain = valid.withUnsafeBufferPointer { chunker.cut($0, atEnd: atEnd) }
                #expect(hinted == plain, "seed \(rng.seed): \(delimiter) \(valid) known open \(pending.count)")
                pending = Array(valid[hinted.end...])
                if atEnd { break }
            }
        }
    }

    /// The records of `input` as the one-thread reader sees them: content, terminator,
    /// content, terminator, …
    static func records(_ input: [UInt8], _ delimiter: RecordDelimiter) -> [[UInt8]] {
        input.withUnsafeBufferPointer { buffer in
            var out: [[UInt8]] = []
            var from = 0
            while let (contentEnd, next) = delimiter.nextRecord(in: buffer, from: from, atEnd: true) {
                out.append(Array(buffer[from..<contentEnd]))
                out.append(Array(buffer[contentEnd..<next]))
                from = next
            }
            return out
        }
    }

    @Test("values put by many threads in any order are taken in number order")
    func orderedHandOff() {
        let handOff = OrderedHandOff<Int>()
        let n = 2_000
        let threads = (0..<4).map { t in
            WorkerThread {
                // Thread t puts the numbers ≡ t (mod 4), from the highest down.
                for i in stride(from: n - 1 - (n - 1 - t) % 4, through: 0, by: -4) { handOff.put(i, i * i) }
            }
        }
        var taken: [Int] = []
        for i in 0..<n { taken.append(handOff.take(i)) }
        threads.forEach { $0.join() }
        #expect(taken == (0..<n).map { $0 * $0 })
    }
}
