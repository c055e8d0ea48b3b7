// Selecting records without finding every match: grep's -c, -l, -q, -v and plain
// lines need to know which records have a match, not where each match is. A block of
// records is searched from each record's start to its first match, then from the next
// record (a memchr for the delimiter), so a record dense with matches costs its first
// one, and a regex skips the reverse scan that finds where a match starts.

import AutomatonCore
import LiteralAutomata
import RegexAutomata

extension SearchStrategy {
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
        /// A match known by its end (the line strategies): reported unless it is the
        /// empty match after the last delimiter.
        func reportEnd(_ end: Int) -> Bool {
            end < n || !endsWithDelimiter ? body(Match(pattern: 0, start: end, end: end)) : false
        }
        if checksWholeWords, byte == 0x0A, let lines = lineCandidates {
            // grep's -w over UTF-8 words: candidate lines by the word's literal, each
            // decided by the whole-word search on that line alone.
            // PERF: perf_grep.py '-w word'.
            lines.forEachMatchingLine(in: region, delimiter: byte, matchEnd: { line in
                var end: Int? = nil
                forEachWholeWordMatch(in: line, from: 0) { m in end = m.end; return false }
                return end
            }, reportEnd)
            return
        }
        if matchesEveryRecord {
            // PERF: perf_grep.py 'empty pattern': every record, at its start.
            while from < n {
                if !body(Match(pattern: 0, start: from, end: from)) { return }
                guard let next = RecordDelimiter.find(byte, in: region, from: from) else { return }
                from = next + 1
            }
            return
        }
        if case .regex(let r) = engine, !checksWholeWords {
            var cursor = r.makeMatchCursor()
            if byte == 0x0A, let lines = lineCandidates {
                // PERF: ../shared/bench/perf_grep.py ('^#', 'Holmes$', '-w word', '-x line').
                lines.forEachMatchingLine(in: region, delimiter: byte, regex: r, cursor: &cursor, reportEnd)
                return
            }
            // PERF: perf_grep.py 'any char .': the engine bound once per block.
            r.forEachLineWithMatch(in: region, delimiter: byte, cursor: &cursor, reportEnd)
            return
        }
        // The engine is chosen once, outside the loop over records: a dispatch per
        // record copied the engine's payload each time (PERF: perf_grep.py 'common word').
        @inline(__always) func eachRecord(_ first: (Int) -> Match?) {
            while from < n {
                guard let m = first(from), m.start < n || !endsWithDelimiter else { return }
                if !body(m) { return }
                guard let next = RecordDelimiter.find(byte, in: region, from: m.start) else { return }
                from = next + 1
            }
        }
        if !checksWholeWords {
            switch engine {
            case .kmp(let s):
                // PERF: perf_grep.py 'common word': the pair scan, a memchr to the record's end.
                guard let rest = s.forEachRecordWithOccurrence(in: region, from: 0, delimiter: byte, body) else { return }
                from = rest
                return eachRecord { start in
                    var found: Match? = nil
                    s.forEachMatch(in: region, from: start) { found = $0; return false }
                    return found
                }
            case .regexLiterals(let l, _):
                guard let rest = l.forEachRecordWithOccurrence(in: region, from: 0, delimiter: byte, body) else { return }
                from = rest
                return eachRecord { start in
                    var found: Match? = nil
                    l.forEachMatch(in: region, from: start) { found = $0; return false }
                    return found
                }
            case .ahoCorasick(let ac):
                return eachRecord { start in
                    var found: Match? = nil
                    ac.forEachMatch(in: region, from: start) { found = callerMatch($0); return false }
                    return found
                }
            case .empty, .regex:
                break
            }
        }
        eachRecord { start in
            var found: Match? = nil
            forEachMatch(in: region, from: start) { found = $0; return false }
            return found
        }
    }
}
