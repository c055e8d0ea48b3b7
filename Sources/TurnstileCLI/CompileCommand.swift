import ArgumentParser
import Turnstile

/// `turnstile compile`: build an automaton once and inspect or save it.
struct CompileCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compile",
        abstract: "Build the automaton for the rules and save it, print it as DOT, or print its statistics.",
        discussion: """
            With no rule option the built-in spam list is compiled. With no output option
            the statistics are printed (as with --stats).

            Examples:
              $ turnstile compile -F -e he -e she -e his -e hers --stats
              representation: aho-corasick
              patterns: 4
              states: 10
              ...
              $ turnstile compile --stats
            """)

    @OptionGroup(title: "Rule options") var rules: RuleOptions

    @Option(name: .customShort("o"), help: ArgumentHelp("Save the automaton to this file.", valueName: "file"))
    var outputFile: String?

    @Flag(name: .customLong("dot"), help: "Print the automaton as Graphviz DOT.")
    var dot = false

    @Flag(name: .customLong("stats"), help: "Print states, byte classes, the representation, memory and build time.")
    var stats = false

    func run() throws {
        let clock = ContinuousClock()
        let started = clock.now
        let matcher: Matcher
        do {
            if rules.isEmpty {
                matcher = try SpamFilter.standard().matcher
            } else {
                let (list, options) = try rules.rules()
                matcher = try Matcher(bytePatterns: list.map(\.pattern), options: options)
            }
        } catch {
            throw CommandFailure(error.description)
        }
        let buildTime = clock.now - started
        if outputFile != nil {
            throw CommandFailure("saving an automaton (-o) is not yet supported by this build")
        }
        if dot {
            throw CommandFailure("DOT export (--dot) is not yet supported by this build")
        }
        let s = matcher.statistics
        let micros = buildTime / .microseconds(1)
        let output = OutputWriter(fd: 1)
        do {
            try output.write("""
                representation: \(s.representation.rawValue)
                patterns: \(s.patterns)
                states: \(s.states)
                byte classes: \(s.byteClasses)
                memory bytes: \(s.memoryBytes)
                build time: \(formatRate(micros / 1000)) ms

                """)
            try output.flush()
        } catch {
            if case .failed(let code) = error { throw CommandFailure("cannot write the output: \(errnoDescription(code))") }
        }
    }
}
