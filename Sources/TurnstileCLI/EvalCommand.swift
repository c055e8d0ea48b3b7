import ArgumentParser
import Turnstile

/// `turnstile eval`: how good is a spam list on labelled records?
struct EvalCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "eval",
        abstract: "Measure a spam list on labelled records: confusion matrix, precision, recall, F1, accuracy.",
        discussion: """
            Reads labelled records — 'spam<TAB>text' or 'ham<TAB>text' per line (the SMS
            Spam Collection's format), or unlabelled records from --spam and --ham files
            or folders, cut by --delimiter — and judges each one exactly as 'filter'
            does, with the same rule options (the built-in list and its own threshold
            when none is given). Spam is the positive class. Prints the confusion
            matrix, precision, recall, F1 and accuracy, and the 20 rules of positive
            weight that fired in the most ham records (false-positive culprits) and
            spam records (rules of weight 0 or less never push a record to spam).
            Blank lines are skipped; a line with another label is an error.

            Exit status: 0 when the records were evaluated, 2 on an error.

            Examples:
              $ turnstile eval Corpora/eval/labelled.tsv
              $ turnstile eval --json Corpora/eval/labelled.tsv
              {"tp":6,"fp":0,"tn":6,"fn":0,"precision":1,"recall":1,"f1":1,"accuracy":1,...}
              $ turnstile eval -F -w -i --rules words.tsv --threshold 2.5 train.tsv
              $ turnstile eval --spam spam-folder --ham ham-folder --delimiter none
            """)

    @OptionGroup(title: "Rule options") var ruleArguments: RuleArguments
    var rules: RuleOptions { ruleArguments.options }
    @OptionGroup(title: "Labelled input") var input: LabelledInputOptions

    @Option(name: .customLong("threshold"),
            help: ArgumentHelp("A record is spam when its score reaches this (default: the built-in list's own threshold with no rule option, else 1).",
                               valueName: "t"))
    var threshold: Double?

    @Flag(name: .customLong("json"),
          help: "Print one JSON object whose first keys are tp, fp, tn, fn, precision, recall, f1, accuracy.")
    var json = false

    @Option(name: .customLong("top"), help: ArgumentHelp("How many rules to list for ham and for spam.", valueName: "n"))
    var top = 20

    func validate() throws {
        if let threshold, !threshold.isFinite { throw ValidationError("--threshold must be a finite number") }
        if top < 0 { throw ValidationError("--top must be at least 0") }
    }

    func run() throws {
        var evaluation: SpamEvaluation
        let format = input.mail.format
        evaluation = try rules.withRuleSet(fallback: format.isMail ? .standardMail : .standard) { set in
            format.isMail ? SpamEvaluation(mail: try MailJudge(rules: set, threshold: threshold))
                : SpamEvaluation(filter: try set.spamFilter(threshold: threshold))
        }
        try input.forEachRecord { isSpam, text in
            if format.isMail {
                evaluation.add(isSpam: isSpam, message: format.message(of: text))
            } else {
                evaluation.add(isSpam: isSpam, record: text)
            }
        }
        let mailProblems = format.isMail ? evaluation.problems : nil
        let text = json ? Self.json(evaluation, top: top, problems: mailProblems)
            : Self.report(evaluation, top: top, problems: mailProblems)
        let output = OutputWriter(fd: 1)
        do {
            try output.write(text)
            try output.flush()
        } catch {
            if case .failed(let code) = error { throw CommandFailure("cannot write the output: \(errnoDescription(code))") }
        }
    }

    /// The human report.
    static func report(_ e: SpamEvaluation, top: Int, problems: MailDecodingProblems? = nil) -> String {
        let m = e.matrix
        func pad(_ s: String, _ width: Int) -> String { String(repeating: " ", count: max(0, width - s.count)) + s }
        func f(_ x: Double) -> String { SpamTrainer.fixed(x, decimals: 4) }
        var out = "records \(m.total): \(m.spam) spam, \(m.ham) ham; threshold \(e.filter.precision.text(e.filter.threshold)), \(e.filter.rules.count) rules\n\n"
        out += "              judged spam  judged ham\n"
        out += "actual spam " + pad("\(m.tp)", 13) + pad("\(m.fn)", 12) + "\n"
        out += "actual ham  " + pad("\(m.fp)", 13) + pad("\(m.tn)", 12) + "\n\n"
        out += "tp \(m.tp)  fp \(m.fp)  tn \(m.tn)  fn \(m.fn)\n"
        out += "precision \(f(m.precision))\nrecall    \(f(m.recall))\nF1        \(f(m.f1))\naccuracy  \(f(m.accuracy))\n"
        if let problems {
            out += "decoding problems \(problems.total)"
            out += problems.nonZero.isEmpty ? "\n" : " (" + problems.nonZero.map { "\($0.kind) \($0.count)" }.joined(separator: ", ") + ")\n"
        }
        for onSpam in [false, true] {
            let rows = e.topRules(onSpam: onSpam, limit: top)
            out += onSpam
                ? "\nRules of positive weight that fired in the most spam records:\n      spam  caught    weight  rule\n"
                : "\nRules of positive weight that fired in the most ham records (false-positive culprits):\n       ham  judged spam  weight  rule\n"
            if rows.isEmpty { out += "  (none)\n" }
            for r in rows {
                let pattern = String(decoding: r.rule.pattern, as: UTF8.self)
                out += pad("\(r.records)", 10) + pad("\(r.judgedSpam)", onSpam ? 8 : 13)
                    + pad(e.filter.precision.text(r.rule.weight), onSpam ? 10 : 8) + "  " + pattern + "\n"
            }
        }
        return out
    }

    /// The JSON object, keys in a fixed order (written by hand).
    static func json(_ e: SpamEvaluation, top: Int, problems: MailDecodingProblems? = nil) -> String {
        let m = e.matrix
        func n(_ x: Double) -> String { ScorePrecision.text(x) }
        let p = e.filter.precision
        var out = "{\"tp\":\(m.tp),\"fp\":\(m.fp),\"tn\":\(m.tn),\"fn\":\(m.fn)"
        out += ",\"precision\":\(n(m.precision)),\"recall\":\(n(m.recall)),\"f1\":\(n(m.f1)),\"accuracy\":\(n(m.accuracy))"
        out += ",\"records\":\(m.total),\"spam\":\(m.spam),\"ham\":\(m.ham),\"threshold\":\(p.text(e.filter.threshold))"
        out += ",\"rules\":\(e.filter.rules.count)"
        for (key, onSpam, judged) in [("top_ham_rules", false, "false_positives"), ("top_spam_rules", true, "caught")] {
            out += ",\"\(key)\":["
            out += e.topRules(onSpam: onSpam, limit: top).map { r in
                var s: [UInt8] = []
                r.rule.pattern.withUnsafeBufferPointer { Rendering.appendJSONString($0, to: &s) }
                return "{\"rule\":\(r.id),\"pattern\":\(String(decoding: s, as: UTF8.self)),\"weight\":\(p.text(r.rule.weight)),\"records\":\(r.records),\"\(judged)\":\(r.judgedSpam)}"
            }.joined(separator: ",")
            out += "]"
        }
        if let problems {
            out += ",\"decoding_problems\":{\"total\":\(problems.total)"
            for (kind, n) in problems.nonZero { out += ",\"\(kind)\":\(n)" }
            out += "}"
        }
        return out + "}\n"
    }
}
