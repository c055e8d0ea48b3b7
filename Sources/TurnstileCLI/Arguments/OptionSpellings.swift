/// The options each subcommand takes, as ``ArgumentNormalizer`` needs them: which
/// single letters are flags, which letters and long names take a value, and which
/// letters a subcommand refuses with a reason.
///
/// ArgumentParser keeps this knowledge to itself, so it is written out here once;
/// `ArgumentTests` compares it with what `--experimental-dump-help` reports for every
/// subcommand, so the two cannot drift apart.
struct OptionSpellings: Sendable {
    /// Single-letter flags (no value).
    var flags: ShortSet<Character> = []
    /// Single letters that take a value, with their long name (nil when the option has
    /// no long name, as `compile -o`).
    var valued: ShortMap<Character, String?> = [:]
    /// Long names (without `--`) that take a value.
    var longValued: ShortSet<String> = []
    /// Whether `-NUM` means `--context=NUM` (grep's spelling; `match` only).
    var numericContext = false
    /// Letters that stand for another spelling (grep's `-h` is `--no-filename`, `-y`
    /// is `-i`); an alias is never read as `-h` for help.
    var aliases: ShortMap<Character, String> = [:]
    /// Long names that stand for another (`--colour` for `--color`).
    var longAliases: ShortMap<String, String> = [:]
    /// Long options whose value may be left out, with the value that means
    /// (`--color` alone is `--color=auto`, as grep).
    var optionalValues: ShortMap<String, String> = [:]
    /// Options of another subcommand that this one refuses, with the sentence saying why.
    var refused: ShortMap<String, String> = [:]
    /// Long names (without `--`) of flags, which take no value. With ``longValued``
    /// they are the names an abbreviation may stand for (`--ignore` for
    /// `--ignore-case`, as getopt_long reads it); a subcommand without them takes
    /// whole names only.
    var longFlags: ShortSet<String> = []

    mutating func add(_ other: OptionSpellings) {
        flags.formUnion(other.flags)
        valued.add(other.valued)
        longValued.formUnion(other.longValued)
        refused.add(other.refused)
        numericContext = numericContext || other.numericContext
        aliases.add(other.aliases)
        longAliases.add(other.longAliases)
        optionalValues.add(other.optionalValues)
        longFlags.formUnion(other.longFlags)
    }

    /// Every long name an abbreviation may stand for.
    var longNames: ShortSet<String> {
        longFlags.union(longValued).union(longAliases.keys).union(optionalValues.keys)
    }

    static func + (a: OptionSpellings, b: OptionSpellings) -> OptionSpellings {
        var sum = a
        sum.add(b)
        return sum
    }

    /// `RuleOptions`.
    static let rules = OptionSpellings(
        flags: ["F", "i", "w"], valued: ["e": "regexp", "f": "file"],
        longValued: ["regexp", "file", "rules", "add-rules", "max-pattern-file-bytes", "automaton",
                     "max-automaton-bytes", "max-states", "max-table-bytes"])
    /// `StreamOptions`.
    static let stream = OptionSpellings(
        valued: ["j": "threads"], longValued: ["delimiter", "color", "max-record-bytes", "threads"],
        longAliases: ["colour": "color"], optionalValues: ["color": "auto"])
    /// `FormatOptions`.
    static let format = OptionSpellings(longValued: ["format"])
    /// `LabelledInputOptions`.
    static let labelled = OptionSpellings(longValued: ["spam", "ham", "delimiter", "max-record-bytes"]) + format
    /// The grep flags `filter` shares with `match` (`FilterGrepOptions`).
    static let filterGrep = OptionSpellings(flags: ["n", "c", "H", "q", "s", "r"])
    /// The grep flags only `match` takes (`GrepOptions` beyond the shared ones).
    static let matchGrep = OptionSpellings(
        flags: ["n", "c", "H", "q", "s", "r", "o", "b", "v", "l", "L", "I", "x", "z", "Z", "a", "E", "G", "P",
                "R", "T", "U"],
        valued: ["m": "max-count", "A": "after-context", "B": "before-context", "C": "context",
                 "d": "directories", "D": "devices"],
        longValued: ["max-count", "after-context", "before-context", "context", "match-kind", "binary-files",
                     "include", "exclude", "exclude-dir", "label", "directories", "devices", "exclude-from",
                     "group-separator"],
        numericContext: true, aliases: ["h": "--no-filename", "y": "-i"])

    /// The long flags of `grep` (``GrepCommand``), for abbreviations.
    static let grepLongFlags: ShortSet<String> = [
        "fixed-strings", "ignore-case", "no-ignore-case", "word-regexp", "bytes", "only-matching", "byte-offset",
        "line-number", "invert-match", "count", "count-matches", "files-with-matches", "files-without-match",
        "quiet", "silent", "no-messages", "with-filename", "no-filename", "line-regexp", "null-data", "null",
        "text", "extended-regexp", "basic-regexp", "perl-regexp", "line-buffered", "recursive",
        "dereference-recursive", "no-group-separator", "initial-tab", "binary", "version", "help",
    ]

    /// `filter`'s mail delivery options (`FilterCommand`, `FilterCommand+Mail`).
    static let filterMail = OptionSpellings(
        longValued: ["spam-to", "move-spam-to", "tag-prefix", "allow-from", "deny-from", "sender-fields", "db"])

    /// What `filter` says about `match`'s output flags.
    static let filterRefuses: ShortMap<String, String> = {
        let why = "filter passes whole records through or holds them back; 'turnstile match' prints matches, counts and context"
        var refused: ShortMap<String, String> = [:]
        for option in ["-o", "-b", "-v", "-l", "-L", "-I", "-m", "-A", "-B", "-C", "-x", "-z", "-Z", "-a", "-E", "-G", "-P",
                       "--line-regexp", "--null-data", "--null", "--text", "--binary-files", "--include", "--exclude",
                       "--exclude-dir", "--label", "--line-buffered", "--extended-regexp", "--basic-regexp",
                       "--perl-regexp", "--only-matching", "--byte-offset",
                       "--invert-match", "--files-with-matches", "--files-without-match", "--no-filename",
                       "--max-count", "--after-context", "--before-context", "--context", "--count-matches",
                       "--offsets", "--builtin"] {
            refused[option] = "filter does not take \(option): \(why)"
        }
        return refused
    }()

    /// The subcommands with a table.
    static let subcommands = ["filter", "match", "grep", "compile", "eval", "rules", "train", "serve", "learn"]

    /// The spellings of every subcommand, by name (for tests and tools; a run reads
    /// only its own through ``of(subcommand:)``).
    static var bySubcommand: [String: OptionSpellings] {
        Dictionary(uniqueKeysWithValues: subcommands.compactMap { name in of(subcommand: name).map { (name, $0) } })
    }

    /// The spellings of one subcommand, nil for one without a table. Built when asked:
    /// building every table took 1.2 M of the 10 M instructions of a whole
    /// `match -c foo small.txt` run (callgrind), where only one is read.
    static func of(subcommand name: String) -> OptionSpellings? {
        switch name {
        case "filter": return rules + stream + format + filterGrep + filterMail
            + OptionSpellings(longValued: ["threshold"], refused: filterRefuses)
        case "match": return rules + stream + format + matchGrep
        case "grep":
            var grep = rules + stream + format + matchGrep + OptionSpellings(flags: ["V"], longFlags: grepLongFlags)
            grep.longValued.remove("match-kind")  // match's only
            return grep
        case "compile": return rules + OptionSpellings(valued: ["o": nil])
        case "eval": return rules + labelled + OptionSpellings(longValued: ["threshold", "top"])
        case "rules": return rules
        case "train": return labelled + OptionSpellings(
            valued: ["o": nil],
            longValued: ["top", "min-count", "smoothing", "min-precision", "threshold-above", "include", "exclude",
                         "phrase-prior", "title", "folds", "seed", "max-weight", "min-rules", "fp-cost", "threshold-folds",
                         "model", "fixed-threshold", "max-spam-weight", "prior", "prior-strength", "min-deviation"])
        case "serve": return rules + OptionSpellings(
            longValued: ["threshold", "listen", "allow-from", "threads", "max-size", "max-connections", "read-timeout",
                         "max-header-bytes", "db", "max-request-bytes", "drain", "socket-mode", "socket-owner", "user",
                         "group", "pidfile", "tell-user", "tell-from", "tell-rate", "db-dir", "idle-timeout", "headers"])
        case "learn": return OptionSpellings(longValued: ["db", "format", "max-record-bytes", "db-dir", "user"])
        default: return nil
        }
    }
}
