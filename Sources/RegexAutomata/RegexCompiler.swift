// RegexCompiler: the pipeline pattern → Hir (Syntax/) → Thompson NFA (forward and
// reversed) → full DFA (subset construction, then the core's Hopcroft
// minimization), or the lazy DFA when the full DFA would exceed the limits.

import AutomatonCore

/// Compiles regexes into a ``RegexAutomaton``: a configuration value with chainable
/// setters.
///
/// ```swift
/// let regex = try RegexCompiler().caseInsensitive(true).compile("hello|world")
/// regex.matches(in: "Hello, World")   // [0:[0,5), 0:[7,12)]
/// let rules = try RegexCompiler().compile(patterns: ["spam", "sp[a-z]+"])
/// rules.firstMatch(in: "spork")?.pattern  // 1
/// ```
///
/// - Complexity: build is O(pattern size) to parse and build the NFA, then up to
///   O(DFA states × byte classes × NFA size) for the full DFA, bounded by
///   ``limits(_:)``; past the bound the lazy DFA costs nothing up front. Search is
///   O(n) per forward or reverse scan in either engine.
public struct RegexCompiler: Sendable {
    /// The parser options (flags and UTF-8/bytes mode).
    public var syntax = RegexSyntax.Options()
    /// Limits for the full DFA (past them: the lazy DFA), the NFA (past
    /// ``Limits/maxStates``: an error) and the lazy DFA's cache.
    public var limits = RegexCompiler.defaultLimits
    /// Minimize the full DFA (Hopcroft) before searching.
    public var minimize = true
    /// Always use the lazy DFA (for tests and comparisons).
    public var forceLazy = false
    /// Let the forward scan jump between occurrences of the regex's literal prefixes
    /// (``RegexPrefilter``); off forces the plain DFA scan. Results never change.
    public var prefilter = true
    /// Let match searches of a single pattern start from a rare inner or suffix literal
    /// (``ReverseInner``) when the pattern allows it exactly. Results never change.
    public var reverseInner = true

    /// The default limits: the full DFA is built up to 10 000 states or 4 MiB of
    /// table; the lazy DFA's cache holds 2 MiB per scan direction.
    public static let defaultLimits = Limits(maxStates: 10_000, maxTableBytes: 4 << 20, maxCacheBytes: 2 << 20)

    public init() {}

    /// `i`: Unicode simple case folding (ASCII in bytes mode).
    public func caseInsensitive(_ on: Bool) -> Self { var c = self; c.syntax.caseInsensitive = on; return c }
    /// `m`: `^`/`$` at line boundaries.
    public func multiLine(_ on: Bool) -> Self { var c = self; c.syntax.multiLine = on; return c }
    /// `s`: `.` matches `\n`.
    public func dotMatchesNewline(_ on: Bool) -> Self { var c = self; c.syntax.dotMatchesNewline = on; return c }
    /// PCRE2_UCP: `\\d \\s \\w` and the POSIX classes are Unicode properties.
    public func ucp(_ on: Bool) -> Self { var c = self; c.syntax.ucp = on; return c }
    /// Bytes mode (every construct consumes one byte) instead of UTF-8.
    public func bytes(_ on: Bool) -> Self { var c = self; c.syntax.mode = on ? .bytes : .utf8; return c }
    /// All parser options at once.
    public func syntax(_ options: RegexSyntax.Options) -> Self { var c = self; c.syntax = options; return c }
    /// Size limits.
    public func limits(_ limits: Limits) -> Self { var c = self; c.limits = limits; return c }
    /// Whether to minimize the full DFA.
    public func minimize(_ on: Bool) -> Self { var c = self; c.minimize = on; return c }
    /// Whether to skip the full DFA and use the lazy DFA.
    public func forceLazy(_ on: Bool) -> Self { var c = self; c.forceLazy = on; return c }
    /// Whether to use a prefix prefilter when the regex has one (dense engine).
    public func prefilter(_ on: Bool) -> Self { var c = self; c.prefilter = on; return c }
    /// Whether to search from a rare inner or suffix literal when the regex has one.
    public func reverseInner(_ on: Bool) -> Self { var c = self; c.reverseInner = on; return c }

    /// Compiles one pattern.
    ///
    /// - Throws: ``RegexError`` for a syntax error or an NFA over the limits.
    public func compile(_ pattern: String) throws(RegexError) -> RegexAutomaton {
        try compile(patterns: [pattern])
    }

    /// Compiles several patterns into one automaton; a match reports the index of the
    /// pattern, and at the same start an earlier pattern has priority.
    public func compile(patterns: [String]) throws(RegexError) -> RegexAutomaton {
        var hirs: [Hir] = []
        for (index, pattern) in patterns.enumerated() {
            do {
                hirs.append(try RegexSyntax.parse(pattern, options: syntax))
            } catch {
                throw RegexError(.syntax(error, patternIndex: index))
            }
        }
        return try compile(hirs: hirs)
    }

    /// Compiles parsed patterns (the stage boundary tests use to feed hand-built Hir).
    public func compile(hirs: [Hir]) throws(RegexError) -> RegexAutomaton {
        let forwardNFA: ThompsonNFA, reverseNFA: ThompsonNFA
        do {
            forwardNFA = try ThompsonNFA(hirs, limits: limits)
            reverseNFA = try ThompsonNFA(hirs, reverse: true, limits: limits)
        } catch {
            throw RegexError(.limit(error))
        }
        let canMatchEmpty = hirs.contains { $0.minimumLength == 0 }
        let engine: RegexAutomaton.Engine
        if !forceLazy, let dense = try? buildDense(forwardNFA, reverseNFA) {
            engine = dense
        } else {
            engine = .lazy(
                forward: LazyDFA(nfa: forwardNFA, startKind: .standard, limits: limits),
                reverse: LazyDFA(nfa: reverseNFA, startKind: .anchoredOnly, limits: limits))
        }
        // The retry after an empty match ("a non-empty match anchored here") is rare,
        // so it always runs lazily, with its own cache per search call.
        let nonEmpty = LazyDFA(nfa: forwardNFA, startKind: .anchoredNonEmpty, limits: limits)
        var prefilter: RegexPrefilter? = nil
        if self.prefilter, case .dense(let forward, _) = engine,
           let literals = LiteralSet.prefixes(of: hirs.count == 1 ? hirs[0] : .alternation(hirs)) {
            prefilter = RegexPrefilter(literals, dfa: forward)
        }
        // A rare inner or suffix literal (one pattern): the match searches start there.
        var inner: ReverseInner? = nil
        if reverseInner, hirs.count == 1 {
            inner = ReverseInner(hirs[0], prefixKernel: prefilter?.prefixes.kernel, limits: limits,
                                 workBudget: Self.determinizationBudget(limits))
        }
        return RegexAutomaton(
            engine: engine, nonEmpty: nonEmpty, forwardNFA: forwardNFA, reverseNFA: reverseNFA,
            isUTF8: syntax.mode == .utf8, canMatchEmpty: canMatchEmpty, prefilter: prefilter,
            reverseInner: inner)
    }

    /// The determinization work (``Determinizer/work`` units, about 100 instructions
    /// each) the full DFA may cost per state of `limits.maxStates`: past it the
    /// construction gives up and the lazy DFA runs from the first byte.
    ///
    /// PERF (callgrind, whole process, 8 MiB of subtitles, `match -c`): `[a-q][^u-z]{13}x`
    /// spent 191 M instructions building 10,000 states before giving up (884 K closure
    /// units + 16 per transition ≈ 4.5 M units); a budget of 40 units a state (400 K at
    /// the default 10,000 states) gives up after about a tenth of that. Patterns of the
    /// benchmark tables stay far below it (`[A-Z][a-z]+ing` 1.4 K units, `(?i)sherlock
    /// holmes` 13 K); `[a-q][^u-z]{8}x` (2,367 states, 140 M instructions to build and
    /// minimize) and `\p{L}{5}` (1.4 G instructions: large Unicode classes) now start lazy.
    public static let workPerState = 40

    /// ``workPerState`` × `limits.maxStates`, saturating (unlimited stays unlimited).
    static func determinizationBudget(_ limits: Limits) -> Int {
        let (budget, overflow) = limits.maxStates.multipliedReportingOverflow(by: workPerState)
        return overflow ? .max : budget
    }

    private func buildDense(_ forwardNFA: ThompsonNFA, _ reverseNFA: ThompsonNFA) throws(AutomatonError) -> RegexAutomaton.Engine {
        let budget = Self.determinizationBudget(limits)
        var forward = try forwardNFA.determinized(startKind: .standard, limits: limits, workBudget: budget)
        var reverse = try reverseNFA.determinized(startKind: .anchoredOnly, limits: limits, workBudget: budget)
        if minimize {
            forward = forward.minimized()
            reverse = reverse.minimized()
        }
        return .dense(forward: forward, reverse: reverse)
    }
}
