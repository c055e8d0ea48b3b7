// The one answer every prefilter gives (aho-corasick's util/prefilter.rs `Candidate`):
// nothing can match in the rest of the haystack, or a match may start here and the
// automaton must look. Prefilters in this folder only ever report possible starts;
// an exact verifier (memmem) reports a match, which a caller can take as it is.

/// What a prefilter found at or after the position it was asked about.
public enum PrefilterCandidate: Sendable, Hashable {
    /// No match can start in the rest of the haystack.
    case none
    /// A match may start at this offset; the automaton verifies from here.
    case possibleStart(Int)
    /// A whole match (start..<end) was verified by the prefilter itself.
    case match(start: Int, end: Int)
}
