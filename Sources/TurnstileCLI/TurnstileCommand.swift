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
        subcommands: [FilterCommand.self, MatchCommand.self, CompileCommand.self, EvalCommand.self, TrainCommand.self,
                      RulesCommand.self])

    static func main() {
        // A closed pipe shows up as EPIPE from write(2), which ends the run quietly.
        signal(SIGPIPE, SIG_IGN)
        do {
            var command = try parseAsRoot()
            try command.run()
            terminate(0)
        } catch let code as ExitCode {
            terminate(code.rawValue)
        } catch let failure as CommandFailure {
            printError("turnstile: " + failure.message)
            terminate(2)
        } catch {
            if exitCode(for: error) == .success {
                exit(withError: error)   // --help, --version
            }
            let message = fullMessage(for: error)
                .split(separator: "\n", omittingEmptySubsequences: true)
                .first.map { String($0) } ?? "invalid arguments"
            let cleaned = message.hasPrefix("Error: ") ? String(message.dropFirst(7)) : message
            printError("turnstile: " + cleaned)
            printError("Run 'turnstile --help' or 'turnstile <subcommand> --help' for usage.")
            terminate(2)
        }
    }
}
