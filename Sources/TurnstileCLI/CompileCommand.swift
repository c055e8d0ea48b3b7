import ArgumentParser
import Turnstile

/// `turnstile compile`: build an automaton once and save it, draw it or measure it.
struct CompileCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "compile",
        abstract: "Build the automaton for the rules: save it (-o), print it as DOT (--dot) or print its statistics (--stats).",
        discussion: """
            With no rule option the built-in spam list is compiled. With no output option
            the statistics are printed. A saved automaton keeps its rules, weights and
            options; load it with --automaton FILE in filter and match.

            Examples:
              $ turnstile compile -F -e he -e she -e his -e hers --stats
              strategy: literal-set (teddy)
              representation: aho-corasick
              storage: dense DFA
              patterns: 4
              ...
              $ turnstile compile -F -i -e winner --dot | dot -Tsvg > winner.svg
              $ turnstile compile -o spam.tsa
              $ printf 'Win a cash prize\\n' | turnstile filter --automaton spam.tsa --count
              clean 0 spam 1
            """)

    @OptionGroup(title: "Rule options") var ruleArguments: RuleArguments
    var rules: RuleOptions { ruleArguments.options }

    @Option(name: .customShort("o"), help: ArgumentHelp("Save the automaton to this file.", valueName: "file"))
    var outputFile: String?

    @Flag(name: .customLong("dot"), help: "Print the automaton as Graphviz DOT.")
    var dot = false

    @Flag(name: .customLong("stats"), help: "Print the search strategy, states, byte classes, the representation, memory and build time.")
    var stats = false

    func run() throws {
        let clock = ContinuousClock()
        let started = clock.now
        let (set, matcher) = try rules.withRuleSet(fallback: .standard) { ($0, try $0.matcher()) }
        let buildTime = clock.now - started
        let output = OutputWriter(fd: 1)
        var text = ""
        if let outputFile {
            let bytes: [UInt8]
            do { bytes = try set.serialized() } catch { throw CommandFailure(String(describing: error)) }
            try writeWholeFile(outputFile, bytes)
        }
        if dot {
            guard let dfa = matcher.denseDFA else {
                throw CommandFailure("this automaton has no dense table to draw (it has no patterns, or the regex uses the lazy DFA)")
            }
            text += dfa.dot(name: "turnstile")
        }
        if stats || (outputFile == nil && !dot) {
            let s = matcher.statistics
            let micros = buildTime / .microseconds(1)
            text += """
                strategy: \(s.strategy)
                representation: \(s.representation.rawValue)
                storage: \(s.storage)
                patterns: \(s.patterns)
                states: \(s.states)
                byte classes: \(s.byteClasses)
                memory bytes: \(s.memoryBytes)
                build time: \(formatRate(micros / 1000)) ms

                """
        }
        do {
            try output.write(text)
            try output.flush()
        } catch {
            if case .failed(let code) = error { throw CommandFailure("cannot write the output: \(errnoDescription(code))") }
        }
    }

}
