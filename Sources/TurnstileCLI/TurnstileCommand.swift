import ArgumentParser
import Turnstile

/// The `turnstile` command: a spam filter and matcher for text streams.
@main
struct TurnstileCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "turnstile",
        abstract: "A spam filter and pattern matcher for text streams, built on finite automata.",
        discussion: """
            Exit status (as grep): 0 when something matched, 1 when nothing did, 2 on an error.

            Examples:
              $ turnstile filter Corpora/messages/sample.txt
              $ turnstile filter --explain Corpora/messages/sample.txt
              $ turnstile rules > spam-rules.tsv
              $ turnstile match -F -e winner -e prize Corpora/messages/sample.txt
              $ turnstile compile -F -e winner -e prize --stats
            """,
        version: turnstileVersion,
        subcommands: [FilterCommand.self, MatchCommand.self, GrepCommand.self, CompileCommand.self, EvalCommand.self, TrainCommand.self,
                      RulesCommand.self, ServeCommand.self, LearnCommand.self])

    /// What bare `turnstile` prints to standard error (with exit status 2, as grep
    /// without a pattern): the subcommands, not the whole help.
    static let shortUsage = """
        usage: turnstile <subcommand> [options] [file ...]
          filter   let clean records through and hold back spam
          match    print the records (or the matches) a pattern finds, like grep
          grep     GNU grep's interface: BRE by default, -E, -F (also as a link named grep)
          compile  build, save, draw or measure the automaton
          eval     measure precision and recall on labelled records
          train    learn a weighted word list from labelled records
          rules    print the built-in rules with their weights
          serve    judge mail for spamc and other spamd clients
          learn    learn messages as spam or ham in a database (or forget them)
        Run 'turnstile --help' or 'turnstile <subcommand> --help' for more.
        """

    static func main() {
        // A closed pipe shows up as EPIPE from write(2), which ends the run quietly.
        signal(SIGPIPE, SIG_IGN)
        let arguments = personalityArguments(rawArguments())
        // serve handles TERM, INT and HUP from its first instruction (ServeCommand.run):
        // a signal that arrives while the arguments are read is held until then.
        if arguments.count > 1, arguments[1] == "serve" { ServeCommand.holdSignals() }
        if arguments.count < 2 {
            printError(shortUsage)
            terminate(2)
        }
        let asGrep = arguments[1] == "grep"
        do {
            ArgumentNormalizer.current = try ArgumentNormalizer().normalize(arguments)
        } catch {
            printError("\(programName): " + ((asGrep ? GNUUsageWords.message(for: error) : nil) ?? error.message))
            printUsageHint()
            terminate(2)
        }
        if asGrep {
            do {
                ArgumentNormalizer.current = try GNUUsageWords.checked(ArgumentNormalizer.current)
            } catch {
                printError("\(programName): " + error.message)
                if error.usageLines { printUsageHint() }
                terminate(2)
            }
        }
        let normalized = ArgumentNormalizer.current
        if normalized.count == 2, normalized[1] == "--version" {
            print(turnstileVersion)  // as ArgumentParser prints it, without reading every command
            terminate(0)
        }
        do {
            // match and grep: read from a table (QuickArguments); anything else, or any
            // line that table does not know for certain, by ArgumentParser.
            if let quick = QuickArguments.command(normalized) {
                try quick.run()
            } else {
                var command = try parseAsRoot(Array(normalized.dropFirst()))
                try command.run()
            }
            terminate(0)
        } catch let code as ExitCode {
            terminate(code.rawValue)
        } catch let failure as CommandFailure {
            printError("\(programName): " + failure.message)
            terminate(failure.status)
        } catch {
            if exitCode(for: error) == .success {
                exit(withError: error)   // --help, --version
            }
            let message = fullMessage(for: error)
                .split(separator: "\n", omittingEmptySubsequences: true)
                .first.map { String($0) } ?? "invalid arguments"
            let cleaned = message.hasPrefix("Error: ") ? String(message.dropFirst(7)) : message
            printError("\(programName): " + ((asGrep ? GNUUsageWords.message(forParserMessage: cleaned) : nil) ?? cleaned))
            printUsageHint()
            terminate(usageErrorStatus(normalized))
        }
    }

    /// A usage error's exit status: 2, but 75 (EX_TEMPFAIL) for `filter` reading mail —
    /// it runs in procmail and maildrop recipes, where a mistyped flag must keep the
    /// message for the MTA to retry rather than let it through unfiltered (issue 46).
    static func usageErrorStatus(_ arguments: [String]) -> Int32 {
        guard arguments.count > 1, arguments[1] == "filter" else { return 2 }
        let mailFormats: Set<String> = ["mbox", "eml", "maildir"]
        for (k, argument) in arguments.enumerated() {
            if argument == "--tag" || argument.hasPrefix("--tag-") { return 75 }
            if argument.hasPrefix("--format="), mailFormats.contains(String(argument.dropFirst(9))) { return 75 }
            if argument == "--format", k + 1 < arguments.count, mailFormats.contains(arguments[k + 1]) { return 75 }
        }
        return 2
    }
}

/// The command line as the subcommand parser reads it: run through a link named `grep`,
/// `egrep` or `fgrep`, turnstile is `turnstile grep` (with `-E` or `-F`), and its
/// messages start with `grep:`.
func personalityArguments(_ arguments: [String]) -> [String] {
    guard let program = arguments.first else { return arguments }
    let base = program.split(separator: "/").last.map(String.init) ?? program
    let added: [String]
    switch base {
    case "grep": added = ["grep"]
    case "egrep": added = ["grep", "-E"]
    case "fgrep": added = ["grep", "-F"]
    default: return arguments
    }
    programName = "grep"
    return [program] + added + arguments.dropFirst()
}

/// The line after a usage error: grep's when running as grep.
func printUsageHint() {
    if programName == "grep" {
        printError("Usage: grep [OPTION]... PATTERNS [FILE]...\nTry 'grep --help' for more information.")
    } else {
        printError("Run 'turnstile --help' or 'turnstile <subcommand> --help' for usage.")
    }
}

/// `turnstile --version` and `turnstile match --version`.
let turnstileVersion = "turnstile 0.9.0"
