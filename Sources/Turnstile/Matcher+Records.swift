// Selecting records without finding every match: grep's -c, -l, -q, -v and plain
// lines need to know which records have a match, not where each match is. A block of
// records is searched from each record's start to its first match, then from the next
// record (a memchr for the delimiter), so a record dense with matches costs its first
// one, and a regex skips the reverse scan that finds where a match starts.

import AutomatonCore
import LiteralAutomata
import RegexAutomata

extension Matcher {
    /// Calls `body` with one match of each record of `region` that has one, in order.
    /// `region` holds whole records ending with `delimiter` (the last one possibly
    /// without it), and no match can hold the delimiter (``canSearchAcross(delimiter:)``).
    /// For literals the match is the record's first; for regexes it may know only its
    /// end (`start == end`), which is in the record. `body` returns false to stop.
    ///
    /// ```swift
    /// matcher.forEachRecordMatch(in: block, delimiter: 0x0A) { m in selected += 1; return true }
    /// ```
    /// - Complexity: O(bytes up to each record's first match + records).
    public func forEachRecordMatch(in region: UnsafeBufferPointer<UInt8>, delimiter byte: UInt8,
                                   _ body: (Match) -> Bool) {
        let n = region.count
        // An empty match after the last delimiter belongs to no record.
        let endsWithDelimiter = n > 0 && region[n - 1] == byte
        var from = 0
        if case .regex(let r) = engine, !checksWholeWords {
            var cursor = r.makeMatchCursor()
            while from < n {
                guard let end = r.earliestMatchEnd(in: region, from: from, cursor: &cursor),
                      end < n || !endsWithDelimiter else { return }
                if !body(Match(pattern: 0, start: end, end: end)) { return }
                guard let next = RecordDelimiter.find(byte, in: region, from: end) else { return }
                from = next + 1
            }
            return
        }
        while from < n {
            var found: Match? = nil
            forEachMatch(in: region, from: from) { found = $0; return false }
            guard let m = found, m.start < n || !endsWithDelimiter else { return }
            if !body(m) { return }
            guard let next = RecordDelimiter.find(byte, in: region, from: m.start) else { return }
            from = next + 1
        }
    }
}
