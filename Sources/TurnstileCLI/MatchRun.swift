import Turnstile

/// One `turnstile match` run over its inputs: with one thread or `--threads`, with
/// ``GrepSink`` (grep's output) or ``MatchSink`` (every match), and what it found —
/// counted as the records go by, so a broken pipe still ends with the status of what
/// was found so far.
struct MatchRun {
    let matcher: Matcher
    let inputs: [String]
    /// Whether output lines start with the input's name.
    let named: Bool
    let output: OutputWriter
    let delimiter: RecordDelimiter
    let maxRecordBytes: Int
    /// Worker threads, or nil for one thread.
    let threads: Int?
    /// Bytes per chunk under `threads`.
    var chunkBytes = RecordReader.defaultChunkBytes
    /// What binary inputs get (grep's `--binary-files`; `.text` looks at nothing).
    var binaryFiles: BinaryFiles = .text

    struct Outcome {
        var status: RunStatus
        /// Whether a record was selected (a match found, with `--offsets` and `--json`).
        var matched: Bool
        var truncated: Bool
    }

    /// The run's pipeline: `threads` workers when a sink's output allows chunks.
    private func pipeline(threaded: Bool) -> RecordPipeline {
        var pipeline = RecordPipeline(matcher: matcher, delimiter: delimiter, maxRecordBytes: maxRecordBytes,
                                      threads: threaded ? threads ?? 1 : 1, chunkBytes: chunkBytes,
                                      knownInputBytes: knownInputBytes(inputs))
        pipeline.judgesLongRecordsWhole = true
        return pipeline
    }

    /// `--offsets`, `--json`, `--count-matches`: every match, or their number per input.
    func listMatches(mode: MatchSink.Mode, color: Bool) -> Outcome {
        let named = named
        let output = output
        let makeSink = { @Sendable (output: OutputWriter) in MatchSink(output: output, mode: mode, color: color) }
        var (status, outcome) = pipeline(threaded: true).run(inputs, named: named, output: output, makeSink: makeSink) {
            (name, tally) throws(OutputError) in
            // `--count-matches` prints each input's count after its last record.
            guard mode == .count else { return }
            try output.write(named ? "\(name):\(tally.matches)\n" : "\(tally.matches)\n")
        }
        finishRun(&status, output: output) {}
        return Outcome(status: status, matched: outcome.tally.matches > 0, truncated: outcome.truncatedSomeRecord)
    }

    /// `--json`: ripgrep's messages, on one thread (each input's messages carry its
    /// totals).
    func listJSON(invert: Bool = false) -> Outcome {
        var sink = RipgrepJSONSink(output: output)
        sink.invert = invert
        var reader = pipeline(threaded: false).makeReader()
        let status = runInputs(inputs, output: output) { (fd, name) throws(ScanError) in
            sink.beginInput(name: name)
            try reader.read(fd: fd, into: &sink)
            do throws(OutputError) { try sink.endInput() } catch { throw .sink(error) }
        } finish: { () throws(OutputError) in
            try sink.summary()
        }
        return Outcome(status: status, matched: sink.matchedAny, truncated: reader.truncatedSomeRecord)
    }

    /// grep's output: selected records, their matches (`-o`), counts, names.
    func selectRecords(_ settings: GrepSink.Settings) -> Outcome {
        let named = named
        let makeSink = { @Sendable (output: OutputWriter) in GrepSink(output: output, settings: settings) }
        // Context, -m, -q, -l and -L carry state from record to record or stop early:
        // one thread. Records and counts are cut into chunks like any other output.
        let parallel = (settings.mode == .records || settings.mode == .count) && !settings.separators
            && settings.maxCount == nil && !settings.initialTab && !mayMeetBinary(settings)
        if threads != nil, parallel {
            let output = output
            var (status, outcome) = pipeline(threaded: true).run(inputs, named: named, output: output, makeSink: makeSink) {
                (name, tally) throws(OutputError) in
                if let text = GrepSink.inputSummary(name: named ? name : nil, listName: name, tally: tally, settings: settings) {
                    try output.write(text)
                }
            }
            finishRun(&status, output: output) {}
            return Outcome(status: status, matched: outcome.tally.selected > 0, truncated: outcome.truncatedSomeRecord)
        }
        var sink = makeSink(output)
        var reader = pipeline(threaded: false).makeReader()
        let output = output
        let status = runInputs(inputs, output: output) { (fd, name) throws(ScanError) in
            sink.beginInput(name: named ? name : nil, firstRecord: 0)
            sink.listName = name
            // Where standard input stood before this run read it (-1: not seekable).
            let start = fd == 0 && settings.maxCount != nil ? lseek(fd, 0, SEEK_CUR) : -1
            if settings.initialTab { sink.numberWidth = Self.numberWidth(fd, lineNumbers: settings.lineNumber) }
            do throws(ScanError) {
                if settings.maxCount == 0 {
                    // grep -m0 reads nothing (-L then lists every input).
                } else if binaryFiles == .text {
                    try reader.read(fd: fd, into: &sink)
                } else {
                    let first = try BinaryDetection.firstBuffer(fd)
                    let binary = BinaryDetection.isBinary(first)
                    if !(binary && binaryFiles == .withoutMatch) {
                        sink.binaryInput = binary
                        try first.withUnsafeBufferPointer { (prefix) throws(ScanError) in
                            try reader.read(fd: fd, into: &sink, prefix: prefix)
                        }
                    }
                }
            } catch {
                // -l, -L and -m end an input early; the next one is read.
                if !Self.isInputDone(error) { throw error }
            }
            // grep -m leaves a seekable standard input just after the last selected
            // record, so the next reader continues there ({ grep -m1 x; cat; } < file).
            if start >= 0, sink.maxReached {
                _ = lseek(fd, start + off_t(sink.afterLastSelected), SEEK_SET)
            }
            if sink.leftOutEncodingError, binaryFiles == .binary {
                do throws(OutputError) { try output.flush() } catch { throw .sink(error) }
                printError("\(programName): \(name): binary file matches")
            }
            let tally = sink.takeTally()
            if let text = GrepSink.inputSummary(name: named ? name : nil, listName: name, tally: tally, settings: settings) {
                do throws(OutputError) { try output.write(text) } catch { throw .sink(error) }
            }
        } unreadFolder: { (name) throws(OutputError) in
            // grep -L lists a folder it could not read, after the error.
            if let text = GrepSink.inputSummary(name: named ? name : nil, listName: name, tally: RecordTally(),
                                                settings: settings), settings.mode == .filesWithoutMatch {
                try output.write(text)
            }
        } finish: {}
        return Outcome(status: status, matched: sink.selectedAny, truncated: reader.truncatedSomeRecord)
    }

    /// Whether binary detection could change this run's output: then it runs on one
    /// thread, which looks at each input's first buffer (`--threads` cuts inputs
    /// into chunks before anyone looks).
    private func mayMeetBinary(_ settings: GrepSink.Settings) -> Bool {
        guard binaryFiles != .text, settings.mode == .records || binaryFiles == .withoutMatch else { return false }
        // A printed line with an encoding error makes any input binary once it is met.
        if settings.leavesOutEncodingErrors && settings.mode == .records { return true }
        return inputs.contains(where: BinaryDetection.mightBeBinary)
    }

    /// grep `-T`'s width for numbers: the digits of the input's size (plus one with
    /// `-n`), or of the largest 64-bit number when the size is unknown.
    static func numberWidth(_ fd: Int32, lineNumbers: Bool) -> Int {
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return 20 }
        return String(Int(info.st_size) + (lineNumbers ? 1 : 0)).count
    }

    private static func isInputDone(_ error: ScanError) -> Bool {
        if case .sink(.inputDone) = error { return true }
        return false
    }
}
