// The one place that chooses how to search. Given the patterns and the options, it
// reads the patterns once (plain words, Unicode folding, required literals, empty
// matches) and picks a named strategy: the first of these that fits and is not
// disabled (``Matcher/Options/disabledStrategies``, which tests use to run every
// strategy on and off against PCRE2):
//
//   no patterns                         → empty
//   literal words (or plain regex words) → single-literal (KMP) / literal-set (Aho-Corasick)
//   words under -i beyond ASCII          → folded-literal-set (their case variants)
//   a regex that is exactly literals     → literal-alternation
//   any regex                            → reverse-inner / reverse-suffix (a rare literal
//                                          inside), dense-dfa / prefix-prefilter-dfa / lazy-dfa,
//                                          with every-record or required-literal-lines
//                                          for line selection
//
// grep's -w and -x are wrappers: the literal engines filter words themselves where
// `\b` is grep's rule, the regex automaton compiles the rule in (half word boundaries,
// line anchors), and SearchStrategy+WholeWords.swift adds what one byte of look-around
// cannot see. The one give-up rule lives in the regex compiler: a full DFA past its
// limits gives way to the lazy DFA.

import AutomatonCore
import LiteralAutomata
import RegexAutomata

extension SearchStrategy {
    /// Chooses and builds the strategy for `patterns` (raw bytes) with `options`.
    ///
    /// - Throws: ``TurnstileError`` for a regex syntax error (with the pattern and
    ///   offset), a size limit, or options that do not go together.
    init(choosingFor patterns: [[UInt8]], options: Matcher.Options) throws(TurnstileError) {
        let disabled = options.disabledStrategies
        if patterns.isEmpty {
            self.init(engine: .empty, options: options, patterns: patterns)
            return
        }
        switch options.syntax {
        case .regex:
            if options.matchKind != .leftmostFirst {
                throw TurnstileError(.invalidOptions(
                    "--match-kind \(options.matchKind) needs literal patterns (-F); regexes are leftmost-first"))
            }
            // Plain words are literals whatever the syntax (`match -f words.txt`): the
            // same matches, without a DFA of 10,000 words. Under `i` a regex folds
            // Unicode (`k` finds U+212A KELVIN SIGN), which their case variants keep.
            // (Not with prefilters off: that option forces the regex DFA, as for a
            // literal alternation.)
            if options.prefilter, Self.arePlainWords(patterns) {
                var literal = options
                literal.syntax = .literal
                let folds = options.caseInsensitive && !options.bytesMode
                    && patterns.contains { UnicodeCaseVariants.needsUnicodeFolding($0, asciiOnlyWhenASCII: false) }
                if !folds, !disabled.contains(.singleLiteral), !disabled.contains(.literalSet) {
                    try self.init(literals: patterns, options: literal)
                    return
                }
                if folds, !options.wholeWord, !options.wholeLine, !disabled.contains(.foldedLiteralSet),
                   let variants = UnicodeCaseVariants(patterns) {
                    try self.init(folded: variants, patterns: patterns, options: literal)
                    return
                }
            }
            try self.init(regexes: patterns, options: options)
        case .literal:
            if options.wholeLine, options.matchKind == .overlapping {
                throw TurnstileError(.invalidOptions("whole-line matching (-x) needs leftmost matches, not --match-kind overlapping"))
            }
            // Words under -i with letters beyond ASCII: the literal engines fold ASCII
            // only, so their case variants (or, for -w and -x, escaped regexes that fold
            // Unicode: `-Fi ÉLAN` finds `élan`, as grep's does).
            if options.caseInsensitive, !options.bytesMode,
               patterns.contains(where: { UnicodeCaseVariants.needsUnicodeFolding($0, asciiOnlyWhenASCII: true) }),
               patterns.allSatisfy({ String(validating: $0, as: UTF8.self) != nil }) {
                if !options.wholeWord, !options.wholeLine, !disabled.contains(.foldedLiteralSet),
                   let variants = UnicodeCaseVariants(patterns) {
                    try self.init(folded: variants, patterns: patterns, options: options)
                    return
                }
                var regex = options
                regex.syntax = .regex
                regex.ucp = false
                if regex.matchKind != .leftmostFirst { regex.matchKind = .leftmostFirst }
                try self.init(regexes: patterns.map(Self.escaped), options: regex, callerPatterns: patterns)
                return
            }
            if disabled.contains(.singleLiteral) || disabled.contains(.literalSet),
               options.matchKind != .overlapping {
                try self.init(literalsAsRegex: patterns, options: options)
                return
            }
            try self.init(literals: patterns, options: options)
        }
    }

    // MARK: Literal strategies

    /// Literal words: KMP for one, Aho-Corasick for several; whole lines, and `-w` words
    /// that do not start and end with a word byte, go to the regex automaton.
    private init(literals patterns: [[UInt8]], options: Matcher.Options) throws(TurnstileError) {
        if options.matchKind != .overlapping,
           options.wholeLine || (options.wholeWord && !patterns.allSatisfy(Self.isWordBounded)) {
            // Whole lines, or words that start or end with a non-word byte (`=`,
            // `-foo`, `@x@`, the empty word, where grep's rule is not `\b…\b`): the
            // regex automaton searches the literals between the anchors.
            try self.init(literalsAsRegex: patterns, options: options)
            return
        }
        // The engines' whole-word filter is `\b`, grep's rule only for word-bounded
        // words; overlapping matches of other words are filtered afterwards.
        let engineWholeWord = Self.engineWholeWord(patterns, options: options)
        do {
            if patterns.count == 1 {
                let s = try SingleLiteralSearcher(
                    patterns[0], asciiCaseInsensitive: options.caseInsensitive, wholeWord: engineWholeWord,
                    leftmost: options.matchKind.isLeftmost, prefilter: options.prefilter,
                    limits: options.effectiveLimits)
                self.init(engine: .kmp(s), options: options, patterns: patterns,
                          literalWordsFiltered: options.wholeWord && !engineWholeWord)
            } else {
                let ac = try AhoCorasick.Builder()
                    .matchKind(options.matchKind)
                    .prefilter(options.prefilter)
                    .asciiCaseInsensitive(options.caseInsensitive)
                    .wholeWord(engineWholeWord)
                    .limits(options.effectiveLimits)
                    .build(patterns)
                self.init(engine: .ahoCorasick(ac), options: options, patterns: patterns,
                          literalWordsFiltered: options.wholeWord && !engineWholeWord)
            }
        } catch {
            throw TurnstileError(.automaton(error))
        }
    }

    /// A word matcher around an Aho-Corasick automaton loaded from a saved rule set,
    /// which was checked to be built from `patterns` with `options`.
    init(patterns: [[UInt8]], options: Matcher.Options, loaded automaton: AhoCorasick) {
        self.init(engine: .ahoCorasick(automaton), options: options, patterns: patterns,
                  literalWordsFiltered: options.wholeWord && !automaton.isWholeWord)
    }

    /// Words under `-i` beyond ASCII: every case variant in one Aho-Corasick automaton
    /// (ASCII letters folded by it), each reporting its word's id.
    private init(folded: UnicodeCaseVariants, patterns: [[UInt8]], options: Matcher.Options) throws(TurnstileError) {
        do {
            let ac = try AhoCorasick.Builder()
                .matchKind(options.matchKind)
                .prefilter(options.prefilter)
                .asciiCaseInsensitive(true)
                .limits(options.effectiveLimits)
                .build(folded.variants)
            self.init(engine: .ahoCorasick(ac), options: options, patterns: patterns,
                      searchedLiterals: folded.variants, patternOf: folded.wordOf)
        } catch {
            throw TurnstileError(.automaton(error))
        }
    }

    /// `-F -x` lines, or `-F -w` words that are not all word-bounded, as one regex
    /// automaton: each literal between the anchors, longest first under
    /// leftmost-longest (grep -F -o; with -x every match is the whole line).
    private init(literalsAsRegex patterns: [[UInt8]], options: Matcher.Options) throws(TurnstileError) {
        var order = Array(patterns.indices)
        if options.matchKind == .leftmostLongest && !options.wholeLine {
            order.sort { patterns[$0].count > patterns[$1].count || (patterns[$0].count == patterns[$1].count && $0 < $1) }
        }
        let compiler = Self.compiler(options, forLiterals: true)
        let hirs = order.map { i in
            let literal = Self.literalHir(patterns[i], options: options)
            return Self.anchored(options.lineRecords ? literal.withoutNewline() : literal, options: options)
        }
        let regex: RegexAutomaton
        do { regex = try compiler.compile(hirs: hirs) } catch { throw TurnstileError(.regex(error)) }
        let lines = Self.lineCandidates(hirs, options: options)
        self.init(engine: .regex(regex), options: options,
                  patterns: patterns, regexShape: RegexShape(hirs, canMatchEmpty: regex.canMatchEmpty),
                  lineCandidates: lines, patternOf: order == Array(patterns.indices) ? nil : order)
    }

    // MARK: Regex strategies

    /// Regexes: a literal alternation when that is all they are, else the regex
    /// automaton, with the line strategies.
    private init(regexes patterns: [[UInt8]], options: Matcher.Options,
                 callerPatterns: [[UInt8]]? = nil) throws(TurnstileError) {
        let compiler = Self.compiler(options, forLiterals: false)
        var hirs: [Hir] = []
        var parsed: [Hir] = []
        for (index, pattern) in patterns.enumerated() {
            do {
                let hir = try RegexSyntax.parse(pattern, options: compiler.syntax)
                let line = options.lineRecords ? hir.withoutNewline() : hir
                parsed.append(line)
                hirs.append(Self.anchored(line, options: options))
            } catch {
                throw TurnstileError(.regexSyntax(error, patternIndex: index))
            }
        }
        let regex: RegexAutomaton
        do { regex = try compiler.compile(hirs: hirs) } catch { throw TurnstileError(.regex(error)) }
        let shape = RegexShape(hirs, canMatchEmpty: regex.canMatchEmpty)
        let given = callerPatterns ?? patterns
        do {
            if !options.wholeLine, !options.disabledStrategies.contains(.literalAlternation),
               let literals = try RegexLiterals(hirs: parsed, prefilter: options.prefilter, wholeWord: options.wholeWord) {
                self.init(engine: .regexLiterals(literals, regex), options: options,
                          patterns: given, regexShape: shape)
                return
            }
        } catch {
            throw TurnstileError(.automaton(error))
        }
        let everyRecord = !options.disabledStrategies.contains(.everyRecord)
            && hirs.contains { $0.minimumLength == 0 && $0.bytesAndLooks.looks.isEmpty }
        self.init(engine: .regex(regex), options: options, patterns: given, regexShape: shape,
                  lineCandidates: Self.lineCandidates(hirs, options: options), matchesEveryRecord: everyRecord)
    }

    /// The regex compiler for `options`. Literals (`forLiterals`) are Hir the chooser
    /// built, their letters already folded: no `i`, no UCP. Disabling the dense DFA
    /// forces the lazy one; disabling the prefix prefilter leaves the plain dense scan.
    private static func compiler(_ options: Matcher.Options, forLiterals: Bool) -> RegexCompiler {
        RegexCompiler()
            .limits(options.effectiveLimits)
            .caseInsensitive(!forLiterals && options.caseInsensitive)
            .multiLine(options.lineRecords)
            .bytes(options.bytesMode)
            .ucp(!forLiterals && options.ucp)
            .prefilter(options.prefilter && !options.disabledStrategies.contains(.prefixPrefilterDFA))
            .reverseInner(options.prefilter && !options.disabledStrategies.contains(.reverseInner)
                && !options.disabledStrategies.contains(.reverseSuffix))
            .forceLazy(options.disabledStrategies.contains(.denseDFA))
    }

    /// The line-candidate strategy for the regex patterns `hirs`, when records are lines
    /// and prefilters are on.
    private static func lineCandidates(_ hirs: [Hir], options: Matcher.Options) -> LineCandidates? {
        guard options.lineRecords, options.prefilter, !options.disabledStrategies.contains(.requiredLiteralLines)
        else { return nil }
        return LineCandidates(hirs: hirs)
    }

    // MARK: Reading the patterns

    /// Whether every pattern is a word that means itself in the parser's syntax (no
    /// byte special anywhere in it, no newline) and valid UTF-8. An empty word counts
    /// only in a list (`-f` files with blank lines): alone, `''` stays the regex whose
    /// empty matches follow PCRE2's global loop.
    static func arePlainWords(_ patterns: [[UInt8]]) -> Bool {
        let special: Set<UInt8> = Set("\\.[]*^$+?{}()|\n".utf8)
        return patterns.allSatisfy { p in
            (!p.isEmpty || patterns.count > 1) && !p.contains(where: special.contains)
                && String(validating: p, as: UTF8.self) != nil
        }
    }

    /// A literal word as a regex of the parser's syntax: letters, digits and bytes
    /// beyond ASCII as they are, every other byte escaped.
    static func escaped(_ pattern: [UInt8]) -> [UInt8] {
        pattern.flatMap { c -> [UInt8] in
            let plain = c >= 0x80 || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(c)
                || (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(c | 0x20)
            return plain ? [c] : [UInt8(ascii: "\\"), c]
        }
    }

    /// `hir` as `-x` or `-w` asks: between line (or haystack) edges, or between
    /// grep's half word boundaries.
    private static func anchored(_ hir: Hir, options: Matcher.Options) -> Hir {
        if options.wholeLine {
            return .concat([.look(options.lineRecords ? .lineStart : .textStart), hir,
                            .look(options.lineRecords ? .lineEnd : .textEnd)])
        }
        return options.wholeWord ? wordRuleHir(hir) : hir
    }

    /// `hir` between grep's half word boundaries: no word byte before the match, none
    /// after it. Unlike `\b…\b` this also holds for a match that starts or ends with a
    /// non-word byte (`-w '='` matches `x = 1`), and a match that fails it gives way to
    /// a shorter one at the same start, then to later starts, as in grep.
    private static func wordRuleHir(_ hir: Hir) -> Hir {
        .concat([.look(.wordStartHalf), hir, .look(.wordEndHalf)])
    }

    /// Whether a `-w` literal starts and ends with an ASCII word byte, where `\b` and
    /// grep's rule agree (the literal engines' whole-word filter is `\b`).
    private static func isWordBounded(_ pattern: [UInt8]) -> Bool {
        guard let first = pattern.first, let last = pattern.last else { return false }
        return isASCIIWordByte(first) && isASCIIWordByte(last)
    }

    /// Whether the literal engines filter whole words themselves (`\b`, which is
    /// grep's rule when every word is word-bounded); otherwise ``forEachWholeWordMatch``
    /// filters their overlapping matches.
    static func engineWholeWord(_ patterns: [[UInt8]], options: Matcher.Options) -> Bool {
        options.wholeWord && !options.wholeLine && patterns.allSatisfy(isWordBounded)
    }

    /// A literal as a Hir (ASCII letters in both cases when case-insensitive).
    private static func literalHir(_ pattern: [UInt8], options: Matcher.Options) -> Hir {
        guard options.caseInsensitive else { return .literal(pattern) }
        return .concat(pattern.map { b in
            isASCIILetter(b) ? .byteClass([(b & ~0x20)...(b & ~0x20), (b | 0x20)...(b | 0x20)]) : .literal([b])
        })
    }
}
