// Turnstile: the public face of the toolkit. A map of the module:
//
//   Matcher.swift      picks the engine (KMP for one literal, Aho-Corasick for many, the
//                      regex DFA for patterns) and holds no search algorithm itself
//   SpamFilter.swift   rules compiled into a matcher, plus the threshold
//   Verdict/           RecordJudge — the one place a record gets its verdict — and
//                      Verdict / RuleHit, what it reports
//   Records/           RecordReader (streaming, bounded records over one buffer),
//                      RecordSink, and RecordDelimiter (the kinds of record)
//   Rules/             Rule, RuleFile (the text form, read and written), RuleSet
//   Mail/              the mail reader (headers, MIME, transfer encodings, charsets, HTML)
//                      into MailMessage; MailScope (rule prefixes) and MailJudge
//   Evaluation/        eval's confusion matrix and per-rule counts
//   Training/          train: tokenizer, weights, threshold choice, cross-validation
//   Generated/         the built-in list, written by Scripts/generate-default-list.sh
//   Platform.swift     the module's only libc calls
//
// Every type a user of the library needs is named here by typealias (as `MatchKind` is
// in Matcher.swift), so `import Turnstile` alone is enough: the core's match and limit
// types, the search vocabulary (`MatchSearcher`, its lazy `LazyMatchSequence`), and the
// engines a program builds directly (`AhoCorasick`, `KMP`, `RegexAutomaton`, and their
// builders' option types). Nothing is re-exported wholesale (`@_exported`): the lists
// below are the deliberate surface. Import `AutomatonCore`, `LiteralAutomata` or
// `RegexAutomata` themselves for the rest (builders of hand-made DFAs, NFAs, prefilters).
import AutomatonCore
import LiteralAutomata
import RegexAutomata

/// A match: the pattern id and the byte range (``AutomatonCore/Match``).
public typealias Match = AutomatonCore.Match
/// The size limits of a build (``AutomatonCore/Limits``).
public typealias Limits = AutomatonCore.Limits
/// A build or load failure of the core (``AutomatonCore/AutomatonError``).
public typealias AutomatonError = AutomatonCore.AutomatonError
/// The dense DFA a matcher may run (``AutomatonCore/DenseDFA``).
public typealias DenseDFA = AutomatonCore.DenseDFA
/// A match's pattern id (``AutomatonCore/PatternID``).
public typealias PatternID = AutomatonCore.PatternID

// MARK: The search vocabulary

/// The search vocabulary every searcher shares (``AutomatonCore/MatchSearcher``):
/// `isMatch`, `firstMatch`, a lazy `matches(in:)`, `forEachMatch`, `count(in:)`.
public typealias MatchSearcher = AutomatonCore.MatchSearcher
/// The lazy sequence `matches(in:)` returns (``AutomatonCore/LazyMatchSequence``).
public typealias LazyMatchSequence<Searcher: MatchSearcher, Haystack: Collection<UInt8>> =
    AutomatonCore.LazyMatchSequence<Searcher, Haystack>

// MARK: Word lists (LiteralAutomata)

/// Many literal patterns in one pass (``LiteralAutomata/AhoCorasick``):
/// `try AhoCorasick(["free", "prize"])`, or `AhoCorasick.Builder()` for every option.
public typealias AhoCorasick = LiteralAutomata.AhoCorasick
/// One literal pattern (``LiteralAutomata/KMP``): `try KMP("needle")`.
public typealias KMP = LiteralAutomata.KMP
/// Which representation an Aho-Corasick automaton uses (``LiteralAutomata/LiteralRepresentation``).
public typealias LiteralRepresentation = LiteralAutomata.LiteralRepresentation
/// Size and shape of a literal automaton (``LiteralAutomata/LiteralStatistics``).
public typealias LiteralStatistics = LiteralAutomata.LiteralStatistics
/// Chunk-by-chunk search with a literal automaton (``LiteralAutomata/LiteralStreamSearcher``).
public typealias LiteralStreamSearcher = LiteralAutomata.LiteralStreamSearcher
/// The instruction family of the literal prefilters (``LiteralAutomata/SIMDLevel``).
public typealias SIMDLevel = LiteralAutomata.SIMDLevel

// MARK: Regular expressions (RegexAutomata)

/// A compiled regex or regex set (``RegexAutomata/RegexAutomaton``):
/// `try RegexAutomaton("https?://[a-z.]+")`.
public typealias RegexAutomaton = RegexAutomata.RegexAutomaton
/// The regex compiler and its options (``RegexAutomata/RegexCompiler``).
public typealias RegexCompiler = RegexAutomata.RegexCompiler
/// A regex build failure (``RegexAutomata/RegexError``).
public typealias RegexError = RegexAutomata.RegexError
/// A regex syntax error with its byte position (``RegexAutomata/RegexSyntaxError``).
public typealias RegexSyntaxError = RegexAutomata.RegexSyntaxError
/// The regex parser's options and limits (``RegexAutomata/RegexSyntax``).
public typealias RegexSyntax = RegexAutomata.RegexSyntax
