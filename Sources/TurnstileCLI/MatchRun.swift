import Turnstile

/// One `turnstile match` run over its inputs: with one thread or `--threads`, with
/// ``GrepSink`` (grep's output) or ``MatchSink`` (every match), and what it found —
/// counted as the records go by, so a broken pipe still ends with the status of what
/// was found so far.
struct MatchRun {
    let matcher: Matcher
    let inputs: [String]
    /// The inputs as a walk finds them (grep -r over folders), in place of ``inputs``.
    var walked: RecordInputFeed? = nil
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
    /// A thread plan that replaces the choice (``StreamOptions/forcedThreads``).
    var forcedThreads: RunThreads? = nil

    struct Outcome {
        var status: RunStatus
        /// Whether a record was selected (a match found, with `--offsets` and `--json`).
        var matched: Bool
        var truncated: Bool
    }

    /// The run's pipeline: up to `threads` workers, as the one decision
    /// (``RunThreads``) finds they pay; regular files searched mapped.
    private func pipeline() -> RecordPipeline {
        var pipeline = RecordPipeline(matcher: matcher, delimiter: delimiter, maxRecordBytes: maxRecordBytes,
                                      threads: threads ?? 1, chunkBytes: chunkBytes,
                                      knownInputBytes: walked == nil ? knownInputBytes(inputs) : nil)
        pipeline.judgesLongRecordsWhole = true
        pipeline.mapsFiles = true
        pipeline.forcedThreads = forcedThreads
        return pipeline
    }

    /// The run's inputs: the walk's feed, or the paths given.
    private func feed() -> RecordInputFeed {
        walked ?? RecordInputFeed(inputs.map { RecordInput(path: $0, name: inputName($0)) })
    }

    /// `--offsets`, `--json`, `--count-matches`: every match, or their number per input.
    func listMatches(mode: MatchSink.Mode, color: Bool) -> Outcome {
        let named = named
        let output = output
        let makeSink = { @Sendable (output: OutputWriter) in MatchSink(output: output, mode: mode, color: color) }
        var (status, outcome) = pipeline().run(feed(), named: named, output: output, makeSink: makeSink) {
            (name, tally) throws(OutputError) in
            // `--count-matches` prints each input's count after its last record.
            guard mode == .count else { return }
            try output.write(named ? "\(name):\(tally.matches)\n" : "\(tally.matches)\n")
        }
        finishRun(&status, output: output) {}
        return Outcome(status: status, matched: outcome.tally.matches > 0, truncated: outcome.truncatedSomeRecord)
    }

    /// `--json`: ripgrep's messages, on one thread (each input's messages carry its
    /// totals, the summary the run's).
    func listJSON(invert: Bool = false) -> Outcome {
        let makeSink = { @Sendable (output: OutputWriter) in
            var sink = RipgrepJSONSink(output: output)
            sink.invert = invert
            return sink
        }
        var (status, outcome) = pipeline().run(feed(), named: named, output: output, makeSink: makeSink)
        finishRun(&status, output: output) {}
        return Outcome(status: status, matched: outcome.tally.selected > 0, truncated: outcome.truncatedSomeRecord)
    }

    /// grep's output: selected records, their matches (`-o`), counts, names. How far
    /// it spreads over threads is the sink's to say (``GrepSink/parallelism``).
    func selectRecords(_ settings: GrepSink.Settings) -> Outcome {
        let named = named
        var settings = settings
        settings.binaryFiles = binaryFiles
        let makeSink = { @Sendable [settings] (output: OutputWriter) in GrepSink(output: output, settings: settings) }
        let output = output
        var (status, outcome) = pipeline().run(feed(), named: named, output: output, makeSink: makeSink) {
            (name, tally) throws(OutputError) in
            if tally.binaryFileMatches {
                try output.flush()
                printError("\(programName): \(name): binary file matches")
            }
            if let text = GrepSink.inputSummary(name: named ? name : nil, listName: name, tally: tally, settings: settings) {
                try output.write(text)
            }
        } openFailed: { (error) throws(OutputError) in
            // grep -L lists a folder it could not read, after the error.
            guard error.isFolder, settings.mode == .filesWithoutMatch else { return }
            if let text = GrepSink.inputSummary(name: named ? error.name : nil, listName: error.name,
                                                tally: RecordTally(), settings: settings) {
                try output.write(text)
            }
        }
        finishRun(&status, output: output) {}
        return Outcome(status: status, matched: outcome.tally.selected > 0, truncated: outcome.truncatedSomeRecord)
    }
}
