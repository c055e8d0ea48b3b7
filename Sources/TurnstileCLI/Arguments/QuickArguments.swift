import ArgumentParser
import Turnstile

/// The command lines of `match`, `grep` and `filter` read without ArgumentParser's
/// reflection.
///
/// Why: ArgumentParser learns a command's options by reflecting over its property
/// wrappers, which costs runtime conformance lookups and type demangling: 35 M of the
/// 58 M instructions `turnstile match -c foo small.txt` took (callgrind), where a grep
/// is started thousands of times by scripts; 23.4 M of the 38.3 M of
/// `filter --automaton saved.tsa empty.txt`, where a saved list is meant to start at
/// once. This reader knows those commands' options from a table and fills their option
/// values (``MatchOptions``, ``GrepCommandOptions``, ``FilterOptions``) as ArgumentParser's
/// commands map theirs, without building a property wrapper.
///
/// It reads only the normalized command line (``ArgumentNormalizer``: one option per
/// word, `--name=value` or `--name ""`, short flags alone) and gives up — returns nil —
/// on anything it does not know for certain (help, `--version` of `match`, an unknown
/// option, a value that does not parse, a failed `validate()`), so ArgumentParser then
/// reads the line and says what is wrong in its own words: help, errors, completions
/// and the Distribution/ files all still come from the commands' ArgumentParser
/// descriptions. `QuickArgumentsTests` checks that both readers give the same values
/// on every option of the three commands.
enum QuickArguments {
    /// The command `arguments` (normalized, program name first) stand for, or nil to
    /// leave them to ArgumentParser.
    static func command(_ arguments: [String]) -> (any QuickCommand)? {
        guard arguments.count >= 2 else { return nil }
        let words = arguments.dropFirst(2)
        switch arguments[1] {
        case "match": return quick(MatchOptions.self, words)
        case "grep": return quick(GrepCommandOptions.self, words)
        case "filter": return quick(FilterOptions.self, words)
        default: return nil
        }
    }

    /// `words` read into a `Command` and validated, or nil.
    private static func quick<Command: QuickCommand>(_: Command.Type, _ words: ArraySlice<String>) -> Command? {
        guard var command = read(words, into: Command(), table: Command.quickTable) else { return nil }
        guard (try? command.validateAll()) != nil else { return nil }
        return command
    }

    /// One option of the table: whether it takes a value, and how it sets the command
    /// (false when the value is not one the option takes).
    struct Option<Command> {
        var takesValue: Bool
        var apply: (inout Command, String) -> Bool

        /// A flag: no value.
        static func flag(_ set: @escaping (inout Command) -> Void) -> Option {
            Option(takesValue: false) { command, _ in set(&command); return true }
        }

        /// An option with a value of type `T`, read as ArgumentParser reads it.
        static func value<T: ExpressibleByArgument>(_ type: T.Type, _ set: @escaping (inout Command, T) -> Void) -> Option {
            Option(takesValue: true) { command, text in
                guard let value = T(argument: text) else { return false }
                set(&command, value)
                return true
            }
        }
    }

    /// `words` applied to `command` by `table` (keys: `-x` and `--name`); the operands
    /// go to the command's ``QuickCommand/operands``. Nil when a word is not in the table.
    static func read<Command: QuickCommand>(_ words: ArraySlice<String>, into command: Command,
                                             table: ShortMap<String, Option<Command>>) -> Command? {
        var command = command
        var operands: [String] = []
        var i = words.startIndex
        while i < words.endIndex {
            let word = words[i]
            i += 1
            if word == "--" {
                operands.append(contentsOf: words[i...])
                break
            }
            guard word.hasPrefix("-"), word != "-" else {
                operands.append(word)
                continue
            }
            var name = Substring(word)
            var value: String? = nil
            if word.hasPrefix("--"), let equals = word.firstIndex(of: "=") {
                name = word[..<equals]
                value = String(word[word.index(after: equals)...])
            }
            guard let option = table[String(name)] else { return nil }
            if option.takesValue {
                if value == nil {
                    // The normalizer's `--name ""` (an empty value); any other word after a
                    // bare valued option is beyond this reader.
                    guard i < words.endIndex, words[i].isEmpty else { return nil }
                    value = words[i]
                    i += 1
                }
            } else if value != nil {
                return nil
            }
            guard option.apply(&command, value ?? "") else { return nil }
        }
        command.operands = operands
        return command
    }
}

/// A command's options as values that the quick reader can fill: made with every option
/// at its default (as ArgumentParser leaves an option not given), its table of
/// spellings, where its operands go, the `validate()` calls ArgumentParser makes, and
/// the run.
protocol QuickCommand {
    init()
    /// The options by spelling (`-x`, `--name`), built when read: once per run.
    static var quickTable: ShortMap<String, QuickArguments.Option<Self>> { get }
    /// Where the operands go.
    var operands: [String] { get set }
    /// The `validate()` of each option group, then the command's, as ArgumentParser
    /// runs them.
    mutating func validateAll() throws
    /// The command's own checks (after its groups'), as its ArgumentParser command's.
    func validate() throws
    /// Runs the command, as its ArgumentParser command's `run()` does.
    func run() throws
}

extension QuickCommand {
    /// No checks of its own.
    func validate() throws {}
}

/// A command with the rule, stream and format option groups (`match`, `grep`, `filter`).
protocol QuickRuleStreamFormat: QuickCommand {
    var rules: RuleOptions { get set }
    var stream: StreamOptions { get set }
    var input: FormatOptions { get set }
}

extension QuickRuleStreamFormat {
    /// Where the operands go (for `match` and `grep` the pattern first, unless -e or -f
    /// gives it).
    var operands: [String] {
        get { stream.files }
        set { stream.files = newValue }
    }
}

/// `match` and `grep`, which share the four option groups and differ in a few options
/// of their own.
protocol QuickReadable: QuickRuleStreamFormat {
    var grep: GrepOptions { get set }
    /// Adds the command's own options to the table of the shared ones.
    static func addOwnOptions(to table: inout ShortMap<String, QuickArguments.Option<Self>>)
}

extension QuickReadable {
    static var quickTable: ShortMap<String, QuickArguments.Option<Self>> {
        var table = QuickArguments.sharedTable(Self.self)
        addOwnOptions(to: &table)
        return table
    }

    mutating func validateAll() throws {
        try rules.validate(); try grep.validate(); try stream.validate(); try validate()
    }
}

extension QuickArguments {
    /// The table entries of the options `match` and `grep` share (their four groups).
    static func sharedTable<Command: QuickReadable>(_: Command.Type) -> ShortMap<String, Option<Command>> {
        typealias O = Option<Command>
        var t = ruleStreamFormatTable(Command.self)
        func add(_ names: [String], _ option: O) { for n in names { t.append(n, option) } }
        // GrepOptions
        add(["-o", "--only-matching"], .flag { $0.grep.onlyMatching = true })
        add(["-b", "--byte-offset"], .flag { $0.grep.byteOffset = true })
        add(["-n", "--line-number"], .flag { $0.grep.lineNumber = true })
        add(["-v", "--invert-match"], .flag { $0.grep.invert = true })
        add(["-c", "--count"], .flag { $0.grep.count = true })
        add(["--count-matches"], .flag { $0.grep.countMatches = true })
        add(["-l", "--files-with-matches"], .flag { $0.grep.filesWithMatches = true })
        add(["-L", "--files-without-match"], .flag { $0.grep.filesWithoutMatch = true })
        add(["-q", "--quiet", "--silent"], .flag { $0.grep.quiet = true })
        add(["-s", "--no-messages"], .flag { $0.grep.noMessages = true })
        add(["-m", "--max-count"], .value(Int.self) { $0.grep.maxCount = $1 })
        add(["-A", "--after-context"], .value(Int.self) { $0.grep.after = $1 })
        add(["-B", "--before-context"], .value(Int.self) { $0.grep.before = $1 })
        add(["-C", "--context"], .value(Int.self) { $0.grep.context = $1 })
        add(["-H", "--with-filename"], .flag { $0.grep.withFilename = true })
        add(["--no-filename"], .flag { $0.grep.noFilename = true })
        add(["-x", "--line-regexp"], .flag { $0.grep.lineRegexp = true })
        add(["-z", "--null-data"], .flag { $0.grep.nullData = true })
        add(["-Z", "--null"], .flag { $0.grep.nullAfterName = true })
        add(["-a", "--text"], .flag { $0.grep.text = true })
        add(["-I"], .flag { $0.grep.skipBinary = true })
        add(["--binary-files"], .value(BinaryFiles.self) { $0.grep.binaryFiles = $1 })
        add(["-E", "--extended-regexp"], .flag { $0.grep.extendedRegexp = true })
        add(["-G", "--basic-regexp"], .flag { $0.grep.basicRegexp = true })
        add(["-P", "--perl-regexp"], .flag { $0.grep.perlRegexp = true })
        add(["-R", "--dereference-recursive"], .flag { $0.grep.dereferenceRecursive = true })
        add(["-d", "--directories"], .value(DirectoryAction.self) { $0.grep.directories = $1 })
        add(["-D", "--devices"], .value(DeviceAction.self) { $0.grep.devices = $1 })
        add(["--exclude-from"], .value(String.self) { $0.grep.excludeFrom.append($1) })
        add(["--group-separator"], .value(String.self) { $0.grep.groupSeparator = $1 })
        add(["--no-group-separator"], .flag { $0.grep.noGroupSeparator = true })
        add(["-T", "--initial-tab"], .flag { $0.grep.initialTab = true })
        add(["-U", "--binary"], .flag { $0.grep.binary = true })
        add(["--include"], .value(String.self) { $0.grep.include.append($1) })
        add(["--exclude"], .value(String.self) { $0.grep.exclude.append($1) })
        add(["--exclude-dir"], .value(String.self) { $0.grep.excludeDir.append($1) })
        add(["--label"], .value(String.self) { $0.grep.label = $1 })
        add(["--line-buffered"], .flag { $0.grep.lineBuffered = true })
        add(["-r", "--recursive"], .flag { $0.grep.recursive = true })
        return t
    }

    /// The table entries of the rule, stream and format options (`match`, `grep`, `filter`).
    static func ruleStreamFormatTable<Command: QuickRuleStreamFormat>(_: Command.Type) -> ShortMap<String, Option<Command>> {
        typealias O = Option<Command>
        var t: ShortMap<String, O> = [:]
        func add(_ names: [String], _ option: O) { for n in names { t.append(n, option) } }
        // RuleOptions
        add(["-e", "--regexp"], .value(String.self) { $0.rules.regexp.append($1) })
        add(["-f", "--file"], .value(String.self) { $0.rules.patternFiles.append($1) })
        add(["--rules"], .value(String.self) { $0.rules.ruleFiles.append($1) })
        add(["--add-rules"], .value(String.self) { $0.rules.addedRuleFiles.append($1) })
        add(["-F", "--fixed-strings"], .flag { $0.rules.fixedStrings = true })
        add(["-i", "--ignore-case"], .flag { $0.rules.ignoreCaseFlag = true })
        add(["--no-ignore-case"], .flag { $0.rules.noIgnoreCase = true })
        add(["-w", "--word-regexp"], .flag { $0.rules.wordRegexp = true })
        add(["--bytes"], .flag { $0.rules.bytes = true })
        add(["--ucp"], .flag { $0.rules.ucp = true })
        add(["--debug-strategy"], .flag { $0.rules.debugStrategy = true })
        add(["--max-pattern-file-bytes"], .value(Int.self) { $0.rules.maxPatternFileBytes = $1 })
        add(["--automaton"], .value(String.self) { $0.rules.automaton = $1 })
        add(["--max-automaton-bytes"], .value(Int.self) { $0.rules.maxAutomatonBytes = $1 })
        add(["--max-states"], .value(Int.self) { $0.rules.maxStates = $1 })
        add(["--max-table-bytes"], .value(Int.self) { $0.rules.maxTableBytes = $1 })
        // StreamOptions
        add(["--delimiter"], .value(RecordDelimiter.self) { $0.stream.delimiter = $1 })
        add(["--color"], .value(ColorWhen.self) { $0.stream.color = $1 })
        add(["--max-record-bytes"], .value(Int.self) { $0.stream.maxRecordBytesOption = $1 })
        add(["-j", "--threads"], .value(Int.self) { $0.stream.threads = $1 })
        // FormatOptions
        add(["--format"], .value(RecordFormat.self) { $0.input.format = $1 })
        return t
    }
}





extension MatchOptions: QuickReadable {
    static func addOwnOptions(to t: inout ShortMap<String, QuickArguments.Option<MatchOptions>>) {
        t.append("--builtin", .flag { $0.builtin = true })
        t.append("--match-kind", .value(MatchKind.self) { $0.matchKind = $1 })
        t.append("--offsets", .flag { $0.offsets = true })
        t.append("--json", .flag { $0.json = true })
    }
}

extension GrepCommandOptions: QuickReadable {
    static func addOwnOptions(to t: inout ShortMap<String, QuickArguments.Option<GrepCommandOptions>>) {
        t.append("-V", .flag { $0.version = true })
        t.append("--version", .flag { $0.version = true })
    }
}

extension FilterOptions: QuickRuleStreamFormat {
    static var quickTable: ShortMap<String, QuickArguments.Option<FilterOptions>> {
        typealias O = QuickArguments.Option<FilterOptions>
        var t = QuickArguments.ruleStreamFormatTable(FilterOptions.self)
        func add(_ names: [String], _ option: O) { for n in names { t.append(n, option) } }
        // FilterGrepOptions
        add(["-n", "--line-number"], .flag { $0.grep.lineNumber = true })
        add(["-c"], .flag { $0.grep.count = true })
        add(["-H", "--with-filename"], .flag { $0.grep.withFilename = true })
        add(["-q", "--quiet", "--silent"], .flag { $0.grep.quiet = true })
        add(["-s", "--no-messages"], .flag { $0.grep.noMessages = true })
        add(["-r", "--recursive"], .flag { $0.grep.recursive = true })
        // DeliveryOptions
        add(["--spam-to"], .value(String.self) { $0.delivery.spamTo = $1 })
        add(["--move-spam-to"], .value(String.self) { $0.delivery.moveSpamTo = $1 })
        add(["--tag"], .flag { $0.delivery.tag = true })
        add(["--tag-prefix"], .value(String.self) { $0.delivery.tagPrefix = $1 })
        add(["--exit-verdict"], .flag { $0.delivery.exitVerdict = true })
        add(["--allow-from"], .value(String.self) { $0.delivery.allowFrom.append($1) })
        add(["--deny-from"], .value(String.self) { $0.delivery.denyFrom.append($1) })
        add(["--sender-fields"], .value(String.self) { $0.delivery.senderFields = $1 })
        // FilterCommand's own
        add(["--threshold"], .value(Double.self) { $0.threshold = $1 })
        add(["--db"], .value(String.self) { $0.db = $1 })
        add(["--spam"], .flag { $0.spam = true })
        add(["--mask"], .flag { $0.mask = true })
        add(["--count"], .flag { $0.count = true })
        add(["--json"], .flag { $0.json = true })
        add(["--explain"], .flag { $0.explain = true })
        add(["--stats"], .flag { $0.stats = true })
        return t
    }

    mutating func validateAll() throws {
        try rules.validate(); try stream.validate(); try validate()
    }
}


