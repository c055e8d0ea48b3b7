import AutomatonCore

/// One record's matches in the order the search found them, kept compactly: each is
/// three variable-length numbers (the distance from the previous match's start,
/// zigzag-coded since overlapping matches may start earlier; the length; the pattern),
/// about 3 to 4 bytes a match where a `Match` takes 24.
///
/// `filter --json` prints a record's verdict before its matches, and both come from
/// one search: the matches wait here while the verdict is made. The log holds at most
/// ``budget`` bytes: past that it stops (``isComplete`` turns false) and the record's
/// matches must be found again — only for a record far denser with matches than
/// text is (Fuzz/hostile-cli.sh 'dense-json': a 16 MiB line of about 7 million
/// matches would log about 30 MB, over the run's 64 MiB bound).
struct MatchLog {
    /// The most bytes logged for one record: about 250,000 matches.
    static let budget = 1 << 20
    private var bytes: [UInt8] = []
    /// `false` once a match did not fit in the budget: the log is then not the
    /// record's matches.
    private(set) var isComplete = true
    private var lastStart = 0
    /// How many matches are logged.
    private(set) var count = 0

    mutating func append(_ m: Match) {
        guard isComplete else { return }
        // Three numbers of at most 10 bytes each.
        if bytes.count > Self.budget - 30 {
            isComplete = false
            return
        }
        let delta = m.start - lastStart
        appendNumber(UInt(bitPattern: (delta << 1) ^ (delta >> (Int.bitWidth - 1))))
        appendNumber(UInt(m.end - m.start))
        appendNumber(UInt(m.pattern))
        lastStart = m.start
        count += 1
    }

    /// Forgets the matches (the storage is kept for the next record).
    mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
        lastStart = 0
        count = 0
        isComplete = true
    }

    /// Calls `body` with each match in the order logged until it returns `false`.
    func forEach(_ body: (Match) -> Bool) {
        var at = 0, start = 0
        func number() -> UInt {
            var value: UInt = 0, shift: UInt = 0
            while true {
                let byte = bytes[at]
                at += 1
                value |= UInt(byte & 0x7F) << shift
                if byte < 0x80 { return value }
                shift += 7
            }
        }
        while at < bytes.count {
            let zigzag = number()
            start += Int(bitPattern: zigzag >> 1) ^ -Int(bitPattern: zigzag & 1)
            let length = Int(number())
            let pattern = Int(number())
            if !body(Match(pattern: pattern, start: start, end: start + length)) { return }
        }
    }

    private mutating func appendNumber(_ value: UInt) {
        var value = value
        while value >= 0x80 {
            bytes.append(UInt8(truncatingIfNeeded: value) | 0x80)
            value >>= 7
        }
        bytes.append(UInt8(value))
    }
}
