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
// The core's types that appear in this module's API are named here by typealias (as
// `MatchKind` is in Matcher.swift), so `import Turnstile` is enough to use it; nothing
// is re-exported wholesale. Import `AutomatonCore` itself for the rest of the core.
import AutomatonCore

/// A match: the pattern id and the byte range (``AutomatonCore/Match``).
public typealias Match = AutomatonCore.Match
/// The size limits of a build (``AutomatonCore/Limits``).
public typealias Limits = AutomatonCore.Limits
/// A build or load failure of the core (``AutomatonCore/AutomatonError``).
public typealias AutomatonError = AutomatonCore.AutomatonError
/// The dense DFA a matcher may run (``AutomatonCore/DenseDFA``).
public typealias DenseDFA = AutomatonCore.DenseDFA
