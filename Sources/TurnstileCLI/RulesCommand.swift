import ArgumentParser
import Turnstile

/// `turnstile rules`: print a rule list as a rules file — the built-in list by default —
/// so that what the filter uses can be read, and edited and given back with `--rules`.
struct RulesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rules",
        abstract: "Print a rule list in the rules-file format: the built-in spam list by default.",
        discussion: """
            Prints 'pattern<TAB>weight' per line under the header that 'train' writes
            and '--rules' reads: '# threshold: T' (the list's own threshold) and
            '# flags: -F -i -w' (how it is matched), then the list's description as
            comments. So 'turnstile filter --rules FILE' on the printed file judges
            every record as the list itself does. With --mail, the built-in mail list;
            with rule options (--automaton FILE, --rules, -e, -f), that list.

            Exit status: 0 when the list was printed, 2 on an error.

            Examples:
              $ turnstile rules | head -2
              # threshold: 6.9523
              # flags: -F -i -w
              $ turnstile rules | grep -c -v '^#'
              2133
              $ turnstile rules > spam-rules.tsv
              $ turnstile filter --rules spam-rules.tsv --count Corpora/messages/sample.txt
              clean 18 spam 10
              $ turnstile rules --mail | head -1
              # threshold: 0.9
            """)

    @OptionGroup(title: "Rule options") var ruleArguments: RuleArguments
    var rules: RuleOptions { ruleArguments.options }

    @Flag(name: .customLong("mail"), help: "Print the built-in mail list (the default with --format mbox|eml|maildir).")
    var mail = false

    func validate() throws {
        if mail, !rules.isEmpty { throw ValidationError("--mail prints the built-in mail list; it cannot be combined with rule options") }
    }

    func run() throws {
        // Without rule options: the built-in list, with the rules of any --add-rules file after it.
        let set = try rules.withRuleSet(fallback: mail ? .standardMail : .standard) { $0 }
        var comments = rules.isEmpty
            ? RuleFile.leadingComments(in: Array((mail ? DefaultMailList.source : DefaultSpamList.source).utf8)) : []
        for (id, rule) in set.rules.enumerated() {
            if let reason = RuleFile.unwritableReason(rule.pattern) {
                throw CommandFailure("rule \(id) cannot be written as a rules-file line: \(reason)")
            }
        }
        if let note = set.fileNote { comments.insert(note, at: 0) }
        let output = OutputWriter(fd: 1)
        do {
            try output.write(RuleFile(set, comments: comments).bytes())
            try output.flush()
        } catch {
            if case .failed(let code) = error { throw CommandFailure("cannot write the output: \(errnoDescription(code))") }
        }
    }
}
