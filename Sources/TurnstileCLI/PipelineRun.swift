import Turnstile

// How the commands run the library's RecordPipeline: the inputs named on the command
// line, sinks writing to standard output (or, on the workers of a threaded run, to
// memory), and the run's events printed — chunk output, input errors, each input's
// summary line.

extension RecordPipeline {
    /// Runs over `paths` (`-` is standard input), with sinks made by `makeSink` for the
    /// writer they write to, and prints the run's events to `output`. `inputEnded`
    /// prints what an input's summary is (`-c`'s count), given its tally.
    ///
    /// Returns the run's status (input errors reported, a broken pipe noted, another
    /// write error reported) and what it counted.
    func run<Sink: ChunkSink>(
        _ paths: [String], named: Bool, output: OutputWriter,
        makeSink: @escaping @Sendable (OutputWriter) -> Sink,
        inputEnded: @escaping (_ name: String, _ tally: RecordTally) throws(OutputError) -> Void = { _, _ in },
        openFailed: @escaping (RecordInputError) throws(OutputError) -> Void = { _ in }
    ) -> (status: RunStatus, outcome: RecordRunOutcome<OutputError>) where Sink.Failure == OutputError {
        run(RecordInputFeed(paths.map { RecordInput(path: $0, name: inputName($0)) }), named: named, output: output,
            makeSink: makeSink, inputEnded: inputEnded, openFailed: openFailed)
    }

    /// Runs over the inputs of `feed` as they come (grep -r's walk, ``recursiveFeed(_:names:followLinks:)``),
    /// as ``run(_:named:output:makeSink:inputEnded:openFailed:)`` runs over paths.
    func run<Sink: ChunkSink>(
        _ feed: RecordInputFeed, named: Bool, output: OutputWriter,
        makeSink: @escaping @Sendable (OutputWriter) -> Sink,
        inputEnded: @escaping (_ name: String, _ tally: RecordTally) throws(OutputError) -> Void = { _, _ in },
        openFailed: @escaping (RecordInputError) throws(OutputError) -> Void = { _ in }
    ) -> (status: RunStatus, outcome: RecordRunOutcome<OutputError>) where Sink.Failure == OutputError {
        let shared = UncheckedSendable(output)
        let outcome = run(
            feed, named: named,
            open: { input in
                do throws(InputError) { return .success(try openInput(input.path, isRegularFile: input.isRegularFile)) } catch {
                    return .failure(RecordInputError(message: error.message, name: input.name, isFolder: error.isFolder))
                }
            },
            makeSink: { target in
                switch target {
                case .output: return makeSink(shared.value)
                case .memory: return makeSink(OutputWriter(collectingLike: shared.value))
                }
            },
            events: { (event) throws(OutputError) in
                switch event {
                case .output(let bytes):
                    try output.write(bytes)
                    try output.flushIfInteractive()
                // What was printed before goes out first, as GNU grep's error() flushes
                // standard output: both in one pipe read in input order.
                case .openFailed(let error):
                    try output.flush()
                    reportInputError(error.message)
                    try openFailed(error)
                case .readFailed(let name, let code):
                    try output.flush()
                    reportInputError("\(name): \(errnoDescription(code))")
                case .shrank(let name):
                    try output.flush()
                    reportInputError(shrankMessage(name))
                case .inputEnded(let name, let tally):
                    try inputEnded(name, tally)
                }
            })
        var status = RunStatus()
        status.hadError = outcome.inputFailed
        if let failure = outcome.failure { recordOutputFailure(failure, in: &status) }
        return (status, outcome)
    }
}

/// The bytes the inputs hold, when every one is a regular file (or missing: it is
/// not read), nil when some input is standard input, a pipe or a device, whose size
/// is not known before reading (``RecordPipeline/knownInputBytes``). Counted up to
/// `enough`: past it no rule of ``RunThreads`` tells a larger total from an unknown
/// one, so a tree of 47,000 files costs a few stat calls here, not one each.
func knownInputBytes(_ paths: [String], enough: Int = 64 << 20) -> Int? {
    var total = 0
    for path in paths {
        guard path != "-" else { return nil }
        if total >= enough { return total }
        var info = stat()
        guard PathBytes.withCString(path, { stat($0, &info) }) == 0 else { continue }
        guard (info.st_mode & S_IFMT) == S_IFREG else { return nil }
        total += Int(info.st_size)
    }
    return total
}

/// Hands a value that is used by one thread at a time to another thread.
final class UncheckedSendable<Value>: @unchecked Sendable {
    let value: Value
    init(_ value: Value) { self.value = value }
}
