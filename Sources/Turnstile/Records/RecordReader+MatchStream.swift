// Block search for a sink that takes matches as a stream (`RecordSink.takesMatchStream`):
// the one search of a buffer of complete records hands each match to the sink as it is
// found, and each record goes to the sink right after its last match. Nothing is
// collected, so memory does not grow with the matches of a record, and a record whose
// verdict the sink calls settled is searched no further (the search resumes after its
// delimiter). `filter` judges records this way in every mode that needs no match list:
// the verdict is computed from the same stream the sink prints (`--json`), so a record
// is searched once and each match is counted once.

import AutomatonCore

extension RecordReader {
    /// Hands every record of `region` to `sink`, each right after its matches.
    ///
    /// `region` holds complete records, each but perhaps the last (at the end of the
    /// input) followed by `byte`; no match contains `byte`
    /// (``Matcher/canSearchAcross(delimiter:)``). `offset` is the input offset of
    /// `region`'s first byte.
    ///
    /// - Complexity: one search of `region`, plus a backward scan from each record's
    ///   first match to the record's start.
    mutating func streamRecords<Sink: RecordSink>(
        _ region: UnsafeBufferPointer<UInt8>, matcher: Matcher, delimiter byte: UInt8, offset: Int,
        into sink: inout Sink
    ) throws(Sink.Failure) {
        let count = region.count
        let limit = maxRecordBytes
        // PERF: literal_throughput.py 'filter': records without a match go to the sink
        // as runs (counted, not cut one by one) when none can be over the limit.
        let runs = sink.acceptsCleanRuns && count <= limit
        // region[..<delivered] went to the sink. `current` is the record whose matches
        // are being streamed: content region[start..<end], then its delimiter, if any.
        var delivered = 0
        var current: (start: Int, end: Int)? = nil
        var failure: Sink.Failure? = nil
        var ended = false
        var truncated = false
        var from = 0
        // Locals only in the closure: capturing `self` would copy the reader's state
        // on every call.
        while true {
            var resume = -1
            matcher.forEachMatch(in: region, from: from) { m in
                if let c = current, m.start <= c.end {
                    // Past the head of a record over the limit: not in what the sink gets.
                    if m.end - c.start > limit { return true }
                    if sink.match(Match(pattern: m.pattern, start: m.start - c.start, end: m.end - c.start)) {
                        return true
                    }
                    resume = c.end + 1
                    return false
                }
                // An empty match after the block's last delimiter belongs to no record.
                if m.start >= count, region[count - 1] == byte { return true }
                do throws(Sink.Failure) {
                    if let c = current {
                        truncated = try Self.hand(region, c.start, c.end, offset: offset, limit: limit, into: &sink) || truncated
                        delivered = min(c.end + 1, count)
                        if sink.flow != .more { ended = true; return false }
                    }
                    // The new record starts after the last delimiter before the match.
                    var start = m.start
                    while start > delivered && region[start - 1] != byte { start -= 1 }
                    truncated = try Self.handUnmatched(region, delivered, start, delimiter: byte, runs: runs, offset: offset,
                                                       limit: limit, into: &sink) || truncated
                    if sink.flow != .more { ended = true; return false }
                    delivered = start
                    let end = RecordDelimiter.find(byte, in: region, from: m.start) ?? count
                    current = (start, end)
                    if m.end - start > limit { return true }
                    if sink.match(Match(pattern: m.pattern, start: m.start - start, end: m.end - start)) { return true }
                    resume = end + 1
                    return false
                } catch {
                    failure = error
                    return false
                }
            }
            if let failure { throw failure }
            if ended {
                stopped = true
                if truncated { truncatedSomeRecord = true }
                return
            }
            if resume < 0 || resume >= count { break }
            from = resume
        }
        if let c = current {
            truncated = try Self.hand(region, c.start, c.end, offset: offset, limit: limit, into: &sink) || truncated
            delivered = min(c.end + 1, count)
        }
        if sinkEnds(&sink) {
            if truncated { truncatedSomeRecord = true }
            return
        }
        truncated = try Self.handUnmatched(region, delivered, count, delimiter: byte, runs: runs, offset: offset,
                                           limit: limit, into: &sink) || truncated
        if truncated { truncatedSomeRecord = true }
    }

    /// Hands the sink the record `region[start..<end]` (its matches went before it)
    /// with its delimiter; a record over `limit` as its head, then the rest as its
    /// tail. Returns whether it was over the limit.
    private static func hand<Sink: RecordSink>(
        _ region: UnsafeBufferPointer<UInt8>, _ start: Int, _ end: Int, offset: Int, limit: Int,
        into sink: inout Sink
    ) throws(Sink.Failure) -> Bool {
        let terminator = UnsafeBufferPointer(rebasing: region[end..<min(end + 1, region.count)])
        let truncated = end - start > limit
        let headEnd = truncated ? start + limit : end
        try sink.record(content: UnsafeBufferPointer(rebasing: region[start..<headEnd]), terminator: terminator,
                        offset: offset + start, matches: [], truncated: truncated)
        if truncated, sink.flow == .more { try sink.tail(UnsafeBufferPointer(rebasing: region[headEnd..<end]), end: terminator) }
        return truncated
    }

    /// Hands the sink the records of `region[from..<to]`, none with a match (`to` is
    /// a record's start or the region's end): as clean runs when `runs`, else one by
    /// one. Returns whether one was over the limit.
    private static func handUnmatched<Sink: RecordSink>(
        _ region: UnsafeBufferPointer<UInt8>, _ from: Int, _ to: Int, delimiter byte: UInt8, runs: Bool,
        offset: Int, limit: Int, into sink: inout Sink
    ) throws(Sink.Failure) -> Bool {
        var at = from
        if runs {
            // Up to the last delimiter: a last record without one goes on its own.
            var runEnd = to
            while runEnd > at && region[runEnd - 1] != byte { runEnd -= 1 }
            if runEnd > at {
                let run = UnsafeBufferPointer(rebasing: region[at..<runEnd])
                try sink.cleanRun(run, records: count(byte, in: run))
                if sink.flow != .more { return false }
                at = runEnd
            }
        }
        var truncated = false
        while at < to, sink.flow == .more {
            let end = RecordDelimiter.find(byte, in: region, from: at) ?? region.count
            truncated = try hand(region, at, end, offset: offset, limit: limit, into: &sink) || truncated
            at = min(end + 1, region.count)
        }
        return truncated
    }
}
