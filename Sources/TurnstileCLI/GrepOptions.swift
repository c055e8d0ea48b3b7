import ArgumentParser
import Turnstile

/// grep's output and input flags for `turnstile match`, with grep's letters and long
/// names and grep's meanings (see ``GrepSink``).
struct GrepArguments: ParsableArguments {
    @Flag(name: [.customShort("o"), .customLong("only-matching")], help: "Print only the matched text, one match per line.")
    var onlyMatching = false

    @Flag(name: [.customShort("b"), .customLong("byte-offset")],
          help: "Prefix each line with its byte offset in the input (with -o, the match's).")
    var byteOffset = false

    @Flag(name: [.customShort("n"), .customLong("line-number")], help: "Prefix each line with its record number (1-based).")
    var lineNumber = false

    @Flag(name: [.customShort("v"), .customLong("invert-match")], help: "Select the records without a match.")
    var invert = false

    @Flag(name: [.customShort("c"), .customLong("count")], help: "Print the number of selected records per input.")
    var count = false

    @Flag(name: .customLong("count-matches"), help: "Print the number of matches per input (ripgrep's --count-matches).")
    var countMatches = false

    @Flag(name: [.customShort("l"), .customLong("files-with-matches")], help: "Print the name of each input with a selected record.")
    var filesWithMatches = false

    @Flag(name: [.customShort("L"), .customLong("files-without-match")], help: "Print the name of each input without one.")
    var filesWithoutMatch = false

    @Flag(name: [.customShort("q"), .customLong("quiet"), .customLong("silent")],
          help: "Print nothing; stop at the first selected record (exit 0 then, even after an error).")
    var quiet = false

    @Flag(name: [.customShort("s"), .customLong("no-messages")], help: "Leave out messages about missing or unreadable inputs.")
    var noMessages = false

    @Option(name: [.customShort("m"), .customLong("max-count")],
            help: ArgumentHelp("Stop reading an input after this many selected records (a negative number: no limit).", valueName: "num"))
    var maxCount: Int?

    @Option(name: [.customShort("A"), .customLong("after-context")], help: ArgumentHelp("Print this many records after each selected one.", valueName: "num"))
    var after: Int?

    @Option(name: [.customShort("B"), .customLong("before-context")], help: ArgumentHelp("Print this many records before each selected one.", valueName: "num"))
    var before: Int?

    @Option(name: [.customShort("C"), .customLong("context")], help: ArgumentHelp("Print this many records before and after (also -NUM).", valueName: "num"))
    var context: Int?

    @Flag(name: [.customShort("H"), .customLong("with-filename")], help: "Prefix each line with the input's name (the default with several inputs).")
    var withFilename = false

    @Flag(name: [.customLong("no-filename")], help: "Never prefix the input's name (also -h, as grep).")
    var noFilename = false

    @Flag(name: [.customShort("x"), .customLong("line-regexp")], help: "Select only matches that span the whole record.")
    var lineRegexp = false

    @Flag(name: [.customShort("z"), .customLong("null-data")], help: "Records end with NUL, not newline (--delimiter nul).")
    var nullData = false

    @Flag(name: [.customShort("Z"), .customLong("null")], help: "Print a NUL after each input's name instead of ':' or a newline.")
    var nullAfterName = false

    @Flag(name: [.customShort("a"), .customLong("text")], help: "Search binary inputs as text (--binary-files=text).")
    var text = false

    @Flag(name: .customShort("I"), help: "Skip binary inputs (--binary-files=without-match).")
    var skipBinary = false

    @Option(name: .customLong("binary-files"),
            help: ArgumentHelp("An input with a NUL byte is binary from the 96 KiB block that holds it on, as in GNU grep: 'binary' (the default) prints 'binary file matches' on standard error instead of its records, 'text' searches it as text, 'without-match' skips it.",
                               valueName: "binary|text|without-match"))
    var binaryFiles: BinaryFiles?

    @Flag(name: [.customShort("E"), .customLong("extended-regexp")], help: "Patterns are extended regexes (match's default; grep's is -G).")
    var extendedRegexp = false

    @Flag(name: [.customShort("G"), .customLong("basic-regexp")], help: "Patterns are GNU basic regexes (grep's default; match's is -E).")
    var basicRegexp = false

    @Flag(name: [.customShort("P"), .customLong("perl-regexp")], help: "One pattern in PCRE2's syntax; look-around, back-references and the other constructs a finite automaton cannot run are refused.")
    var perlRegexp = false

    @Flag(name: [.customShort("R"), .customLong("dereference-recursive")],
          help: "As -r, following symbolic links to folders and files everywhere.")
    var dereferenceRecursive = false

    @Option(name: [.customShort("d"), .customLong("directories")],
            help: ArgumentHelp("What a folder named as an input gets: read (an error, as grep), skip, or recurse (-r).",
                               valueName: "read|skip|recurse"))
    var directories: DirectoryAction?

    @Option(name: [.customShort("D"), .customLong("devices")],
            help: ArgumentHelp("What a device, FIFO or socket gets: read (the default) or skip.", valueName: "read|skip"))
    var devices: DeviceAction?

    @Option(name: .customLong("exclude-from"),
            help: ArgumentHelp("Skip files whose name matches a glob read from FILE, one per line (repeatable).", valueName: "file"))
    var excludeFrom: [String] = []

    @Option(name: .customLong("group-separator"),
            help: ArgumentHelp("Print SEP between groups of context lines instead of '--'.", valueName: "sep"))
    var groupSeparator: String?

    @Flag(name: .customLong("no-group-separator"), help: "Print nothing between groups of context lines.")
    var noGroupSeparator = false

    @Flag(name: [.customShort("T"), .customLong("initial-tab")],
          help: "Put a tab before each line's text and align the numbers before it, as grep -T.")
    var initialTab = false

    @Flag(name: [.customShort("U"), .customLong("binary")], help: "Accepted for grep's sake: input is always read as bytes.")
    var binary = false

    @Option(name: .customLong("include"), help: ArgumentHelp("With -r, search only files whose name matches GLOB (fnmatch; repeatable).", valueName: "glob"))
    var include: [String] = []

    @Option(name: .customLong("exclude"), help: ArgumentHelp("Skip files whose name matches GLOB (fnmatch; repeatable).", valueName: "glob"))
    var exclude: [String] = []

    @Option(name: .customLong("exclude-dir"), help: ArgumentHelp("With -r, skip folders whose name matches GLOB (repeatable).", valueName: "glob"))
    var excludeDir: [String] = []

    @Option(name: .customLong("label"), help: ArgumentHelp("The name shown for standard input.", valueName: "label"))
    var label: String?

    @Flag(name: .customLong("line-buffered"), help: "Write out each output line at once.")
    var lineBuffered = false

    @Flag(name: [.customShort("r"), .customLong("recursive")],
          help: "Search the files under each folder, sorted by path (hidden ones too; links inside are not followed); no input: the current folder.")
    var recursive = false

    /// The values given, as the run reads them (``GrepOptions``).
    var options: GrepOptions {
        GrepOptions(
            onlyMatching: onlyMatching,
            byteOffset: byteOffset,
            lineNumber: lineNumber,
            invert: invert,
            count: count,
            countMatches: countMatches,
            filesWithMatches: filesWithMatches,
            filesWithoutMatch: filesWithoutMatch,
            quiet: quiet,
            noMessages: noMessages,
            maxCount: maxCount,
            after: after,
            before: before,
            context: context,
            withFilename: withFilename,
            noFilename: noFilename,
            lineRegexp: lineRegexp,
            nullData: nullData,
            nullAfterName: nullAfterName,
            text: text,
            skipBinary: skipBinary,
            binaryFiles: binaryFiles,
            extendedRegexp: extendedRegexp,
            basicRegexp: basicRegexp,
            perlRegexp: perlRegexp,
            dereferenceRecursive: dereferenceRecursive,
            directories: directories,
            devices: devices,
            excludeFrom: excludeFrom,
            groupSeparator: groupSeparator,
            noGroupSeparator: noGroupSeparator,
            initialTab: initialTab,
            binary: binary,
            include: include,
            exclude: exclude,
            excludeDir: excludeDir,
            label: label,
            lineBuffered: lineBuffered,
            recursive: recursive)
    }

    func validate() throws { try options.validate() }
}

/// The values of ``GrepArguments``: what a run reads. The quick reader (``QuickArguments``) fills
/// them without ArgumentParser; ArgumentParser's path maps its wrappers to them.
struct GrepOptions {
    var onlyMatching = false
    var byteOffset = false
    var lineNumber = false
    var invert = false
    var count = false
    var countMatches = false
    var filesWithMatches = false
    var filesWithoutMatch = false
    var quiet = false
    var noMessages = false
    var maxCount: Int?
    var after: Int?
    var before: Int?
    var context: Int?
    var withFilename = false
    var noFilename = false
    var lineRegexp = false
    var nullData = false
    var nullAfterName = false
    var text = false
    var skipBinary = false
    var binaryFiles: BinaryFiles?
    var extendedRegexp = false
    var basicRegexp = false
    var perlRegexp = false
    var dereferenceRecursive = false
    var directories: DirectoryAction?
    var devices: DeviceAction?
    var excludeFrom: [String] = []
    var groupSeparator: String?
    var noGroupSeparator = false
    var initialTab = false
    var binary = false
    var include: [String] = []
    var exclude: [String] = []
    var excludeDir: [String] = []
    var label: String?
    var lineBuffered = false
    var recursive = false

    func validate() throws {
        for (value, flag) in [(after, "-A"), (before, "-B"), (context, "-C")] {
            if let value, value < 0 { throw ValidationError("\(flag) must be 0 or more") }
        }
    }

    /// Whether any context flag was given (grep then prints `--` between groups).
    var hasContext: Bool { after != nil || before != nil || context != nil }

    /// The sink's mode: `-q` before `-l`/`-L` (the last of the two, as in grep), before
    /// `-c`, before printing records.
    var mode: GrepSink.Mode {
        if quiet { return .quiet }
        if filesWithMatches && filesWithoutMatch {
            let last = LastWins.last(of: [["-l", "--files-with-matches"], ["-L", "--files-without-match"]])
            return last == 1 ? .filesWithoutMatch : .filesWithMatches
        }
        if filesWithMatches { return .filesWithMatches }
        if filesWithoutMatch { return .filesWithoutMatch }
        if count { return .count }
        return .records
    }

    /// Whether lines are prefixed with the input's name as `-H`/`-h` ask (the last of
    /// the two, as in grep), nil when neither was given: then the inputs decide.
    var namesInputs: Bool? {
        if withFilename && noFilename {
            return LastWins.last(of: [["-H", "--with-filename"], ["--no-filename"]]) != 1
        }
        return withFilename ? true : noFilename ? false : nil
    }

    /// What to do with binary inputs: the last of `-a`, `-I` and `--binary-files`, as
    /// in grep (`-a -I` skips them, `-I -a` searches them as text).
    var binaryHandling: BinaryFiles {
        let given: [BinaryFiles?] = [text ? .text : nil, skipBinary ? .withoutMatch : nil, binaryFiles]
        if given.compactMap({ $0 }).count > 1,
           let last = LastWins.last(of: [["-a", "--text"], ["-I"], ["--binary-files="]]), let chosen = given[last] {
            return chosen
        }
        return binaryFiles ?? (text ? .text : skipBinary ? .withoutMatch : .binary)
    }

    /// Whether folders are walked: `-r`, `-R` or `-d recurse`.
    var walksFolders: Bool { recursive || dereferenceRecursive || directories == .recurse }

    /// The line between context groups: `--` unless `--group-separator` or
    /// `--no-group-separator` (nil: none) says otherwise.
    var contextSeparator: [UInt8]? {
        if noGroupSeparator { return nil }
        return Array((groupSeparator ?? "--").utf8)
    }

    /// `--include`, `--exclude` (with the globs of each `--exclude-from` file) and
    /// `--exclude-dir`.
    func names() throws -> NameFilter {
        var excluded = exclude
        for path in excludeFrom {
            let bytes = try readWhole(path)
            excluded += bytes.split(separator: 0x0A).map { String(decoding: $0, as: UTF8.self) }
        }
        return NameFilter(include: include, exclude: excluded, excludeDir: excludeDir)
    }

    /// The limit `-m` sets; nil for none (not given, or negative as in grep).
    var limit: Int? { maxCount.flatMap { $0 >= 0 ? $0 : nil } }
}

/// grep's `--directories`: what a folder named as an input gets.
enum DirectoryAction: String, ExpressibleByArgument, CaseIterable, Sendable {
    case read, skip, recurse
}

/// grep's `--devices`: what a device, FIFO or socket named as an input gets.
enum DeviceAction: String, ExpressibleByArgument, CaseIterable, Sendable {
    case read, skip
}

/// grep's `--binary-files`: what a binary input (a NUL byte, seen 96 KiB block by block) gets.
enum BinaryFiles: String, ExpressibleByArgument, CaseIterable, Sendable {
    /// Searched; a selected record prints `binary file matches` on standard error instead.
    case binary
    /// Searched and printed as text (`-a`).
    case text
    /// Skipped as if nothing matched (`-I`).
    case withoutMatch = "without-match"
}

/// The grep flags `filter` shares with `match`, with the same meanings for the records
/// filter prints (the clean ones, or the spam with `--spam`).
struct FilterGrepArguments: ParsableArguments {
    @Flag(name: [.customShort("n"), .customLong("line-number")], help: "Prefix each printed record with its number (1-based).")
    var lineNumber = false

    @Flag(name: .customShort("c"), help: "Print the number of records that would be printed, per input (grep's -c; --count prints both verdicts).")
    var count = false

    @Flag(name: [.customShort("H"), .customLong("with-filename")], help: "Prefix each printed record with the input's name.")
    var withFilename = false

    @Flag(name: [.customShort("q"), .customLong("quiet"), .customLong("silent")],
          help: "Print nothing; stop at the first spam record (exit 0 then).")
    var quiet = false

    @Flag(name: [.customShort("s"), .customLong("no-messages")], help: "Leave out messages about missing or unreadable inputs.")
    var noMessages = false

    @Flag(name: [.customShort("r"), .customLong("recursive")],
          help: "Read the files under each folder (hidden ones too; links inside are not followed); no input: the current folder.")
    var recursive = false

    /// The values given, as the run reads them (``FilterGrepOptions``).
    var options: FilterGrepOptions {
        FilterGrepOptions(
            lineNumber: lineNumber,
            count: count,
            withFilename: withFilename,
            quiet: quiet,
            noMessages: noMessages,
            recursive: recursive)
    }
}

/// The values of ``FilterGrepArguments``: what a run reads. The quick reader (``QuickArguments``) fills
/// them without ArgumentParser; ArgumentParser's path maps its wrappers to them.
struct FilterGrepOptions {
    var lineNumber = false
    var count = false
    var withFilename = false
    var quiet = false
    var noMessages = false
    var recursive = false
}

/// grep -r's inputs as its walk finds them: the run's workers advance the walk a few
/// folders at a time when their list runs short (``RecordInputFeed/init(stepping:)``),
/// in each folder's own order as GNU grep does, and search the files already found
/// meanwhile (rg's workers walk and search so). A folder that cannot be read is
/// reported in its place and the walk goes on, as in GNU grep.
/// `nil` when no operand is a folder (nothing to walk: ``recursiveInputs(_:names:followLinks:sorted:)``).
func recursiveFeed(_ files: [String], names: NameFilter, followLinks: Bool) -> RecordInputFeed? {
    guard files.isEmpty || files.contains(where: { InputKind($0) == .folder }) else { return nil }
    let walk = SteppedWalk(operands: files, names: names, followLinks: followLinks)
    return RecordInputFeed(stepping: { walk.next() })
}

/// The state of grep -r's walk between two steps: the operands left and the walk of
/// the current one. Used by one thread at a time (the feed runs one step at a time).
private final class SteppedWalk {
    private var walk: DirectoryWalk
    private var operands: [String]
    private var nextOperand = 0
    /// No operand: the current folder, its files named without `./`.
    private let droppingDot: Bool
    private let names: NameFilter
    /// Files a step lists at least, unless the walk ends first: enough for the
    /// workers to search while the next step runs, few enough that the first search
    /// starts at once.
    private static let stepFiles = 32

    init(operands: [String], names: NameFilter, followLinks: Bool) {
        walk = DirectoryWalk(includeHidden: true, followLinks: followLinks)
        walk.names = names
        walk.sorted = false
        self.operands = operands.isEmpty ? ["."] : operands
        droppingDot = operands.isEmpty
        self.names = names
    }

    /// The next inputs in walk order, nil when the walk is over.
    func next() -> [RecordInput]? {
        var batch: [RecordInput] = []
        batch.reserveCapacity(Self.stepFiles)
        let droppingDot = self.droppingDot
        func take(_ found: DirectoryWalk.Found) -> Bool {
            switch found {
            case .file(let path):
                let shown = droppingDot && path.hasPrefix("./") ? String(path.dropFirst(2)) : path
                batch.append(RecordInput(path: shown, name: inputName(shown), isRegularFile: true))
            case .unreadable(let path, let code):
                batch.append(RecordInput(path: path, name: path,
                                         failure: RecordInputError(message: "\(path): \(errnoDescription(code))", name: path)))
            }
            return true
        }
        while batch.count < Self.stepFiles {
            if walk.isWalking {
                walk.step(take)
                continue
            }
            guard nextOperand < operands.count else { break }
            let path = operands[nextOperand]
            nextOperand += 1
            switch RecursiveOperand(path, names: names, implicit: droppingDot) {
            case .folder(let info): walk.enter(path, info: info, take)
            case .input:
                // An operand, not listed by the walk: a device, a FIFO or `-` perhaps.
                batch.append(RecordInput(path: path, name: inputName(path)))
            case .skipped, .skippedFolder: continue
            }
        }
        return batch.isEmpty && !walk.isWalking && nextOperand >= operands.count ? nil : batch
    }
}

/// The inputs with folders replaced by the files under them (`-r`; each folder's
/// entries sorted, or with `sorted` false in the folder's own order, as GNU grep): grep's order and
/// names, with no input meaning the current folder (its files named without `./`).
/// Also whether a folder was among them (grep then names each file).
func recursiveInputs(
    _ files: [String], names: NameFilter = NameFilter(), followLinks: Bool = false, sorted: Bool = true
) throws -> (inputs: [String], sawFolder: Bool) {
    var walk = DirectoryWalk(includeHidden: true, followLinks: followLinks)
    walk.names = names
    walk.sorted = sorted
    if files.isEmpty {
        var info = stat()
        guard stat(".", &info) == 0 else { throw CommandFailure(".: \(errnoDescription(errno))") }
        let walked = try walk.files(under: ".", info: info)
        let found = sorted ? walked.sorted() : walked
        return (found.map { $0.hasPrefix("./") ? String($0.dropFirst(2)) : $0 }, true)
    }
    var result: [String] = []
    var sawFolder = false
    for path in files {
        let operand = RecursiveOperand(path, names: names)
        if operand.isFolder { sawFolder = true }
        switch operand {
        case .folder(let info):
            let walked = try walk.files(under: path, info: info)
            result.append(contentsOf: sorted ? walked.sorted() : walked)
        case .input: result.append(path)
        case .skipped, .skippedFolder: continue
        }
    }
    return (result, sawFolder)
}

/// What `-r` does with one operand, the rule for grep's walk (``recursiveFeed``) and
/// the listed walk (``recursiveInputs``) alike: a folder is walked unless
/// `--exclude-dir` names it, anything else (`-` included) is an input unless
/// `--exclude`/`--include` leave it out.
enum RecursiveOperand {
    case folder(stat)
    /// A folder `--exclude-dir` leaves out.
    case skippedFolder
    case input
    case skipped

    /// `implicit`: the current folder standing for no operand, which no filter leaves out.
    init(_ path: String, names: NameFilter, implicit: Bool = false) {
        var info = stat()
        if path != "-", PathBytes.withCString(path, { stat($0, &info) }) == 0, (info.st_mode & S_IFMT) == S_IFDIR {
            self = !implicit && names.skipsFolder(path, commandLine: true) ? .skippedFolder : .folder(info)
        } else {
            self = names.skipsFile(path, commandLine: true) ? .skipped : .input
        }
    }

    var isFolder: Bool {
        switch self {
        case .folder, .skippedFolder: return true
        case .input, .skipped: return false
        }
    }
}
