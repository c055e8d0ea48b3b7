/// Rewrites the command line into one spelling before ArgumentParser sees it, so that
/// grep's habits work and nothing surprising happens:
///
/// - Grouped and attached short options are split: `-Fe prize` → `-F --regexp=prize`,
///   `-A3` → `--after-context=3`, `-nvc` → `-n -v -c`.
/// - Every option that takes a value is joined to it (`--threshold -0.04865` →
///   `--threshold=-0.04865`), so a value may start with `-`, as a negative number does
///   (ArgumentParser would take it for an option and report a missing value).
/// - A single-dash word that is not a group of the subcommand's letters is an error
///   (exit 2) instead of being read letter by letter: ArgumentParser took `-threshold`
///   as `-t -h …` and printed the help with exit 0, which for `filter` means "spam
///   found". `-h` and `--help` ask for help only as whole arguments.
/// - Options another subcommand takes are refused with a sentence saying why
///   (`filter -o`).
///
/// Because every `-e`, `-f` and `--rules` comes out as `--regexp=`, `--file=` or
/// `--rules=`, the normalized arguments give pattern ids in command-line order however
/// the flags were spelled (``RuleOptions/sourceOrder(counts:arguments:)`` reads them).
struct ArgumentNormalizer {
    /// Why the command line cannot be used: one sentence.
    struct Failure: Error {
        var message: String
        /// What went wrong, for saying it in another tool's words (``GNUUsageWords``).
        var kind: Kind = .other

        enum Kind: Equatable {
            case other
            /// An option given last with no value (`-e`, `--regexp`), as spelled.
            case missingValue(String)
            /// A short option letter the subcommand does not have (`-k`).
            case unknownLetter(Character)
        }
    }

    /// The normalized command line (program name first), set once by `main` before
    /// parsing and only read afterwards.
    nonisolated(unsafe) static var current: [String] = CommandLine.arguments

    /// The options of a subcommand, nil for one whose options are not known (its
    /// arguments pass through unchanged).
    let spellings: (String) -> OptionSpellings?

    init(spellings: @escaping (String) -> OptionSpellings? = OptionSpellings.of(subcommand:)) {
        self.spellings = spellings
    }

    /// `arguments` (program name first) in the one spelling.
    func normalize(_ arguments: [String]) throws(Failure) -> [String] {
        guard arguments.count > 1 else { return arguments }
        var result = [arguments[0]]
        let first = arguments[1]
        if first.hasPrefix("-") {
            // Options of the root command: only whole words, and ArgumentParser's own
            // (the man page generator's dump, the completion scripts `make install` writes,
            // and `---completion`, which those scripts call back).
            let rootOptions = ["-h", "--help", "--version", "--experimental-dump-help",
                               "--generate-completion-script", "---completion"]
            let name = String(first.prefix { $0 != "=" })
            guard rootOptions.contains(first) || name == "--generate-completion-script" else {
                throw Failure(message: "unknown option '\(first)'; the first word must be a subcommand (filter, match, compile, eval, train, rules) or --help")
            }
            return arguments
        }
        result.append(first)
        guard let spelling = spellings(first) else {
            // Unknown subcommand or one without a table: only guard against the help trap.
            for a in arguments.dropFirst(2) where Self.isSingleDashWord(a) && a.count > 2 && a.contains("h") {
                throw Failure(message: "unknown option '\(a)' (long options take two dashes)")
            }
            return arguments
        }
        var i = 2
        while i < arguments.count {
            let a = arguments[i]
            i += 1
            if a == "--" {
                result.append(contentsOf: arguments[(i - 1)...])
                break
            }
            if a.hasPrefix("--") {
                var a = a
                var name = String(a.dropFirst(2).prefix { $0 != "=" })
                if !spelling.longFlags.isEmpty, !name.isEmpty, !spelling.longNames.contains(name) {
                    // getopt_long: an unambiguous prefix stands for the whole name.
                    let candidates = spelling.longNames.filter { $0.hasPrefix(name) }.sorted()
                    if candidates.count > 1, ShortSet(candidates.map { spelling.longAliases[$0] ?? $0 }).elements.count > 1 {
                        throw Failure(message: "option '--\(name)' is ambiguous; possibilities: "
                                      + candidates.map { "'--\($0)'" }.joined(separator: " "))
                    }
                    if let whole = candidates.first {
                        a = "--" + whole + a.dropFirst(2 + name.count)
                        name = whole
                    }
                }
                if let long = spelling.longAliases[name] {
                    a = "--" + long + a.dropFirst(2 + name.count)
                    name = long
                }
                if let why = spelling.refused["--" + name] { throw Failure(message: why) }
                if a == "--" + name, let value = spelling.optionalValues[name],
                   i >= arguments.count || !Self.colorWhens.contains(arguments[i]) {
                    result.append(a + "=" + value)  // grep's `--color` alone
                    continue
                }
                if a == "--" + name + "=", spelling.longValued.contains(name) {
                    result.append(contentsOf: ["--" + name, ""])  // `--regexp=`: the empty value
                } else if !a.contains("="), spelling.longValued.contains(name) {
                    guard i < arguments.count else { throw Failure(message: "option \(a) needs a value", kind: .missingValue(a)) }
                    result.append(contentsOf: Self.joined(a, arguments[i]))
                    i += 1
                } else {
                    result.append(a)
                }
                continue
            }
            guard Self.isSingleDashWord(a) else {
                result.append(a)  // an operand, '-' (standard input) included
                continue
            }
            if a == "-h" && spelling.aliases["h"] == nil {
                result.append(a)
                continue
            }
            let letters = Array(a.dropFirst())
            if spelling.numericContext, letters.allSatisfy(\.isASCIIDigit) {
                result.append("--context=" + String(letters))  // grep's -NUM
                continue
            }
            var k = 0
            while k < letters.count {
                let c = letters[k]
                k += 1
                if let why = spelling.refused["-\(c)"] { throw Failure(message: why) }
                if let alias = spelling.aliases[c] {
                    result.append(alias)
                } else if spelling.flags.contains(c) {
                    result.append("-\(c)")
                } else if let long = spelling.valued[c] {
                    let value: String
                    if k < letters.count {
                        value = String(letters[k...])
                    } else if i < arguments.count {
                        value = arguments[i]
                        i += 1
                    } else {
                        throw Failure(message: "option -\(c) needs a value", kind: .missingValue("-\(c)"))
                    }
                    if let long {
                        result.append(contentsOf: Self.joined("--" + long, value))
                    } else {
                        result.append(contentsOf: ["-\(c)", value])
                    }
                    k = letters.count
                } else if k == 1 {
                    // The first letter is unknown: the whole word is one unknown option.
                    let word = String(letters)
                    let hint = spelling.longValued.contains(word) || word.count > 1 ? " (long options take two dashes: --\(word))" : ""
                    throw Failure(message: "unknown option '\(a)'\(hint)", kind: .unknownLetter(c))
                } else {
                    throw Failure(message: "unknown option '-\(c)' in '\(a)'", kind: .unknownLetter(c))
                }
            }
        }
        return result
    }

    /// The values `--color` takes as a separate word (`--color never`); any other word
    /// after a bare `--color` is an operand, as in grep.
    static let colorWhens: ShortSet<String> = ["auto", "always", "never"]

    /// An option and its value as ArgumentParser reads them whatever the value:
    /// `--name=value`, so a value starting with `-` is not taken for an option, but
    /// `--name ""` for an empty value (ArgumentParser reads `--name=` as a missing one;
    /// grep's `-e ''` is the empty pattern).
    static func joined(_ option: String, _ value: String) -> [String] {
        value.isEmpty ? [option, value] : ["\(option)=\(value)"]
    }

    /// `-x…` but not `-`, `--…` or a negative number (an operand such as `-5` after a
    /// value-less position is left to ArgumentParser).
    static func isSingleDashWord(_ a: String) -> Bool {
        a.hasPrefix("-") && !a.hasPrefix("--") && a.count > 1
    }
}

extension Character {
    var isASCIIDigit: Bool { isASCII && isNumber }
}
