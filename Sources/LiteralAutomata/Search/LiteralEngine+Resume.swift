// Resuming a literal search where it stopped, for the lazy `matches(in:)`: the
// leftmost kinds continue from the last match's end (with PCRE2's rule after an empty
// match), the overlapping kind rescans the longest pattern's length before the last
// match end and skips what was already reported there.

import AutomatonCore

/// Where a literal search stopped (see ``MatchSearcher/MatchCursor``): an opaque value.
public struct LiteralMatchCursor: Sendable, Hashable {
    /// Leftmost kinds: the next search starts here.
    var position = 0
    /// Leftmost kinds: the last match was empty (at `position`), so only a non-empty
    /// match may start there.
    var lastEmpty = false
    /// Overlapping: the end of the last reported match (-1 before the first) and how
    /// many matches ending there were reported.
    var lastEnd = -1
    var reportedAtLastEnd = 0

    package init() {}
}

extension LiteralEngine {
    /// Calls `body` with each match after `cursor`, moving the cursor past each one
    /// first; `body` returns false to stop.
    ///
    /// - Complexity: O(n − cursor + matches) for the leftmost kinds; the overlapping
    ///   kind adds O(longest pattern) per call (the rescan before the last end).
    func forEachMatch(_ h: UnsafeBufferPointer<UInt8>, after cursor: inout LiteralMatchCursor,
                      _ body: (Match) -> Bool) {
        if matchKind == .overlapping {
            // Every occurrence ending after lastEnd starts at or after lastEnd - maxLength
            // + 1, and those ending at lastEnd start at or after lastEnd - maxLength; from
            // there on the automaton reaches lastEnd in the same state, so the matches
            // ending there come in the same order as before and the first ones are skipped.
            let from = cursor.lastEnd < 0 ? 0 : max(0, cursor.lastEnd - maxLength)
            var skip = cursor.reportedAtLastEnd
            let lastEnd = cursor.lastEnd
            forEachMatch(h, from: from) { m in
                if m.end < lastEnd { return true }
                if m.end == lastEnd && skip > 0 { skip -= 1; return true }
                if m.end == cursor.lastEnd {
                    cursor.reportedAtLastEnd += 1
                } else {
                    cursor.lastEnd = m.end
                    cursor.reportedAtLastEnd = 1
                }
                return body(m)
            }
            return
        }
        guard cursor.position <= h.count else { return }
        forEachMatch(h, from: cursor.position, lastEmpty: cursor.lastEmpty) { m in
            cursor.position = m.end
            cursor.lastEmpty = m.isEmpty
            return body(m)
        }
    }
}
