import AutomatonCore
import Turnstile

/// What `turnstile match` prints, in grep's words: the selected records (those with a
/// match, or without one under `-v`), only their matches (`-o`), their number per input
/// (`-c`), the inputs that have (`-l`) or lack (`-L`) one, or nothing (`-q`); with
/// prefixes for the input's name (`-H`), the record number (`-n`) and the byte offset
/// (`-b`), context records around them (`-A`, `-B`, `-C`) and `--` between groups.
///
/// With ASCII input and `LC_ALL=C`, the output is GNU grep's byte for byte (the test
/// `GrepComparisonTests` runs both), with one documented difference: `-o` reports
/// leftmost-first matches (Perl's order) where grep reports POSIX leftmost-longest ones,
/// which differ only for alternatives that can match at the same place.
///
/// The sink ends an input early by its ``flow`` (``RecordFlow/endInput`` for `-l`,
/// `-L`, `-m` and a binary input's first match) and the whole run (``RecordFlow/endRun``
/// for `-q`); it throws only when the output fails. Context and `-m` keep state from
/// record to record, so they run on one thread.
struct GrepSink: ChunkSink {
    typealias Failure = OutputError

    /// What is printed.
    enum Mode: Sendable, Equatable {
        /// Selected records (or their matches with `onlyMatching`), with context.
        case records
        /// The number of selected records per input.
        case count
        /// The names of the inputs with a selected record.
        case filesWithMatches
        /// The names of the inputs without one.
        case filesWithoutMatch
        /// Nothing: the exit status says whether some record was selected.
        case quiet
    }

    /// The flags, fixed for the run.
    struct Settings: Sendable {
        var mode: Mode = .records
        var invert = false
        var onlyMatching = false
        var lineNumber = false
        var byteOffset = false
        /// Selected records per input before the input ends (`-m`); nil for no limit.
        var maxCount: Int?
        var before = 0
        var after = 0
        /// `--` between groups: any of `-A`, `-B`, `-C` was given (even 0, as grep).
        var separators = false
        var color = false
        /// The colours `--color` uses (grep's `GREP_COLORS`).
        var colors = GrepColors(environment: nil)
        /// Ends a printed match (`-o`) and a last record that had no terminator.
        var terminator: [UInt8] = [0x0A]

        /// The byte that ends a record when it is one byte (lines, NUL), so a run of
        /// records without a match can be cut for context; nil otherwise.
        var delimiterByte: UInt8? = 0x0A
        /// Ends each match `-o` prints: a newline (NUL with `-z`), whatever ends records.
        var matchTerminator: [UInt8] = [0x0A]
        /// `--count-matches` with `-m`: `-c` prints the matches of the selected records.
        var countsMatches = false
        /// `-Z`: a NUL after an input's name instead of `:`, `-` or a newline.
        var nullAfterName = false
        /// `--line-buffered`: each printed record is written out at once.
        var lineBuffered = false
        /// The line between context groups (`--group-separator`); nil prints none.
        var groupSeparator: [UInt8]? = Array("--".utf8)
        /// `-T`: a tab before each non-empty line's text, numbers padded to
        /// ``GrepSink/numberWidth``.
        var initialTab = false
        /// A UTF-8 locale without `-a`: a line (under `-o` a match) with an encoding error
        /// is not printed, and the input is said to be binary at its end, as grep does.
        var leavesOutEncodingErrors = false
        /// What binary inputs get (grep's `--binary-files`; `.text` looks at nothing).
        var binaryFiles: BinaryFiles = .text

        /// Whether an input's head decides anything: a NUL there makes it binary, which
        /// changes printed lines, or skips it under `-I`.
        var looksAtHead: Bool { binaryFiles != .text && (mode == .records || binaryFiles == .withoutMatch) }
    }

    let output: OutputWriter
    let settings: Settings
    /// `name:` before every line, or empty.
    private var namePrefix: [UInt8] = []
    private var name: String?
    /// The input's name for `-l` and `-L`, which print it whether or not lines are
    /// prefixed (set after ``beginInput(name:firstRecord:)``).
    var listName = "(standard input)"
    /// Counts the inputs begun, so a separator can tell one input from the next.
    private var inputSerial = 0
    /// The number of the current record in its input (1-based once counted).
    private var recordNumber = 0
    /// Selected records in this input so far (for `-m`).
    private var selectedInInput = 0
    /// Context records still to print after the last selected one.
    private var afterLeft = 0
    /// `-m` was reached in this input: only trailing context is still printed.
    private(set) var maxReached = false
    /// The input offset just after the last selected record (its terminator included):
    /// where grep leaves a seekable standard input once `-m` is reached, so the next
    /// reader continues there (`while grep -m1 x; do …; done < file`).
    private(set) var afterLastSelected = 0
    /// The current (truncated) record is the last selected one: ``afterLastSelected``
    /// moves with its tail.
    private var selectedTakesTail = false
    /// A line or match of this input was left out for an encoding error.
    private(set) var leftOutEncodingError = false
    /// The record before the current one was selected (under `-v` grep prints a run of
    /// selected records as one group).
    private var previousSelected = false
    /// The last printed record, to decide on a `--` separator.
    private var lastPrinted: (input: Int, record: Int)?
    /// Unprinted records kept for `-B`: number, offset and bytes (terminator included).
    /// Under `-o -v` also the record's matches (context records are printed as matches).
    private var beforeRing: [(record: Int, offset: Int, bytes: [UInt8], matches: [Match])] = []
    /// Whether the tail of the current truncated record is printed.
    private var printTail = false
    /// The current truncated record went into ``beforeRing``: its tail goes there too.
    private var ringTakesTail = false
    /// `-m` was reached on a truncated record: the input ends after its tail.
    private var inputDoneAfterTail = false
    /// Whether the reader goes on (``RecordSink/flow``): set when `-l`, `-L`, `-m`, a
    /// binary input or `-q` has what it needs; back to `.more` at each input.
    private(set) var flow = RecordFlow.more
    /// The input offset after the last record seen (where a clean run starts).
    private var nextOffset = 0
    private var scratch: [UInt8] = []
    private var ranges: [Range<Int>] = []
    /// Counted since the last ``takeTally()``: selected records, matches.
    private var selectedSinceTake = 0
    private var matchesSinceTake = 0
    /// Whether any record was selected in any input: the exit status, also after a
    /// broken pipe.
    private(set) var selectedAny = false
    /// The current input is binary (grep's `--binary-files=binary`): its first selected
    /// record prints `NAME: binary file matches` on standard error instead of any
    /// output, and ends the input. Set after ``beginInput(name:firstRecord:)``.
    var binaryInput = false
    /// With `-T`: the width line numbers and offsets are padded to in this input (grep:
    /// the digits of the input's size plus one, 20 when the size is unknown). Set after
    /// ``beginInput(name:firstRecord:)``.
    var numberWidth = 0

    /// Where standard input stood when it was opened, under `-m` (-1: not noted).
    private var seekStart: off_t = -1
    /// grep's "binary file matches" is due for this input (``RecordTally/binaryFileMatches``).
    private var binaryMatched = false

    init(output: OutputWriter, settings: Settings) {
        self.output = output
        self.settings = settings
    }

    /// Context (`--` between groups, also across inputs) allows no threads; what keeps
    /// state within an input, or looks at its head or its descriptor, allows whole
    /// inputs apart; plain lines and counts allow chunks.
    var parallelism: SinkParallelism {
        if settings.separators { return .none }
        if (settings.mode != .records && settings.mode != .count) || settings.maxCount != nil || settings.initialTab
            || looksAtHead || settings.leavesOutEncodingErrors {
            return .inputs
        }
        return .chunks
    }

    var looksAtHead: Bool { settings.looksAtHead }

    /// A NUL in the head: the input is binary; `-I` reads no further.
    mutating func inputHead(_ head: UnsafeBufferPointer<UInt8>) -> InputStart {
        let binary = BinaryDetection.isBinary(head)
        if binary && settings.binaryFiles == .withoutMatch { return .skip }
        binaryInput = binary
        return .read
    }

    /// A text input is looked at block by block for a later NUL, as GNU grep looks at
    /// each buffer it reads.
    var looksAtBlocks: Bool { settings.looksAtHead && !binaryInput }

    /// A NUL in a later block: the input is binary from this block on (its lines are
    /// left out, and `binary file matches` said once). Under `-I` it reads no further
    /// and counts as matching nothing, though its earlier lines were printed, as GNU
    /// grep has it (count 0, exit status 1).
    mutating func inputBlock(_ block: UnsafeBufferPointer<UInt8>) -> InputStart {
        guard BinaryDetection.isBinary(block) else { return .read }
        if settings.binaryFiles == .withoutMatch {
            selectedSinceTake = 0
            matchesSinceTake = 0
            selectedInInput = 0
            return .skip
        }
        binaryInput = true
        return .read
    }

    mutating func inputOpened(_ fd: Int32, name: String) -> InputStart {
        listName = name
        // Where standard input stood before this run read it (-1: not seekable).
        seekStart = fd == 0 && settings.maxCount != nil ? lseek(fd, 0, SEEK_CUR) : -1
        if settings.initialTab { numberWidth = Self.numberWidth(fd, lineNumbers: settings.lineNumber) }
        // grep -m0 reads nothing (-L then lists every input).
        return settings.maxCount == 0 ? .skip : .read
    }

    /// grep -m leaves a seekable standard input just after the last selected record,
    /// so the next reader continues there (`{ grep -m1 x; cat; } < file`).
    mutating func inputRead(_ fd: Int32) throws(OutputError) {
        if seekStart >= 0, maxReached { _ = lseek(fd, seekStart + off_t(afterLastSelected), SEEK_SET) }
        if leftOutEncodingError, settings.binaryFiles == .binary { binaryMatched = true }
    }

    /// grep `-T`'s width for numbers: the digits of the input's size (plus one with
    /// `-n`), or of the largest 64-bit number when the size is unknown.
    static func numberWidth(_ fd: Int32, lineNumbers: Bool) -> Int {
        var info = stat()
        guard fstat(fd, &info) == 0, (info.st_mode & S_IFMT) == S_IFREG else { return 20 }
        return String(Int(info.st_size) + (lineNumbers ? 1 : 0)).count
    }

    mutating func beginInput(name: String?, firstRecord: Int) {
        self.name = name
        namePrefix = name.map(PathBytes.bytes) ?? []
        inputSerial += 1
        recordNumber = firstRecord
        nextOffset = 0
        selectedInInput = 0
        afterLeft = 0
        maxReached = false
        afterLastSelected = 0
        leftOutEncodingError = false
        previousSelected = false
        beforeRing.removeAll()
        printTail = false
        ringTakesTail = false
        inputDoneAfterTail = false
        flow = .more
        binaryInput = false
    }


    mutating func takeOutput(reusing storage: ChunkOutput) -> ChunkOutput { output.takeCollected(next: storage) }

    /// Record numbers show only with `-n` (context separators, which also need them,
    /// run on one thread).
    var needsRecordNumbers: Bool { settings.lineNumber }

    mutating func takeTally() -> RecordTally {
        defer { selectedSinceTake = 0; matchesSinceTake = 0; binaryMatched = false }
        var tally = RecordTally(matches: matchesSinceTake, selected: selectedSinceTake)
        tally.binaryFileMatches = binaryMatched
        return tally
    }

    /// What is printed when an input ends, given what was counted in it: its count
    /// (`-c`) or its name (`-L`).
    static func inputSummary(name: String?, listName: String, tally: RecordTally, settings: Settings) -> String? {
        switch settings.mode {
        case .count:
            let count = settings.countsMatches ? tally.matches : tally.selected
            let separator = settings.nullAfterName ? "\0" : settings.colored(":", settings.colors.separator)
            return name.map { "\(settings.colored($0, settings.colors.fileName))\(separator)\(count)\n" } ?? "\(count)\n"
        case .filesWithoutMatch:
            return tally.selected == 0
                ? settings.colored(listName, settings.colors.fileName) + (settings.nullAfterName ? "\0" : "\n") : nil
        case .records, .filesWithMatches, .quiet:
            return nil
        }
    }

    var needsRecordBoundaries: Bool { true }

    /// Only `-o`, `--color` and `--count-matches` look at a record's matches; the rest
    /// of grep's output needs to know which records have one.
    var needsEveryMatch: Bool { settings.onlyMatching || settings.color || settings.countsMatches }

    /// Runs of records without a match need no call each unless `-v` selects them:
    /// `-n` and `-b` count them, and context takes its records from a run's ends
    /// (PERF: `match -C1` on 100 MB took 0.46 s with a call and a copy per record).
    var acceptsCleanRuns: Bool {
        !settings.invert && (settings.delimiterByte != nil || settings.mode != .records || !hasContext)
    }

    private var hasContext: Bool { settings.before > 0 || settings.after > 0 || settings.separators }

    /// Line numbers and context need every record counted; so does `-c -v` (the
    /// records without a match are the ones counted).
    var countsRecords: Bool { settings.lineNumber || hasContext || (settings.mode == .count && settings.invert) }

    /// `n` records without a match, each with its terminator: the first ones may be
    /// context after a selected record, the last `before` ones context before the next.
    mutating func cleanRun(_ bytes: UnsafeBufferPointer<UInt8>, records n: Int) throws(OutputError) {
        let first = recordNumber, base = nextOffset
        if !bytes.isEmpty { previousSelected = false }
        recordNumber += n
        nextOffset += bytes.count
        guard settings.mode == .records, hasContext, let byte = settings.delimiterByte, n > 0 else { return }
        // The records after the last selected one.
        var at = 0, index = 0
        while afterLeft > 0, at < bytes.count {
            let end = Self.find(byte, in: bytes, from: at) ?? bytes.count
            let next = min(end + 1, bytes.count)
            let printed = try printContext(UnsafeBufferPointer(rebasing: bytes[at..<end]),
                                           UnsafeBufferPointer(rebasing: bytes[end..<next]),
                                           number: first + index + 1, offset: base + at, truncated: false)
            if !printed {
                // grep's trailing context stops at a line left out, which may still be
                // context before the next selected line.
                afterLeft = 0
                if maxReached { flow = .endInput; return }
                break
            }
            afterLeft -= 1
            index += 1
            at = next
            if maxReached && afterLeft <= 0 { flow = .endInput; return }
        }
        guard settings.before > 0, at < bytes.count else { return }
        // The last `before` records of the rest, found from the end.
        var starts: [Int] = []
        var cursor = bytes.count - 1  // the run's last terminator
        while starts.count < settings.before, cursor >= at {
            var s = cursor
            while s > at, bytes[s - 1] != byte { s -= 1 }
            starts.append(s)
            cursor = s - 1
        }
        if starts.count == settings.before { beforeRing.removeAll(keepingCapacity: true) }
        var number = first + n - starts.count
        for s in starts.reversed() {
            let end = Self.find(byte, in: bytes, from: s) ?? bytes.count
            let next = min(end + 1, bytes.count)
            if beforeRing.count == settings.before { beforeRing.removeFirst() }
            number += 1
            beforeRing.append((number, base + s, Array(bytes[s..<next]), []))
        }
    }

    private static func find(_ byte: UInt8, in bytes: UnsafeBufferPointer<UInt8>, from: Int) -> Int? {
        var i = from
        while i < bytes.count {
            if bytes[i] == byte { return i }
            i += 1
        }
        return nil
    }

    mutating func willRead() throws(OutputError) { try output.flushIfInteractive() }

    /// `-c` (with or without `-v`) without `-m`: only the numbers of records and of the
    /// ones with a match are needed.
    var countsSelectedRecordsOnly: Bool {
        settings.mode == .count && !settings.countsMatches && settings.maxCount == nil
    }

    mutating func addRecords(_ records: Int, matched: Int, bytes: Int) throws(OutputError) {
        recordNumber += records
        nextOffset += bytes
        let selected = settings.invert ? records - matched : matched
        if selected > 0 { selectedAny = true }
        selectedInInput += selected
        selectedSinceTake += selected
        matchesSinceTake += selected
    }

    mutating func record(
        content: UnsafeBufferPointer<UInt8>, terminator: UnsafeBufferPointer<UInt8>,
        offset: Int, matches: ArraySlice<Match>, truncated: Bool
    ) throws(OutputError) {
        recordNumber += 1
        nextOffset = offset + content.count + terminator.count
        printTail = false
        ringTakesTail = false
        selectedTakesTail = false
        if maxReached {
            // Only the context after the last selected record is still wanted.
            let printed = try printContext(content, terminator, number: recordNumber, offset: offset, matches: matches,
                                           truncated: truncated)
            afterLeft = printed ? afterLeft - 1 : 0
            if afterLeft <= 0 { endInput(after: truncated) }
            return
        }
        let selected = matches.isEmpty == settings.invert
        defer { previousSelected = selected }
        guard selected else {
            if settings.mode == .records {
                if afterLeft > 0 {
                    let printed = try printContext(content, terminator, number: recordNumber, offset: offset,
                                                   matches: matches, truncated: truncated)
                    afterLeft -= 1
                    if !printed {
                        // As grep: the trailing context ends at a line left out, which
                        // may still be context before the next selected line.
                        afterLeft = 0
                        if settings.before > 0 {
                            if beforeRing.count == settings.before { beforeRing.removeFirst() }
                            beforeRing.append((recordNumber, offset, Array(content) + (truncated ? [] : terminated(terminator)), []))
                            ringTakesTail = truncated
                        }
                    }
                } else if settings.before > 0 {
                    if beforeRing.count == settings.before { beforeRing.removeFirst() }
                    beforeRing.append((recordNumber, offset, Array(content) + (truncated ? [] : terminated(terminator)),
                                       settings.onlyMatching && settings.invert ? Array(matches) : []))
                    ringTakesTail = truncated
                }
            }
            return
        }
        selectedAny = true
        selectedInInput += 1
        selectedSinceTake += 1
        afterLastSelected = nextOffset
        selectedTakesTail = truncated
        matchesSinceTake += settings.invert ? 1 : matches.count
        switch settings.mode {
        case .quiet:
            flow = .endRun
            return
        case .filesWithMatches:
            try output.write(PathBytes.bytes(settings.colored(listName, settings.colors.fileName)))
            try output.write(byte: settings.nullAfterName ? 0 : 0x0A)
            flow = .endInput
            return
        case .filesWithoutMatch:
            flow = .endInput
            return
        case .count:
            break
        case .records:
            if binaryInput {
                // Said once the input's output is written (the run's inputEnded event).
                binaryMatched = true
                flow = .endInput
                return
            }
            // grep decides on `--` once, where the group starts (its first context
            // record, printed or left out for an encoding error).
            // Under -v grep prints a run of selected records as one group.
            var groupStarted = settings.invert && previousSelected
            for kept in beforeRing {
                defer { groupStarted = true }
                if settings.onlyMatching {
                    try separateIfNeeded(kept.record, decides: !groupStarted)
                    if settings.invert {
                        try kept.bytes.withUnsafeBufferPointer { (bytes) throws(OutputError) in
                            try writeMatches(bytes, number: kept.record, offset: kept.offset, matches: kept.matches[...],
                                             separator: UInt8(ascii: "-"))
                        }
                    }
                    continue
                }
                let leftOut = kept.bytes.withUnsafeBufferPointer { leavesOut($0) }
                try separateIfNeeded(kept.record, decides: !groupStarted, printed: !leftOut)
                if leftOut { continue }
                try writePrefix(record: kept.record, offset: kept.offset, separator: UInt8(ascii: "-"),
                                empty: kept.bytes.count <= 1)
                try output.write(kept.bytes)
            }
            beforeRing.removeAll(keepingCapacity: true)
            var leftOut = false
            if !settings.onlyMatching && leavesOut(content) {
                // A line with an encoding error is not printed (grep: binary); grep's
                // trailing context then stops, and the line may still be context
                // before the next selected one.
                leftOut = true
                try separateIfNeeded(recordNumber, decides: !groupStarted, printed: false)
                if settings.before > 0 {
                    beforeRing.append((recordNumber, offset, Array(content) + (truncated ? [] : terminated(terminator)), []))
                    ringTakesTail = truncated
                }
            } else if settings.onlyMatching {
                try separateIfNeeded(recordNumber, decides: !groupStarted)
                // Under -v a selected record has no match: -o prints nothing for it.
                try writeMatches(content, number: recordNumber, offset: offset, matches: matches, separator: UInt8(ascii: ":"))
            } else {
                try separateIfNeeded(recordNumber, decides: !groupStarted)
                try writePrefix(record: recordNumber, offset: offset, separator: UInt8(ascii: ":"), empty: content.isEmpty)
                if settings.color && !matches.isEmpty {
                    try writeHighlighted(content, matches)
                } else {
                    try output.write(content)
                }
                if truncated { printTail = true } else { try output.write(terminated(terminator)) }
            }
            afterLeft = leftOut ? 0 : settings.after
            if settings.lineBuffered { try output.flush() }
        }
        if let limit = settings.maxCount, selectedInInput >= limit {
            maxReached = true
            if settings.mode != .records || afterLeft <= 0 { endInput(after: truncated) }
        }
    }

    mutating func tail(_ bytes: UnsafeBufferPointer<UInt8>, end: UnsafeBufferPointer<UInt8>?) throws(OutputError) {
        nextOffset += bytes.count + (end?.count ?? 0)
        if selectedTakesTail { afterLastSelected = nextOffset }
        if ringTakesTail, !beforeRing.isEmpty {
            beforeRing[beforeRing.count - 1].bytes += Array(bytes)
            if let end { beforeRing[beforeRing.count - 1].bytes += terminated(end) }
        }
        if printTail {
            try output.write(bytes)
            if let end { try output.write(terminated(end)) }
        }
        if end != nil, inputDoneAfterTail {
            inputDoneAfterTail = false
            flow = .endInput
        }
    }

    /// Ends the input (`-m` reached), after the tail of a truncated record: a line is
    /// printed whole, and the input is left after it.
    private mutating func endInput(after truncated: Bool) {
        if truncated { inputDoneAfterTail = true } else { flow = .endInput }
    }

    /// Whether `bytes`, about to be printed, are left out for an encoding error (a UTF-8
    /// locale without `-a`: grep then calls the input binary); remembers that one was.
    private mutating func leavesOut(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard settings.leavesOutEncodingErrors, BinaryDetection.hasEncodingErrors(bytes) else { return false }
        leftOutEncodingError = true
        return true
    }

    /// The record's terminator, or the default one after a last record without any.
    private func terminated(_ terminator: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        terminator.isEmpty ? settings.terminator : Array(terminator)
    }

    /// A context record (`-A`, or after `-m`), and whether it was printed (not left out
    /// for an encoding error): printed with `-` separators, except under
    /// `-o`, where only its matches are printed (as grep: with `-v` the context records
    /// are the ones with matches, each printed with `-` separators) and it still joins
    /// its group.
    @discardableResult
    private mutating func printContext(
        _ content: UnsafeBufferPointer<UInt8>, _ terminator: UnsafeBufferPointer<UInt8>, number: Int, offset: Int,
        matches: ArraySlice<Match> = [], truncated: Bool
    ) throws(OutputError) -> Bool {
        // Context after a selected record never starts a group.
        let leftOut = !settings.onlyMatching && leavesOut(content)
        try separateIfNeeded(number, decides: false, printed: !leftOut)
        if leftOut { return false }
        guard !settings.onlyMatching else {
            // Without -v a context record's matches (after -m) are not printed.
            guard settings.invert else { return true }
            try writeMatches(content, number: number, offset: offset, matches: matches, separator: UInt8(ascii: "-"))
            return true
        }
        try writePrefix(record: number, offset: offset, separator: UInt8(ascii: "-"), empty: content.isEmpty)
        try output.write(content)
        if truncated { printTail = true } else { try output.write(terminated(terminator)) }
        return true
    }

    /// `--` when `record` starts a group (`decides`) and does not follow the last printed
    /// record (in this input), then remembers it as printed unless it was left out.
    private mutating func separateIfNeeded(_ record: Int, decides: Bool = true, printed: Bool = true) throws(OutputError) {
        if decides, settings.separators, let separator = settings.groupSeparator, let last = lastPrinted,
           last.input != inputSerial || last.record + 1 != record {
            if settings.color {
                try output.write(settings.colors.start(settings.colors.separator) + separator + settings.colors.end(settings.colors.separator) + [0x0A])
            } else {
                try output.write(separator + [0x0A])
            }
        }
        if printed { lastPrinted = (inputSerial, record) }
    }

    /// `name:`, `number:` and `offset:` as the flags ask (`-` for context records),
    /// each part in its colour with `--color`, as grep.
    private mutating func writePrefix(record: Int, offset: Int, separator: UInt8, empty: Bool = false) throws(OutputError) {
        guard name != nil || settings.lineNumber || settings.byteOffset else { return }
        scratch.removeAll(keepingCapacity: true)
        if name != nil {
            appendColored(namePrefix, settings.colors.fileName)
            if settings.nullAfterName { scratch.append(0) } else { appendColored([separator], settings.colors.separator) }
        }
        if settings.lineNumber {
            appendColored(padded(record), settings.colors.lineNumber)
            appendColored([separator], settings.colors.separator)
        }
        if settings.byteOffset {
            appendColored(padded(offset), settings.colors.byteOffset)
            appendColored([separator], settings.colors.separator)
        }
        if settings.initialTab && !empty { scratch.append(0x09) }
        try output.write(scratch)
    }

    /// A number's digits, padded on the left to ``numberWidth`` under `-T`.
    private func padded(_ number: Int) -> [UInt8] {
        let digits = Array(String(number).utf8)
        guard settings.initialTab, digits.count < numberWidth else { return digits }
        return Array(repeating: 0x20, count: numberWidth - digits.count) + digits
    }

    /// Appends `text` to `scratch`, between the colour `sgr` and its end with `--color`.
    private mutating func appendColored(_ text: [UInt8], _ sgr: String) {
        guard settings.color else { return scratch.append(contentsOf: text) }
        scratch.append(contentsOf: settings.colors.start(sgr))
        scratch.append(contentsOf: text)
        scratch.append(contentsOf: settings.colors.end(sgr))
    }

    /// `-o`: each non-empty match on a line of its own (grep skips empty matches).
    private mutating func writeMatches(
        _ content: UnsafeBufferPointer<UInt8>, number: Int, offset: Int, matches: ArraySlice<Match>, separator: UInt8
    ) throws(OutputError) {
        for m in matches where m.end > m.start && m.end <= content.count {
            if leavesOut(UnsafeBufferPointer(rebasing: content[m.range])) { continue }
            try writePrefix(record: number, offset: offset + m.start, separator: separator)
            if settings.color { try output.write(settings.colors.start(settings.colors.match)) }
            try output.write(UnsafeBufferPointer(rebasing: content[m.range]))
            if settings.color { try output.write(settings.colors.end(settings.colors.match)) }
            try output.write(settings.matchTerminator)
        }
    }

    private mutating func writeHighlighted(_ content: UnsafeBufferPointer<UInt8>, _ matches: ArraySlice<Match>) throws(OutputError) {
        Rendering.mergedRanges(matches, into: &ranges)
        try Rendering.writeHighlighted(content, ranges: ranges, to: output,
                                       start: settings.colors.start(settings.colors.match), end: settings.colors.end(settings.colors.match))
    }
}
extension GrepSink.Settings {
    /// `text` in the colour `sgr` under `--color`, as grep colours names in `-l`, `-L`
    /// and `-c` output; `text` itself otherwise.
    func colored(_ text: String, _ sgr: String) -> String {
        guard color else { return text }
        return String(decoding: colors.start(sgr), as: UTF8.self) + text + String(decoding: colors.end(sgr), as: UTF8.self)
    }
}
