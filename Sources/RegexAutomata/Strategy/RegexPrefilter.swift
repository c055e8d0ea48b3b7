// The prefix-prefilter strategy: a regex whose every match starts with one of a few
// literals (LiteralSet.prefixes) lets the forward scan jump between the places those
// literals occur (LiteralAutomata's PrefixPrefilter: memmem, memchr, Teddy) instead of
// stepping the DFA over every byte. Chosen once, at compile time, and only where a
// jump cannot change the result: the prefix set is bounded and never empty, and the
// forward DFA has one unanchored start state for every look-behind context, so "back
// in the start state" means the same thing wherever the scan is.
//
// Search cost: linear. The scan steps each byte at most once; a prefilter call only
// moves forward. A prefilter that fires every few bytes costs a call per few bytes for
// nothing, so the search switches it off by the core's one rule (PrefilterEffectiveness:
// after 40 calls, an average skip under twice the longest prefix). The scans are the
// core's dense-table loops (DenseDFA.searchForward / searchReverse), specialized for
// PrefixPrefilter.

import AutomatonCore
import LiteralAutomata

/// A compile-time choice: the literal prefixes every match starts with, and the kernel
/// that finds them.
///
/// ```swift
/// let regex = try RegexCompiler().compile("https?://[a-z0-9.-]+")
/// regex.prefilterKernel   // "teddy" (on "htt"; memmem only when a prefix byte is rare)
/// ```
public struct RegexPrefilter: Sendable {
    /// The literal set the prefilter was built from.
    public let literals: LiteralSet
    @usableFromInline let prefixes: PrefixPrefilter

    /// A prefilter for a DFA's regex whose prefix set is `literals`, or nil when no
    /// kernel fits or `dfa` has different unanchored start states per context.
    init?(_ literals: LiteralSet, dfa: DenseDFA) {
        guard Self.hasOneUnanchoredStart(dfa),
              let p = PrefixPrefilter(prefixes: literals.literals, asciiCaseInsensitive: literals.isASCIICaseInsensitive)
        else { return nil }
        self.literals = literals
        self.prefixes = p
    }

    /// One unanchored start state for every start context, and not a special state.
    static func hasOneUnanchoredStart(_ dfa: DenseDFA) -> Bool {
        let s = dfa.startState(.textStart, anchored: false)
        if dfa.isSpecialState(s) { return false }
        return StartContext.allCases.allSatisfy { dfa.startState($0, anchored: false) == s }
    }
}
