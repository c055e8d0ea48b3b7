/// Where a pattern means something else to PCRE2 than to Turnstile, so a differential
/// check against PCRE2 must skip it: one list, used by the fuzz targets and the tests.
///
/// - `\<` and `\>`: word start and end for Turnstile (as in Rust's `regex` and GNU
///   grep), a literal `<` and `>` for PCRE2. By design.
/// - A group quantified to zero repetitions (`{0}`, `{0}?`, `{0,0}`) in a pattern that
///   also holds a start anchor (`\A`, `\G`, `^`): PCRE2 10.42 may take the whole pattern
///   as anchored from an anchor inside the group that never runs, so
///   `(?:x|\A){0}[_\n]` finds nothing in "ab\n" (pcre2test agrees), where the group
///   matches the empty string and the class finds the newline. A PCRE2 defect; the
///   fuzzer found it (regex-diff, 2026-12-03).
public enum PCRE2KnownDifferences {
    /// Why PCRE2 reads `pattern` differently, or nil when the two should agree.
    public static func reason(_ pattern: [UInt8]) -> String? {
        if usesWordEdgeEscapes(pattern) { return "\\< and \\> are word edges here, literals in PCRE2" }
        if repeatsZeroTimes(pattern) && hasStartAnchor(pattern) {
            return "PCRE2 10.42 anchors a pattern from a start anchor inside a group repeated {0} times"
        }
        return nil
    }

    public static func reason(_ pattern: String) -> String? { reason(Array(pattern.utf8)) }

    /// Whether `pattern` holds `\<` or `\>` (escapes read pairwise, so `\\<` is not one).
    public static func usesWordEdgeEscapes(_ pattern: [UInt8]) -> Bool {
        var i = 0
        while i + 1 < pattern.count {
            if pattern[i] == UInt8(ascii: "\\") {
                if pattern[i + 1] == UInt8(ascii: "<") || pattern[i + 1] == UInt8(ascii: ">") { return true }
                i += 2
            } else {
                i += 1
            }
        }
        return false
    }

    /// Whether `pattern` holds a `{0}` or `{0,0}` quantifier (textually: a pattern that
    /// only spells one inside a class is skipped too, which costs a few fuzz inputs).
    static func repeatsZeroTimes(_ pattern: [UInt8]) -> Bool {
        contains(pattern, "{0}") || contains(pattern, "{0,0}")
    }

    /// Whether `pattern` holds `^`, `\A` or `\G` anywhere.
    static func hasStartAnchor(_ pattern: [UInt8]) -> Bool {
        pattern.contains(UInt8(ascii: "^")) || contains(pattern, "\\A") || contains(pattern, "\\G")
    }

    private static func contains(_ pattern: [UInt8], _ piece: String) -> Bool {
        pattern.firstRange(of: Array(piece.utf8)) != nil
    }
}
