import ArgumentParser
import Turnstile

/// Where `eval` and `train` read labelled records from: `label<TAB>text` records in
/// FILEs (standard input when there are none and no --spam/--ham), and/or whole
/// files or folders of spam and of ham records.
struct LabelledInputOptions: ParsableArguments {
    @Option(name: .customLong("spam"),
            help: ArgumentHelp("A file, or a folder of files, of spam records (no labels; repeatable).", valueName: "file"))
    var spamFiles: [String] = []

    @Option(name: .customLong("ham"),
            help: ArgumentHelp("A file, or a folder of files, of ham records (no labels; repeatable).", valueName: "file"))
    var hamFiles: [String] = []

    @Option(name: .customLong("delimiter"),
            help: ArgumentHelp("Records are lines (line), NUL-terminated (nul), blank-line separated (blank) or whole files (none).",
                               valueName: "line|nul|blank|none"))
    var delimiter: RecordDelimiter = .line

    @Option(name: .customLong("max-record-bytes"),
            help: ArgumentHelp("A longer record (or message) is used only in its first N bytes, as filter judges it; memory stays bounded by N.",
                               valueName: "n"))
    var maxRecordBytes: Int = RecordReader.defaultMaxRecordBytes

    @OptionGroup(title: "Mail") var mailArguments: FormatArguments
    var mail: FormatOptions { mailArguments.options }

    @Argument(help: ArgumentHelp("Labelled files, 'spam<TAB>text' or 'ham<TAB>text' per record; '-' or none (without --spam/--ham) reads standard input.",
                                 valueName: "file"))
    var files: [String] = []

    func validate() throws {
        if maxRecordBytes < 1 { throw ValidationError("--max-record-bytes must be at least 1") }
    }

    /// The labelled inputs.
    var labelledInputs: [String] {
        files.isEmpty && spamFiles.isEmpty && hamFiles.isEmpty ? ["-"] : files
    }

    /// Reads every record in order — labelled files first, then --spam, then --ham —
    /// and hands it to `body` with its label. Blank records are skipped.
    ///
    /// - Throws: ``CommandFailure`` for a missing or unreadable input, or a
    ///   labelled record without a known label (naming the file and line).
    func forEachRecord(_ body: (_ isSpam: Bool, _ text: UnsafeBufferPointer<UInt8>) -> Void) throws {
        let delimiter = try mail.delimiter(self.delimiter)
        if mail.format.isMail, !files.isEmpty || (spamFiles.isEmpty && hamFiles.isEmpty) {
            throw CommandFailure("--format \(mail.format) reads unlabelled messages: give them with --spam and --ham")
        }
        for path in mail.format.isMail ? [] : labelledInputs {
            try eachRecord(in: path, delimiter: delimiter, maxRecordBytes: maxRecordBytes) { number, record in
                guard let (isSpam, start) = LabelledRecord.label(of: record) else {
                    let unit = delimiter == .line ? "line" : "record"
                    throw CommandFailure("\(inputName(path)), \(unit) \(number): \(LabelledRecord.unknownLabelMessage(record))")
                }
                body(isSpam, UnsafeBufferPointer(rebasing: record[start...]))
            }
        }
        for (paths, isSpam) in [(spamFiles, true), (hamFiles, false)] {
            for path in try mail.format == .maildir ? maildirFiles(paths) : expandFolders(paths) {
                try eachRecord(in: path, delimiter: delimiter, maxRecordBytes: maxRecordBytes) { _, record in body(isSpam, record) }
            }
        }
    }

    /// Every record, collected.
    func readAll() throws -> [LabelledRecord] {
        var records: [LabelledRecord] = []
        try forEachRecord { isSpam, text in records.append(LabelledRecord(isSpam: isSpam, text: Array(text))) }
        return records
    }
}

/// Reads `path` (`-` is standard input) record by record — `body` gets each record's
/// 1-based number and content (a `\r` before a line end dropped) — through the
/// library's ``RecordPipeline`` (no matcher, one thread), holding only the unfinished
/// record in memory. Blank records are skipped (still numbered). A record longer than
/// `maxRecordBytes` is handed on as its first `maxRecordBytes` bytes (the rest is
/// skipped, not buffered), with one warning per input — the head is what `filter`
/// judges, too.
func eachRecord(
    in path: String, delimiter: RecordDelimiter, maxRecordBytes: Int,
    _ body: (_ number: Int, _ record: UnsafeBufferPointer<UInt8>) throws -> Void
) throws {
    var pipeline = RecordPipeline(delimiter: delimiter, maxRecordBytes: maxRecordBytes)
    pipeline.forcedThreads = .one
    let input = RecordInput(path: path, name: inputName(path))
    let outcome = withoutActuallyEscaping(body) { body in
        let shared = UncheckedSendable(body)
        return pipeline.run([input], named: false, open: { input in
            do throws(InputError) { return .success(try openInput(input.path)) } catch {
                return .failure(RecordInputError(message: error.message, name: input.name, isFolder: error.isFolder))
            }
        }, makeSink: { _ in LabelledRecordSink(stripCR: delimiter == .line, body: shared.value) }) { event in
            switch event {
            case .openFailed(let error): throw CommandFailure(error.message)
            case .readFailed(let name, let code): throw CommandFailure("\(name): \(errnoDescription(code))")
            case .shrank(let name): throw CommandFailure(shrankMessage(name))
            case .output, .inputEnded: break
            }
        }
    }
    if outcome.truncatedSomeRecord {
        printError("turnstile: warning: \(inputName(path)): a record longer than \(maxRecordBytes) bytes was used only in its first \(maxRecordBytes) bytes (see --max-record-bytes)")
    }
    if let failure = outcome.failure { throw failure }
}

/// Numbers records, drops a line's `\r`, skips blank records and hands the rest on.
private struct LabelledRecordSink: ChunkSink {
    typealias Failure = any Error
    let stripCR: Bool
    let body: (_ number: Int, _ record: UnsafeBufferPointer<UInt8>) throws -> Void
    private var number = 0

    init(stripCR: Bool, body: @escaping (_ number: Int, _ record: UnsafeBufferPointer<UInt8>) throws -> Void) {
        self.stripCR = stripCR
        self.body = body
    }

    mutating func record(
        content: UnsafeBufferPointer<UInt8>, terminator: UnsafeBufferPointer<UInt8>,
        offset: Int, matches: ArraySlice<Match>, truncated: Bool
    ) throws(any Error) {
        number += 1
        var end = content.count
        if stripCR, end > 0, content[end - 1] == 0x0D { end -= 1 }
        let record = UnsafeBufferPointer(rebasing: content[..<end])
        if LabelledRecord.isBlank(record) { return }
        try body(number, record)
    }

    // The rest of a record past the limit: not used (the head was handed on).
    mutating func tail(_ bytes: UnsafeBufferPointer<UInt8>, end: UnsafeBufferPointer<UInt8>?) throws(any Error) {}

    // One input, one thread: `body` sees the records in order and writes nothing here.
    var parallelism: SinkParallelism { .none }
    mutating func beginInput(name: String?, firstRecord: Int) {}
    mutating func takeTally() -> RecordTally { RecordTally() }
    mutating func takeOutput(reusing storage: ChunkOutput) -> ChunkOutput { storage }
}
