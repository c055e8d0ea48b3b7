// Reading records: one reused buffer filled by read(2), cut into records by a
// `RecordDelimiter`, each record searched (when a matcher is given) and handed with its
// matches to a `RecordSink`. Shared by `filter`, `match`, `eval` and `train`.
//
// Matches are found first and widened to records afterwards (ripgrep's approach): when
// no match can contain the delimiter byte (`Matcher.canSearchAcross(delimiter:)`), all
// complete records in the buffer are searched in one pass and each match is attributed
// to the record around it; otherwise (regexes, `blank`/`none`) each record is its own
// haystack. Memory stays bounded by the longest record kept, never above
// `maxRecordBytes` plus two reads.

import AutomatonCore
import LiteralAutomata

/// Cuts an input into records through one reused buffer filled by `read(2)`, finds the
/// matches, and hands each record with its matches to a ``RecordSink``.
///
/// The kind of record (lines, NUL-terminated, blank-line separated, the whole input —
/// and next, mail) is the ``RecordDelimiter`` it is made with; see there for how to add
/// a kind. Without a matcher it only cuts records (`eval` and `train` read their
/// labelled records so).
///
/// ```swift
/// var reader = RecordReader(delimiter: .line, maxRecordBytes: 1 << 20)
/// try reader.read(fd: 0, into: &sink)     // sink: some RecordSink
/// ```
///
/// Matches are found first and widened to records afterwards: when no match can
/// contain the delimiter byte (``Matcher/canSearchAcross(delimiter:)``), all complete
/// records in the buffer are searched in one pass and each match is attributed to the
/// record around it; otherwise (regexes, `blank`/`none` delimiters) each record is its
/// own haystack. A record is buffered only until its end is seen, and never beyond
/// `maxRecordBytes`: a longer record is judged on its first `maxRecordBytes` bytes and
/// the rest streams through ``RecordSink/tail(_:end:)``.
///
/// - Complexity: O(input bytes) to cut records, plus the matcher's search.
public struct RecordReader {
    /// The matcher run over each record; nil to only cut records.
    public let matcher: Matcher?
    /// The kind of record.
    public let delimiter: RecordDelimiter
    /// Longer records are judged on their first this many bytes; the rest streams
    /// through ``RecordSink/tail(_:end:)``.
    public let maxRecordBytes: Int
    /// The command line's default for ``maxRecordBytes`` (`--max-record-bytes`): 16 MiB.
    /// Why that much and no more: the reader's buffer grows to the limit plus two reads,
    /// and with the copy made while it grows a record at the limit peaks at about twice
    /// the limit; at 16 MiB any input, 1 GB of `/dev/zero` as one record included, stays
    /// under 64 MiB of resident memory (issue 16), while messages and log records are
    /// judged whole far past what spam filters look at (spamc sends at most 500 KB).
    public static let defaultMaxRecordBytes = 16 << 20
    /// `true` when complete records are searched a buffer at a time.
    let blockSearch: Bool
    /// Bytes asked of each `read(2)` of a record search (long records read up to four
    /// times this).
    /// 64 KiB, rg's buffer: the bytes the kernel copies land in a buffer that stays in
    /// the core's L2 cache, and the search reads them from there. With 256 KiB reads a
    /// `grep -r -l GPL /usr/share/doc` (6,016 files, 96 MB read) spent a third of its
    /// samples in the kernel's copy, against a quarter to three tenths at 64 KiB; system
    /// time 152 → 122 ms (rg 109 ms, GNU grep 87 ms; mean of 20 runs, load 8 with this
    /// run at the highest priority). Reads of at most this, not up to four times it as
    /// before: the kernel's copy in a `grep -r zqxjkv /usr/share` (57,000 files) 855 and
    /// 645 samples against 1,024 and 906 (rg 829).
    static let readSize = 64 << 10
    /// The most bytes ``RecordSink/inputHead(_:)`` is shown: GNU grep's first buffer,
    /// 96 KiB, where it looks for a NUL before it prints a line (a file with its first
    /// NUL at byte 90,000 prints only `binary file matches`; at 100,000, the lines of
    /// the first 96 KiB first). A reader of a sink that looks at the head reads this
    /// much first.
    public static let headBytes = 96 << 10

    /// The read loop's buffer for ``read(fd:into:prefix:base:)``, reused from input
    /// to input.
    private let storage: RecordBuffer
    /// Where ``nextChunk(from:chunkBytes:countingRecords:pool:)`` stands in the
    /// current input (nil between inputs), and the records it handed out so far.
    var chunkCursor: ReadCursor?
    var chunkRecords = 0
    private var matches: [Match] = []
    /// The sink takes matches as a stream (``RecordSink/takesMatchStream``): none are
    /// kept, so memory does not grow with the matches of a record (a 19 MB line dense
    /// with matches held 3 million of them, about 150 MB, for `filter --count`); set
    /// when a read begins.
    private var streaming = false
    /// The sink needs one match per selected record (``RecordSink/needsEveryMatch``
    /// is false); set when a read begins.
    private var selectOnly = false
    /// The sink only adds up matches (``RecordSink/countsMatchesOnly``): they are
    /// counted into `matchCount`, never collected.
    private var countOnly = false
    /// The sink only counts records and the ones with a match
    /// (``RecordSink/countsSelectedRecordsOnly``); set when a read begins.
    private var countSelected = false
    /// The sink's ``RecordSink/countsRecords``.
    private var countRecords = true
    private var matchCount = 0
    /// Total bytes read, over every input.
    public internal(set) var bytesRead = 0
    /// `true` once some record was longer than `maxRecordBytes` and judged on its head.
    public internal(set) var truncatedSomeRecord = false
    /// Records longer than ``maxRecordBytes`` are judged whole, in bounded memory, when
    /// the sink only selects records (RecordReader+LongRecords.swift): `match` and
    /// `grep` set it; `filter` judges a message on its head, as spam filters do.
    public var judgesLongRecordsWhole = false
    /// A regular file is searched through mapped windows instead of read(2) into the
    /// buffer (MappedInput.swift): set for sinks that select records (`match`, `grep`),
    /// never for `filter`, which passes records through.
    public var mapsFiles = false
    /// The sink's ``RecordSink/flow`` ended the current read (``sinkEnds(_:)``).
    var stopped = false
    /// The regex automaton long records are judged with, once built.
    var longRecordSource: RecordSelectionSource? = nil
    var longRecordSourceBuilt = false

    /// A reader of `delimiter` records, searched with `matcher` when given. What the
    /// sink needs of the matches (every one, one per record, a count, or a stream it
    /// judges as it goes) is the sink's to say (``RecordSink``).
    public init(matcher: Matcher? = nil, delimiter: RecordDelimiter, maxRecordBytes: Int) {
        self.matcher = matcher
        self.delimiter = delimiter
        self.maxRecordBytes = max(1, min(maxRecordBytes, Int.max / 4))
        if let matcher, let byte = delimiter.byte {
            self.blockSearch = matcher.canSearchAcross(delimiter: byte)
        } else {
            self.blockSearch = false
        }
        self.storage = RecordBuffer(capacity: 2 * Self.readSize)
        matches.reserveCapacity(1024)
    }

    /// Kept for callers written when the reader owned a raw buffer: the buffer is now
    /// freed with the last copy of the reader.
    public func deallocate() {}

    /// Reads `fd` to its end, or until the sink's ``RecordSink/flow`` says it has
    /// enough, and feeds `sink`.
    ///
    /// - Throws: ``RecordReadError/read(_:)`` when read(2) fails,
    ///   ``RecordReadError/sink(_:)`` when the sink does.
    ///
    /// `prefix` are bytes of the input already read from `fd`, starting at input offset
    /// `base` (binary detection looks at the first buffer first; a threaded run hands
    /// the rest of an input over this way when a record is too long for a chunk).
    public mutating func read<Sink: RecordSink>(
        fd: Int32, into sink: inout Sink,
        prefix: UnsafeBufferPointer<UInt8> = UnsafeBufferPointer(start: nil, count: 0), base startBase: Int = 0
    ) throws(RecordReadError<Sink.Failure>) {
        do {
            try readErased(fd: fd, into: &sink, prefix: prefix, base: startBase)
        } catch {
            switch error {
            case .read(let code): throw .read(code)
            case .shrank: throw .shrank
            // Only the sink's failures are boxed as `.sink`, so the cast cannot fail.
            case .sink(let failure): throw .sink(failure as! Sink.Failure)
            }
        }
    }

    /// ``read(fd:into:prefix:base:)`` with the sink's failure boxed
    /// (``ErasedRecordReadError``): what the pipeline calls once an input.
    mutating func readErased<Sink: RecordSink>(
        fd: Int32, into sink: inout Sink,
        prefix: UnsafeBufferPointer<UInt8> = UnsafeBufferPointer(start: nil, count: 0), base startBase: Int = 0
    ) throws(ErasedRecordReadError) {
        stopped = sink.flow != .more
        guard !stopped else { return }
        try readAll(fd: fd, into: &sink, prefix: prefix, base: startBase)
    }

    /// Whether the sink has what it needs (``RecordSink/flow`` is no longer `.more`),
    /// read after each call that hands it records and noted in ``stopped``: every loop
    /// of the reader ends there, as at the end of the input.
    ///
    /// Why a flag and not a thrown value: the reader runs unspecialized for the CLI's
    /// sinks (another module's types), and a generic error type wrapped around the
    /// sink's own cost a metadata lookup per record (callgrind, `grep ERROR` over a
    /// 100 MB log: 79 M → 126 M instructions); a property read costs a call.
    @inline(__always)
    mutating func sinkEnds<Sink: RecordSink>(_ sink: inout Sink) -> Bool {
        if sink.flow != .more { stopped = true }
        return stopped
    }

    /// The read loop of ``readErased(fd:into:prefix:base:)``, inlined there: one
    /// function call fewer an input.
    @inline(__always)
    private mutating func readAll<Sink: RecordSink>(
        fd: Int32, into sink: inout Sink, prefix: UnsafeBufferPointer<UInt8>, base startBase: Int
    ) throws(ErasedRecordReadError) {
        selectOnly = !sink.needsEveryMatch
        countOnly = sink.countsMatchesOnly
        streaming = sink.takesMatchStream
        countSelected = sink.countsSelectedRecordsOnly
        countRecords = sink.countsRecords
        var cursor = ReadCursor(buffer: storage, base: startBase)
        if mapsFiles, let input = MappedInput(fd: fd, prefixCount: prefix.count, base: startBase) {
            cursor.mapped = input
        } else {
            cursor.load(prefix, readSize: Self.readSize)
        }
        defer { cursor.endMapping() }
        var inTail = false
        var longRecord = false
        var headSeen = !sink.looksAtHead
        // Input offset up to which the sink has been shown the input's blocks
        // (``RecordSink/looksAtBlocks``); nil when it is not shown them.
        var blocksShown: Int? = nil
        while true {
            // The bytes read so far and not yet handed on: [cursor.start, cursor.end).
            let view = cursor.view
            if !headSeen, cursor.end > cursor.start || cursor.atEnd {
                headSeen = true
                let head = slice(view, cursor.start, min(cursor.end, cursor.start + Self.headBytes))
                if sink.inputHead(head) == .skip { return }
                if sink.looksAtBlocks { blocksShown = cursor.base + cursor.start + head.count }
            }
            do {
                if inTail {
                    if let (contentEnd, next) = delimiter.nextRecord(
                        in: view, from: cursor.start, atEnd: cursor.atEnd, continuing: true) {
                        try sink.tail(slice(view, cursor.start, contentEnd), end: slice(view, contentEnd, next))
                        if sinkEnds(&sink) { return }
                        cursor.start = next
                        inTail = false
                    } else if cursor.atEnd {
                        try sink.tail(slice(view, cursor.start, cursor.end), end: slice(view, cursor.end, cursor.end))
                        if sinkEnds(&sink) { return }
                        cursor.start = cursor.end
                        inTail = false
                    } else {
                        let safe = safeTailEnd(view, from: cursor.start)
                        try sink.tail(slice(view, cursor.start, safe), end: nil)
                        if sinkEnds(&sink) { return }
                        cursor.start = safe
                    }
                }
                if !inTail {
                    if let shown = blocksShown {
                        guard let now = try processBlocks(view, cursor: &cursor, shown: shown, into: &sink) else { return }
                        blocksShown = now
                    } else {
                        cursor.start = try processComplete(view, from: cursor.start, base: cursor.base, atEnd: cursor.atEnd,
                                                           knownOpen: max(cursor.start, cursor.open), into: &sink)
                    }
                    if stopped { return }
                    cursor.open = cursor.end
                    if !cursor.atEnd, cursor.end - cursor.start >= maxRecordBytes {
                        guard judgesWhole(selectOnly: selectOnly, streaming: streaming, countOnly: countOnly) else {
                            try judgeHead(of: &cursor, into: &sink)
                            if stopped { return }
                            inTail = true
                            continue
                        }
                        longRecord = true
                    }
                }
            } catch {
                throw .sink(error)
            }
            if longRecord {
                // Judged whole (RecordReader+LongRecords.swift), or else on its head.
                longRecord = false
                if try judgeLongRecord(fd: fd, cursor: &cursor, into: &sink) {
                    cursor.open = cursor.start
                } else {
                    do { try judgeHead(of: &cursor, into: &sink) } catch { throw .sink(error) }
                    inTail = true
                }
                if stopped { return }
                continue
            }
            if cursor.mapped?.shrank == true { throw .shrank }
            if cursor.atEnd, cursor.start >= cursor.end { return }
            do { try sink.willRead() } catch { throw .sink(error) }
            // The head whole in the first read, as grep reads its first buffer.
            // Blocks shown: every read one block, so a read ends where a block does.
            let size = headSeen && blocksShown == nil ? Self.readSize : max(Self.readSize, Self.headBytes)
            let n = cursor.refill(from: fd, readSize: size, maxRead: size, maxRecordBytes: maxRecordBytes)
            if n < 0 { throw .read(lastErrno) }
            bytesRead += n
        }
    }

    /// Hands the complete records of `view` to a sink that looks at the input's blocks,
    /// one block at a time: block k (input offsets k · ``headBytes`` up to the next
    /// multiple) is shown to the sink (``RecordSink/inputBlock(_:)``) before any record
    /// that ends in it, as GNU grep looks at each buffer it reads before searching it.
    /// `shown`: the input offset shown so far. Returns the new one, or nil when the sink
    /// skips the rest of the input.
    ///
    /// Reads of one block each and mapped windows of whole blocks
    /// (``MappedInput/windowBytes``) keep a block from straddling two fills of a regular
    /// file read from its start; a pipe's reads end where they end, as GNU grep's do.
    private mutating func processBlocks<Sink: RecordSink>(
        _ view: UnsafeBufferPointer<UInt8>, cursor: inout ReadCursor, shown: Int, into sink: inout Sink
    ) throws(Sink.Failure) -> Int? {
        var shown = max(shown, cursor.base + cursor.start)
        let end = cursor.base + view.count
        while true {
            if shown < end {
                if sink.looksAtBlocks {
                    let blockEnd = min(end, (shown / Self.headBytes + 1) * Self.headBytes)
                    if sink.inputBlock(slice(view, shown - cursor.base, blockEnd - cursor.base)) == .skip { return nil }
                    shown = blockEnd
                } else {
                    shown = end  // the sink has seen what it needs: the rest whole
                }
            }
            let limit = shown - cursor.base
            let whole = limit == view.count
            cursor.start = try processComplete(slice(view, 0, limit), from: cursor.start, base: cursor.base,
                                               atEnd: cursor.atEnd && whole,
                                               knownOpen: min(max(cursor.start, cursor.open), limit), into: &sink)
            if stopped || whole { return shown }
        }
    }

    /// Feeds `sink` the records of `chunk`, which holds only complete records (the last
    /// one possibly without its delimiter at the end of the input) starting at input
    /// offset `base`: one chunk of the CLI's `--threads`, searched exactly as
    /// ``read(fd:into:prefix:base:)`` searches the same records. `chunk` must hold no
    /// record longer than ``maxRecordBytes``. A chunk's sink keeps its
    /// ``RecordSink/flow`` at ``RecordFlow/more``: sinks that stop early run whole
    /// inputs (``SinkParallelism/inputs``), never chunks.
    public mutating func read<Sink: RecordSink>(
        chunk: UnsafeBufferPointer<UInt8>, base: Int, into sink: inout Sink
    ) throws(Sink.Failure) {
        selectOnly = !sink.needsEveryMatch
        countOnly = sink.countsMatchesOnly
        streaming = sink.takesMatchStream
        countSelected = sink.countsSelectedRecordsOnly
        countRecords = sink.countsRecords
        stopped = false
        _ = try processComplete(chunk, from: 0, base: base, atEnd: true, into: &sink)
    }

    func slice(_ view: UnsafeBufferPointer<UInt8>, _ from: Int, _ to: Int) -> UnsafeBufferPointer<UInt8> {
        UnsafeBufferPointer(rebasing: view[from..<to])
    }

    /// How much of an unfinished tail can be passed on without cutting a possible
    /// terminator (`blank` holds back its trailing `\r`/`\n` run, `mbox` a last `\n`
    /// that a `From ` line may follow).
    private func safeTailEnd(_ view: UnsafeBufferPointer<UInt8>, from: Int) -> Int {
        if delimiter == .mbox { return RecordDelimiter.mboxSafeTailEnd(view, from: from) }
        guard delimiter == .blank else { return view.count }
        var e = view.count
        while e > from, view[e - 1] == 0x0A || view[e - 1] == 0x0D { e -= 1 }
        return e
    }

    /// Hands every complete record from `from` on to the sink; returns where the first
    /// incomplete record starts.
    ///
    /// `knownOpen`: no record ends in `view[from..<knownOpen]` (one byte delimiters);
    /// the search for the first end starts there.
    private mutating func processComplete<Sink: RecordSink>(
        _ view: UnsafeBufferPointer<UInt8>, from: Int, base: Int, atEnd: Bool, knownOpen: Int = 0,
        into sink: inout Sink
    ) throws(Sink.Failure) -> Int {
        guard from < view.count else { return from }
        if !atEnd, let byte = delimiter.byte, knownOpen > from,
           RecordDelimiter.find(byte, in: view, from: min(knownOpen, view.count)) == nil {
            return from  // still no complete record
        }
        if blockSearch, let matcher, let byte = delimiter.byte {
            // Every complete record: up to the last delimiter (or the end of input).
            let regionEnd: Int
            if atEnd {
                regionEnd = view.count
            } else if let last = RecordDelimiter.lastIndex(of: byte, in: view, from: max(from, knownOpen)) {
                regionEnd = last + 1
            } else {
                return from
            }
            if countRecords, regionEnd - from > Self.countedSliceBytes {
                // PERF: Benchmarks/scripts/log_lines.py (`grep -n`): records are counted in a
                // second pass over what the search passed; over a whole 16 MiB window that
                // pass read memory again, over a slice it reads the cache.
                var start = from
                while regionEnd - start > Self.countedSliceBytes,
                      let last = RecordDelimiter.lastIndex(
                        of: byte, in: UnsafeBufferPointer(rebasing: view[..<(start + Self.countedSliceBytes)]),
                        from: start) {
                    start = try processComplete(UnsafeBufferPointer(rebasing: view[..<(last + 1)]), from: start,
                                                base: base, atEnd: true, into: &sink)
                    if stopped { return start }
                }
                if start > from {
                    return try processComplete(view, from: start, base: base, atEnd: atEnd, into: &sink)
                }
            }
            let region = slice(view, from, regionEnd)
            matches.removeAll(keepingCapacity: true)
            if countSelected {
                // PERF: ../shared/bench/perf_grep.py (every `match -c` row): a SIMD count of
                // the records and one callback per record with a match, no record handed over.
                var records = 0, matched = 0
                if countRecords || matcher.matchesEveryRecord {
                    records = Self.count(byte, in: region) + (region.last == byte ? 0 : 1)
                }
                if matcher.matchesEveryRecord {
                    matched = records
                } else {
                    matcher.forEachRecordMatch(in: region, delimiter: byte) { _ in matched &+= 1; return true }
                }
                try sink.addRecords(records, matched: matched, bytes: region.count)
                _ = sinkEnds(&sink)
                return regionEnd
            }
            if streaming {
                // PERF: literal_throughput.py 'filter': a sink that judges the block in
                // one pass of its own (no record here can be over the limit).
                if region.count <= maxRecordBytes, try sink.judgeBlock(region, delimiter: byte) {
                    _ = sinkEnds(&sink)
                    return regionEnd
                }
                try streamRecords(region, matcher: matcher, delimiter: byte, offset: base + from, into: &sink)
                return regionEnd
            }
            if countOnly {
                // Memory does not grow with the matches (Fuzz/hostile-cli.sh dense-match).
                let ends = region.last == byte
                var n = 0
                matcher.forEachMatch(in: region, from: 0) { m in
                    if !ends || m.start < region.count { n += 1 }
                    return true
                }
                sink.addMatches(n)
            } else if selectOnly {
                // PERF: Benchmarks/scripts/grep_idioms.py ('.', '^#', -v '^$').
                var found = matches
                matches = []
                matcher.forEachRecordMatch(in: region, delimiter: byte) { found.append($0); return true }
                matches = found
            } else {
                matcher.appendMatches(in: region, to: &matches)
            }
            // An empty match after the block's last delimiter belongs to no record.
            if region.last == byte {
                while let last = matches.last, last.start >= region.count { matches.removeLast() }
            }
            if !sink.needsRecordBoundaries && region.count <= maxRecordBytes {
                // PERF: literal_throughput.py 'match': no record in the block can be
                // over the limit, and the sink does not care where records end.
                try sink.record(content: region, terminator: slice(region, region.count, region.count),
                                offset: base + from, matches: matches[...], truncated: false)
                _ = sinkEnds(&sink)
                return regionEnd
            }
            var m = 0
            var recordStart = 0
            // PERF: literal_throughput.py 'filter': records before the next match's
            // record go to the sink as one block (counted, not cut one by one). Only
            // when no record in the run can be over the limit: the run is no longer
            // than the limit (a mapped block is 16 MiB, the limit's default, so a test
            // of the whole block sent every line of `grep ERROR big.log` one by one).
            let runs = sink.acceptsCleanRuns
            while recordStart < region.count {
                if runs {
                    // The run ends where the record of the next match starts (one past
                    // the last delimiter before the match), or after the last delimiter.
                    let before = m < matches.count ? matches[m].start : region.count
                    let runEnd = before > recordStart
                        ? Memchr.findLast(byte, in: region, from: recordStart, end: before).map { $0 + 1 } ?? recordStart
                        : recordStart
                    if runEnd > recordStart, runEnd - recordStart <= maxRecordBytes {
                        let run = slice(region, recordStart, runEnd)
                        try sink.cleanRun(run, records: countRecords ? Self.count(byte, in: run) : 0)
                        if sinkEnds(&sink) { return regionEnd }
                        recordStart = runEnd
                        if recordStart >= region.count { break }
                    }
                }
                let contentEnd = RecordDelimiter.find(byte, in: region, from: recordStart) ?? region.count
                let next = min(contentEnd + 1, region.count)
                let first = m
                while m < matches.count, matches[m].start <= contentEnd {
                    matches[m].start -= recordStart
                    matches[m].end -= recordStart
                    m += 1
                }
                try deliver(
                    content: slice(region, recordStart, contentEnd), terminator: slice(region, contentEnd, next),
                    offset: base + from + recordStart, matchRange: first..<m, searched: true, into: &sink)
                if stopped { return regionEnd }
                recordStart = next
            }
            return regionEnd
        }
        var start = from
        while let (contentEnd, next) = delimiter.nextRecord(in: view, from: start, atEnd: atEnd) {
            try deliver(
                content: slice(view, start, contentEnd), terminator: slice(view, contentEnd, next),
                offset: base + start, matchRange: 0..<0, searched: false, into: &sink)
            start = next
            if stopped { break }
        }
        return start
    }

    /// The most bytes searched at once when records are counted (line numbers): the
    /// count's pass then reads what the search left in the L2 cache (512 KiB a core here).
    static let countedSliceBytes = 256 << 10

    /// How many times `byte` occurs in `bytes` (SIMD; see `Memchr.count`).
    package static func count(_ byte: UInt8, in bytes: UnsafeBufferPointer<UInt8>) -> Int {
        Memchr.count(byte, in: bytes)
    }

    /// Passes one complete record on, searching it first unless `searched`, and
    /// splitting it into head and tail when it is longer than the limit.
    private mutating func deliver<Sink: RecordSink>(
        content: UnsafeBufferPointer<UInt8>, terminator: UnsafeBufferPointer<UInt8>, offset: Int,
        matchRange: Range<Int>, searched: Bool, into sink: inout Sink
    ) throws(Sink.Failure) {
        let truncated = content.count > maxRecordBytes
        let head = truncated ? slice(content, 0, maxRecordBytes) : content
        if truncated, judgesWhole(selectOnly: selectOnly, streaming: streaming, countOnly: countOnly) {
            // The whole record is in the buffer: judged whole, handed on as head and tail.
            if !searched { searchRecord(content, into: &sink) }
            let found = searched ? matches[matchRange].first : matches.first
            let selected: [Match] = found.map { $0.end <= head.count ? [$0] : [Self.selectedBeyondHead] } ?? []
            try sink.record(content: head, terminator: slice(head, head.count, head.count), offset: offset,
                            matches: selected[...], truncated: true)
            if sinkEnds(&sink) { return }
            try sink.tail(slice(content, maxRecordBytes, content.count), end: terminator)
            _ = sinkEnds(&sink)
            return
        }
        if searched {
            if truncated {
                let limit = maxRecordBytes
                let kept = matches[matchRange].filter { $0.end <= limit }
                truncatedSomeRecord = true
                // A head's terminator is empty: the record's comes with its tail.
                try sink.record(content: head, terminator: slice(head, head.count, head.count), offset: offset,
                                matches: kept[...], truncated: true)
                if sinkEnds(&sink) { return }
            } else {
                try sink.record(content: head, terminator: terminator, offset: offset,
                                matches: matches[matchRange], truncated: false)
                _ = sinkEnds(&sink)
                return
            }
        } else {
            searchRecord(head, into: &sink)
            if countOnly { sink.addMatches(matchCount); matchCount = 0 }
            if truncated { truncatedSomeRecord = true }
            try sink.record(content: head, terminator: truncated ? slice(head, head.count, head.count) : terminator,
                            offset: offset, matches: matches[...], truncated: truncated)
            if sinkEnds(&sink) || !truncated { return }
        }
        try sink.tail(slice(content, maxRecordBytes, content.count), end: terminator)
        _ = sinkEnds(&sink)
    }

    /// The record at `cursor.start` is too long and its end is not in the buffer:
    /// judges its head and leaves `cursor.start` after it (the rest streams as a tail).
    private mutating func judgeHead<Sink: RecordSink>(
        of cursor: inout ReadCursor, into sink: inout Sink
    ) throws(Sink.Failure) {
        let headEnd = cursor.start + maxRecordBytes
        try deliverTruncated(cursor.view, cursor.start, headEnd, base: cursor.base, into: &sink)
        cursor.start = headEnd
    }

    /// Judges the first `maxRecordBytes` of a record whose end is not in the buffer.
    private mutating func deliverTruncated<Sink: RecordSink>(
        _ view: UnsafeBufferPointer<UInt8>, _ start: Int, _ headEnd: Int, base: Int, into sink: inout Sink
    ) throws(Sink.Failure) {
        let head = slice(view, start, headEnd)
        searchRecord(head, into: &sink)
        if countOnly { sink.addMatches(matchCount); matchCount = 0 }
        truncatedSomeRecord = true
        try sink.record(content: head, terminator: slice(view, headEnd, headEnd), offset: base + start,
                        matches: matches[...], truncated: true)
        _ = sinkEnds(&sink)
    }

    /// `matches` = the matches of one record, or, for a sink that takes a stream, each
    /// match handed to the sink as it is found.
    private mutating func searchRecord<Sink: RecordSink>(_ record: UnsafeBufferPointer<UInt8>, into sink: inout Sink) {
        matches.removeAll(keepingCapacity: true)
        guard let matcher else { return }
        if streaming {
            matcher.forEachMatch(in: record, from: 0) { sink.match($0) }
            return
        }
        if countOnly {
            var n = 0
            matcher.forEachMatch(in: record, from: 0) { _ in n += 1; return true }
            matchCount = n
            return
        }
        if selectOnly {
            if let first = matcher.firstMatch(in: record) { matches.append(first) }
            return
        }
        matcher.appendMatches(in: record, to: &matches)
    }
}
