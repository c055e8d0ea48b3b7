import ArgumentParser
import Turnstile

/// One search as `match` and `grep` run it: the parsed options of either command, how
/// its patterns are read (``PatternReading``), and the run from patterns to exit status.
/// The two commands differ only in their defaults and in how patterns are read.
struct SearchRequest {
    var rules: RuleOptions
    var grep: GrepOptions
    var stream: StreamOptions
    var input: FormatOptions
    var builtin = false
    var matchKind: MatchKind?
    var offsets = false
    var json = false
    var reading: PatternReading

    func run() throws {
        inputMessagesSuppressed = grep.noMessages
        if let label = grep.label { standardInputLabel = label } else if json { standardInputLabel = "<stdin>" }  // rg's name
        let delimiter = try input.delimiter(grep.nullData ? .nul : stream.delimiter)
        var operands = stream.files
        var ruleOptions = rules
        if rules.isEmpty && !builtin {
            guard !operands.isEmpty else {
                throw CommandFailure("no pattern: give it as the first operand, or use -e, -f, --rules, --automaton or --builtin")
            }
            ruleOptions.regexp = [operands.removeFirst()]
        }
        let output = OutputWriter(fd: 1)
        let color = stream.useColor(output)
        let (matcher, cannotSelect) = try ruleOptions.withRuleSet(fallback: .standard) { set in
            let cannotSelect = MatchOptions.cannotSelect(set, invert: grep.invert, lineRegexp: grep.lineRegexp)
            if let matchKind, matchKind != .leftmostFirst, set.options.syntax != .literal {
                throw TurnstileError(.invalidOptions("--match-kind \(matchKind) needs literal patterns (-F)"))
            }
            let givenAsWords = set.options.syntax == .literal
            var set = try reading.translated(set, nullData: grep.nullData)
            // grep -F -o reports the longest of the words starting at one place, and
            // grep's colour marks it (`-F -e ab -e abc` on `xabcx`: `abc`; rg's colour
            // marks the first word, as match's does). (Under grep a list of plain words
            // is read as one, with grep's answers.)
            let words = set.options.syntax == .literal && (givenAsWords || reading.syntax != .parser)
            let longest = words && (grep.onlyMatching || (color && reading.isGrep))
            let grepKind: MatchKind = longest ? .leftmostLongest : .leftmostFirst
            set.options.matchKind = matchKind ?? grepKind
            set.options.wholeLine = grep.lineRegexp
            set.options.lineRecords = delimiter == .line
            return (try set.matcher(), cannotSelect)
        }
        rules.reportStrategy(matcher)
        // grep -m 0 reads nothing and selects nothing; nor does grep read when no record
        // can be selected, unless -L is to list the inputs (each opened, so a missing one
        // is still an error).
        if grep.limit == 0, grep.mode != .filesWithoutMatch { throw ExitCode(1) }
        if cannotSelect, !offsets, !json, grep.mode != .filesWithoutMatch { throw ExitCode(1) }

        var inputs: [String] = []
        var sawFolder = false
        var walked: RecordInputFeed? = nil
        if grep.mode == .records, !offsets, !json, grep.limit.map({ $0 > 1 }) ?? true {
            outputFile = regularOutputFile()
        }
        let names = try grep.names()
        if grep.walksFolders, !input.format.isMail, reading.isGrep,
           let feed = recursiveFeed(operands, names: names, followLinks: grep.dereferenceRecursive) {
            // grep -r over folders: searched as the walk finds the files.
            walked = feed
            sawFolder = true
        } else if grep.walksFolders, !input.format.isMail {
            (inputs, sawFolder) = try recursiveInputs(operands, names: names, followLinks: grep.dereferenceRecursive,
                                                      sorted: !reading.isGrep)
        } else {
            let given = try input.inputs(operands.isEmpty ? ["-"] : operands)
            inputs = given.filter { path in
                !names.skipsFile(path, commandLine: true)
                    && !(grep.directories == .skip && InputKind(path) == .folder)
                    && !(grep.devices == .skip && InputKind(path) == .device)
            }
            sawFolder = given.count > 1  // grep names inputs by how many were given
        }
        let named = grep.namesInputs ?? (inputs.count > 1 || sawFolder)
        // Where each match is (-o, colour, offsets, JSON, match counts) needs the whole
        // record in memory; which records hold one is judged in pieces.
        let listsMatches = json || offsets || grep.countMatches || grep.onlyMatching || color
        var run = MatchRun(
            matcher: matcher, inputs: inputs, named: named, output: output,
            delimiter: delimiter, maxRecordBytes: reading.maxRecordBytes(stream, listsMatches: listsMatches),
            threads: stream.parallelThreads)
        run.walked = walked
        run.chunkBytes = stream.chunkBytes
        run.forcedThreads = stream.forcedThreads
        // Binary input: a NUL in the first buffer, unless NUL ends records (-z).
        if delimiter.byte != 0 && !input.format.isMail { run.binaryFiles = grep.binaryHandling }
        // grep 3.8 warns about GREP_COLOR whenever it is set, coloured or not.
        let legacyColor = ProcessEnvironment.value("GREP_COLOR").flatMap { $0.isEmpty ? nil : $0 }
        if let legacyColor {
            printError("\(programName): warning: GREP_COLOR='\(legacyColor)' is deprecated; use GREP_COLORS='mt=\(legacyColor)'")
        }
        let outcome: MatchRun.Outcome
        if json {
            outcome = run.listJSON(invert: grep.invert)
        } else if offsets || (grep.countMatches && grep.mode == .records && !grep.invert && grep.limit == nil) {
            outcome = run.listMatches(mode: offsets ? .lines : .count, color: color)
        } else {
            var settings = GrepSink.Settings()
            settings.mode = grep.countMatches && grep.mode == .records ? .count : grep.mode
            settings.countsMatches = grep.countMatches && grep.mode == .records && !grep.invert
            settings.matchTerminator = delimiter == .nul ? [0] : [0x0A]
            settings.invert = grep.invert
            settings.onlyMatching = grep.onlyMatching
            settings.lineNumber = grep.lineNumber
            settings.byteOffset = grep.byteOffset
            settings.maxCount = grep.limit
            settings.before = grep.before ?? grep.context ?? 0
            settings.after = grep.after ?? grep.context ?? 0
            settings.separators = grep.hasContext
            settings.groupSeparator = grep.contextSeparator
            settings.initialTab = grep.initialTab
            settings.color = color
            if color { settings.colors = GrepColors(legacy: legacyColor) }
            settings.terminator = run.delimiter.defaultTerminator
            settings.delimiterByte = run.delimiter.byte
            settings.nullAfterName = grep.nullAfterName
            settings.lineBuffered = grep.lineBuffered
            // grep in a UTF-8 locale: a line with an encoding error makes the input binary.
            settings.leavesOutEncodingErrors = reading.isGrep && !reading.bytesMode && run.binaryFiles != .text
            outcome = run.selectRecords(settings)
        }
        if outcome.truncated {
            let limit = run.maxRecordBytes
            printError("\(programName): warning: a record longer than \(limit) bytes was searched only in its first \(limit) bytes (see --max-record-bytes)")
        }
        // grep -q: a selected record is success, whatever went wrong before it.
        if grep.quiet && outcome.matched { throw ExitCode(0) }
        throw ExitCode(outcome.status.exitCode(matched: outcome.matched))
    }

}
