// Turnstile: the public face of the toolkit. `Matcher` picks the engine (KMP for one
// literal, Aho-Corasick for many, the regex DFA for patterns), `SpamFilter` scores
// records with weighted rules, `RecordDelimiter` finds record boundaries in bytes, and
// `DefaultSpamList` is the word list compiled into the binary.
@_exported import AutomatonCore
