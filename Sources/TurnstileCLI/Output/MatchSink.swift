import AutomatonCore
import Turnstile

/// What `turnstile match --offsets` and `--count-matches` print: every match with its
/// absolute byte offsets and pattern id (`start:end:pattern:text`), or the number of
/// matches per input. (`--json` is ``RipgrepJSONSink``.)
struct MatchSink: ChunkSink {
    typealias Failure = OutputError
    enum Mode { case lines, count }

    let output: OutputWriter
    let mode: Mode
    let color: Bool
    private var prefix: [UInt8] = []
    private var scratch: [UInt8] = []
    /// Matches in the current input.
    private(set) var inputMatches = 0
    /// Whether any record had a match: the exit status, also after a broken pipe.
    private(set) var matchedAny = false

    init(output: OutputWriter, mode: Mode, color: Bool) {
        self.output = output
        self.mode = mode
        self.color = color
    }

    mutating func beginInput(name: String?, firstRecord: Int) {
        inputMatches = 0
        prefix = name.map { Array(($0 + ":").utf8) } ?? []
    }

    mutating func record(
        content: UnsafeBufferPointer<UInt8>, terminator: UnsafeBufferPointer<UInt8>,
        offset: Int, matches: ArraySlice<Match>, truncated: Bool
    ) throws(OutputError) {
        inputMatches += matches.count
        if !matches.isEmpty { matchedAny = true }
        guard mode != .count else { return }
        for m in matches {
            let text = UnsafeBufferPointer(rebasing: content[m.range])
            scratch.removeAll(keepingCapacity: true)
            scratch.append(contentsOf: prefix)
            scratch.append(contentsOf: "\(offset + m.start):\(offset + m.end):\(m.pattern):".utf8)
            if color { scratch.append(contentsOf: Rendering.colorStart) }
            scratch.append(contentsOf: text)
            if color { scratch.append(contentsOf: Rendering.colorEnd) }
            scratch.append(0x0A)
            try output.write(scratch)
        }
    }

    mutating func tail(_ bytes: UnsafeBufferPointer<UInt8>, end: UnsafeBufferPointer<UInt8>?) throws(OutputError) {}

    mutating func willRead() throws(OutputError) { try output.flushIfInteractive() }


    mutating func takeOutput(reusing storage: ChunkOutput) -> ChunkOutput { output.takeCollected(next: storage) }

    /// Matches carry byte offsets, never record numbers.
    var needsRecordNumbers: Bool { false }
    mutating func takeTally() -> RecordTally {
        defer { inputMatches = 0 }
        return RecordTally(matches: inputMatches)
    }

    /// Counting needs no record boundaries, nor the matches themselves.
    var needsRecordBoundaries: Bool { mode != .count }
    var countsMatchesOnly: Bool { mode == .count }

    mutating func addMatches(_ count: Int) {
        inputMatches += count
        if count > 0 { matchedAny = true }
    }
}
