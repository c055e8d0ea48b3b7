// What bounds a strategy's speed, for the one decision about threads
// (Pipeline/RunThreads.swift): a search that moves through memory as fast as the memory
// bus brings it gains nothing from a second thread on the same input — the two contend
// for one bus, and the chunk hand-off costs system time — while a search that spends
// cycles on every byte gains nearly twice on two cores.

import RegexAutomata

/// Whether a search is limited by memory bandwidth or by computation per byte.
public enum SearchCost: String, Sendable, Hashable, CustomStringConvertible {
    /// SIMD skips (memchr, memmem, Teddy, a prefilter in front of the DFA), or a dense
    /// DFA over ASCII whose step is one load: gigabytes a second on one core.
    case memoryBound = "memory-bound"
    /// Work on every byte: the lazy DFA, Unicode classes and folded words, big lists
    /// walked byte by byte, grep's Unicode `-w` rule.
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
        switch name {
        case .empty, .everyRecord, .singleLiteral, .requiredLiteralLines, .prefixPrefilterDFA, .reverseInner, .reverseSuffix:
            return .memoryBound
        case .literalSet, .literalAlternation:
            return searchedLiterals.count <= Self.prefilteredSetLimit ? .memoryBound : .computeBound
        case .foldedLiteralSet, .lazyDFA:
            return .computeBound
        case .denseDFA:
            // A class beyond ASCII is a UTF-8 automaton of many states and poor locality.
            guard let bytes = regexShape?.bytes else { return .computeBound }
            return bytes[128...].contains(true) ? .computeBound : .memoryBound
        }
    }
}
