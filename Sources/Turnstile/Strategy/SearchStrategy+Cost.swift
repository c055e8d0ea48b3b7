// What bounds a strategy's speed, for the one decision about threads
// (Pipeline/RunThreads.swift): a search that moves through memory as fast as the memory
// bus brings it gains nothing from a second thread on the same input — the two contend
// for one bus, and the chunk hand-off costs system time — while a search that spends
// cycles on every byte gains nearly twice on two cores.

import RegexAutomata

/// Whether a search is limited by memory bandwidth or by computation per byte.
public enum SearchCost: String, Sendable, Hashable, CustomStringConvertible {
    /// SIMD skips (memchr, memmem, Teddy, a prefilter in front of the DFA, line
    /// candidates): gigabytes a second on one core.
    case memoryBound = "memory-bound"
    /// Work on every byte: a dense DFA with no skip, the lazy DFA, Unicode folded
    /// words, big lists walked byte by byte, grep's Unicode `-w` rule.
    case computeBound = "compute-bound"

    public var description: String { rawValue }
}

extension SearchStrategy {
    /// The most literals a set may hold and still be searched mostly by its prefilter:
    /// past this Aho-Corasick walks the bytes itself (rg's Teddy stops at 64 too).
    static let prefilteredSetLimit = 64

    /// What bounds this strategy's speed (see ``SearchCost``).
    public var cost: SearchCost {
        if checksWholeWords, options.unicodeWords, !options.bytesMode { return .computeBound }
        // The lazy DFA behind any skip: its cache work per byte of a candidate.
        if case .regex(let automaton) = engine, automaton.engineKind == .lazy { return .computeBound }
        switch name {
        case .empty, .everyRecord, .singleLiteral, .requiredLiteralLines, .prefixPrefilterDFA, .reverseInner, .reverseSuffix:
            return .memoryBound
        case .literalSet, .literalAlternation:
            return searchedLiterals.count <= Self.prefilteredSetLimit ? .memoryBound : .computeBound
        case .foldedLiteralSet, .lazyDFA:
            return .computeBound
        case .denseDFA:
            // No skip: the table is stepped on every byte, about 1 GB/s on one core, far
            // below what memory delivers — a second thread pays (the peer table on
            // 2026-12-02: `.` 1,120 MB/s and `-v '^$'` 485 MB/s on one thread, where
            // two threads had reached 1.04 of the fastest peer).
            return .computeBound
        }
    }
}