import ArgumentParser
import AutomatonCore
import Turnstile

/// `turnstile train`: learn a weighted word list from labelled records.
struct TrainCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "train",
        abstract: "Learn a weighted word list (a --rules file) and a threshold from labelled records.",
        discussion: """
            Splits each record into Unicode words, case-folded, keeping the words made
            only of ASCII letters, digits and '_' (the ones 'filter -F -w -i' matches
            exactly the same way). Scores each word by its smoothed log-odds of spam
            versus ham, with s and h the spam and ham records containing it, p the
            share of spam and a the smoothing:
                weight = ln((s + a*p) / (h + a*(1-p))) - ln(p / (1-p))
            and keeps the --top K words by |weight| that occur in at least --min-count
            records. Negative weights are evidence of ham. Writes 'word<TAB>weight'
            lines, heaviest first, with four decimals; the first line is
            '# threshold: T', the lowest threshold keeping training precision >= P
            (--min-precision) or the one that maximizes F1 on the training records
            (--best-f1), and the second '# flags: -F -i -w', so that 'filter --rules FILE'
            (and eval, compile) match and judge as trained without more flags; flags
            or --threshold given on the command line win. The same input always gives
            the same file, byte for byte.

            --include FILE adds curated phrases (one per line, '#' comments; weights
            ignored): each is weighted the same way, with --phrase-prior extra spam
            pseudo-records, and kept when its weight is positive.
            --exclude FILE lists words never kept; a line ending in ':' (such as
            'header:x-mailer:') leaves out every token with that prefix.
            --max-weight W clamps every weight to -W...W; --min-rules N proposes only
            thresholds above (N-1) x the heaviest positive weight, so that at least N
            rules must fire before a record is spam; --fp-cost C proposes the threshold
            minimizing C x false positives + false negatives on the training records;
            --threshold-folds K chooses it on held-out scores instead (each of K folds
            scored by a list trained on the others), the scores unseen mail gets.
            --folds K also cross-validates the whole procedure (stratified, --seed):
            each fold is held out in turn and judged by a list trained on the others.

            Defaults are the settings the built-in lists were chosen with: for lines,
            the SMS list's (--top 2000 --min-count 2 --smoothing 5 --min-precision
            0.99); for --format mbox|eml|maildir, the mail list's (--model chi-square
            --top 10000 --min-count 2 --smoothing 1 --max-weight 1.4 --exclude-numbers
            --fixed-threshold 0.9). --model chi-square combines the weights (each the
            logit of the word's spam probability) by Robinson's chi-square method, as
            bogofilter and SpamBayes do: the score lies in 0...1, below 0.2 is ham, from
            there to the threshold unsure; the threshold is fixed, so learning more mail
            never moves it. A proposed
            threshold at or below 0 (a record with no word of the list is spam) is
            warned about.

            Exit status: 0 when a list was written, 2 on an error.

            Examples:
              $ turnstile train -o words.tsv Corpora/eval/labelled.tsv
              $ turnstile filter --rules words.tsv msgs.txt      # its threshold and flags apply
              $ turnstile train --top 500 --min-precision 0.98 --folds 5 -o words.tsv train.tsv
              $ turnstile train --spam spam.txt --ham ham.txt > words.tsv
            """)

    @OptionGroup(title: "Labelled input") var input: LabelledInputOptions

    @Option(name: .customShort("o"), help: ArgumentHelp("Write the rules file here (default: standard output).", valueName: "file"))
    var outputFile: String?

    @Option(name: .customLong("top"),
            help: ArgumentHelp("Keep this many words (highest |weight| first; default 2000, mail 10000).", valueName: "k"))
    var top: Int?

    @Option(name: .customLong("min-count"),
            help: ArgumentHelp("A word must occur in at least this many records (default 2).", valueName: "n"))
    var minCount: Int?

    @Option(name: .customLong("smoothing"),
            help: ArgumentHelp("Pseudo-records shrinking each word towards the base rate (> 0; default 5, mail 1).", valueName: "a"))
    var smoothing: Double?

    @Flag(name: .customLong("positive-only"), help: "Keep only words with positive weights (evidence of spam).")
    var positiveOnly = false

    @Option(name: .customLong("min-precision"),
            help: ArgumentHelp("Propose the lowest threshold keeping training precision at or above this (0...1; default 0.99 for lines).",
                               valueName: "p"))
    var minPrecision: Double?

    @Flag(name: .customLong("best-f1"), help: "Propose the threshold with the best training F1.")
    var bestF1 = false

    @Flag(name: .customLong("bigrams"),
          help: "Also learn pairs of words separated by one space ('cash prize'), matched as -F -w -i phrases.")
    var bigrams = false

    @Option(name: .customLong("threshold-above"),
            help: ArgumentHelp("Consider only thresholds above this (0, the default for mail: a record in which no word is found is never spam).",
                               valueName: "t"))
    var thresholdAbove: Double?

    @Option(name: .customLong("max-weight"),
            help: ArgumentHelp("Clamp every weight to -w...w, so no one word carries more evidence than this.", valueName: "w"))
    var maxWeight: Double?

    @Option(name: .customLong("min-rules"),
            help: ArgumentHelp("Propose only thresholds above (n-1) x the heaviest positive weight: at least n rules must fire for spam.",
                               valueName: "n"))
    var minRules: Int?

    @Option(name: .customLong("fp-cost"),
            help: ArgumentHelp("Propose the threshold minimizing c x false positives + false negatives (a ham judged spam costs c missed spam).",
                               valueName: "c"))
    var fpCost: Double?

    @Option(name: .customLong("threshold-folds"),
            help: ArgumentHelp("Choose the threshold on held-out scores: each of k folds of the records scored by a list trained on the others.",
                               valueName: "k"))
    var thresholdFolds: Int?

    @Option(name: .customLong("model"),
            help: ArgumentHelp("How weights combine: 'sum' (a sum against the threshold) or 'chi-square' (Robinson's chi-square combining, score 0...1).",
                               valueName: "model"))
    var model: String?

    @Option(name: .customLong("max-spam-weight"),
            help: ArgumentHelp("Clamp positive weights (evidence of spam) to at most this.", valueName: "w"))
    var maxSpamWeight: Double?

    @Flag(name: .customLong("exclude-numbers"), help: "Leave out tokens made only of digits (dates and times of the corpus's era).")
    var excludeNumbers = false

    @Option(name: .customLong("fixed-threshold"),
            help: ArgumentHelp("Write this threshold instead of choosing one (learning never moves it).", valueName: "t"))
    var fixedThreshold: Double?

    @Option(name: .customLong("include"), help: ArgumentHelp("Curated phrases to weigh and include (repeatable).", valueName: "file"))
    var includeFiles: [String] = []

    @Option(name: .customLong("exclude"),
            help: ArgumentHelp("Words never to keep, one per line (repeatable; e.g. offensive words).", valueName: "file"))
    var excludeFiles: [String] = []

    @Option(name: .customLong("phrase-prior"), help: ArgumentHelp("Extra spam pseudo-records for each curated phrase.", valueName: "b"))
    var phrasePrior = 1.0

    @Option(name: .customLong("prior"),
            help: ArgumentHelp("Start every weight from this list's evidence: 'builtin' (the built-in mail list, the default for mail; the file then ends with its present-day rules) or 'none'.",
                               valueName: "builtin|none"))
    var prior: String?

    @Option(name: .customLong("prior-strength"),
            help: ArgumentHelp("How many messages the prior is worth before any is learned (default 30; it fades as the smaller class grows).", valueName: "k"))
    var priorStrength: Double?

    @Option(name: .customLong("min-deviation"),
            help: ArgumentHelp("Keep only tokens whose spam probability lies at least d from 0.5 (0...0.5; default 0).", valueName: "d"))
    var minDeviation: Double?

    @Option(name: .customLong("title"), help: ArgumentHelp("The title on the file's second line.", valueName: "text"))
    var title: String?

    @Option(name: .customLong("folds"), help: ArgumentHelp("Also cross-validate with this many folds (2 or more).", valueName: "k"))
    var folds: Int?

    @Option(name: .customLong("seed"), help: ArgumentHelp("The seed of the cross-validation's fold assignment.", valueName: "n"))
    var seed: UInt64 = 1

    func validate() throws {
        if let top, top < 0 { throw ValidationError("--top must be at least 0") }
        if let smoothing, !(smoothing > 0 && smoothing.isFinite) { throw ValidationError("--smoothing must be a positive number") }
        if [bestF1, minPrecision != nil, fpCost != nil].filter({ $0 }).count > 1 {
            throw ValidationError("choose one of --best-f1, --min-precision and --fp-cost")
        }
        if let maxWeight, !(maxWeight > 0 && maxWeight.isFinite) { throw ValidationError("--max-weight must be a positive number") }
        if let minRules, minRules < 1 { throw ValidationError("--min-rules must be at least 1") }
        if let thresholdFolds, thresholdFolds < 2 { throw ValidationError("--threshold-folds must be at least 2") }
        if let fpCost, !(fpCost > 0 && fpCost.isFinite) { throw ValidationError("--fp-cost must be a positive number") }
        if let p = minPrecision, !(p >= 0 && p <= 1) { throw ValidationError("--min-precision must be between 0 and 1") }
        if !(phrasePrior >= 0 && phrasePrior.isFinite) { throw ValidationError("--phrase-prior must be a number at least 0") }
        if let folds, folds < 2 { throw ValidationError("--folds must be at least 2") }
        if let maxSpamWeight, !(maxSpamWeight > 0 && maxSpamWeight.isFinite) { throw ValidationError("--max-spam-weight must be a positive number") }
        if let model, ScoreModel(header: model) == nil { throw ValidationError("--model must be 'sum' or 'chi-square'") }
        if let fixedThreshold, !fixedThreshold.isFinite { throw ValidationError("--fixed-threshold must be a number") }
        if let prior, prior != "builtin" && prior != "none" { throw ValidationError("--prior must be 'builtin' or 'none'") }
        if prior == "builtin", !input.mail.format.isMail { throw ValidationError("--prior builtin needs a mail --format") }
        if let minDeviation, !(minDeviation >= 0 && minDeviation < 0.5) { throw ValidationError("--min-deviation must be at least 0 and below 0.5") }
        if let priorStrength, !(priorStrength > 0 && priorStrength.isFinite) { throw ValidationError("--prior-strength must be a positive number") }
        if let title, title.contains("\n") { throw ValidationError("--title must be one line") }
    }

    func run() throws {
        // The settings the built-in list of the format was chosen with, unless given.
        // Mail starts from the built-in list (as a learning database does), unless --prior none.
        let startsFromBuiltin = (prior ?? (input.mail.format.isMail ? "builtin" : "none")) == "builtin"
        var trainer = startsFromBuiltin ? SpamTrainer.learnedMailSettings : SpamTrainer.chosenSettings(for: input.mail.format)
        if startsFromBuiltin, let priorStrength { trainer.prior?.strength = priorStrength }
        // --model first: it brings its own threshold rule, which the options below refine.
        if let model, let m = ScoreModel(header: model), m != trainer.model {
            trainer.model = m
            if m == .sum, case .fixed = trainer.thresholdRule { trainer.thresholdRule = .minCost(falsePositiveCost: 10) }
            // The built-in prior is a chi-square list's log-odds.
            if m == .sum { trainer.prior = nil }
            if m == .chiSquare { trainer.thresholdRule = .fixed(ScoreModel.spamCutoff); trainer.maxWeight = nil; trainer.minRulesToFlag = nil }
        }
        if let top { trainer.top = top }
        if let minCount { trainer.minCount = minCount }
        if let smoothing { trainer.smoothing = smoothing }
        trainer.negativeWeights = !positiveOnly
        trainer.phrasePrior = phrasePrior
        if let minPrecision { trainer.thresholdRule = .minPrecision(minPrecision) }
        if bestF1 { trainer.thresholdRule = .bestF1 }
        if let fpCost { trainer.thresholdRule = .minCost(falsePositiveCost: fpCost) }
        if let maxWeight { trainer.maxWeight = maxWeight }
        if let minRules { trainer.minRulesToFlag = minRules }
        if let thresholdFolds { trainer.thresholdFolds = thresholdFolds }
        if let thresholdAbove { trainer.thresholdAbove = thresholdAbove }
        if let fixedThreshold { trainer.thresholdRule = .fixed(fixedThreshold) }
        if excludeNumbers { trainer.excludesNumbers = true }
        if let maxSpamWeight { trainer.maxSpamWeight = maxSpamWeight }
        if let minDeviation { trainer.minDeviation = minDeviation }

        var phrases: [[UInt8]] = []
        do {
            for path in includeFiles {
                phrases += try RuleFile.parse(readWhole(path), source: path).map(\.pattern)
            }
            for path in excludeFiles {
                for rule in try RuleFile.parse(readWhole(path), source: path) {
                    // A line ending in ':' ("header:x-mailer:") leaves out every token of that scope.
                    let entry = asciiLowercased(rule.pattern)
                    if entry.last == UInt8(ascii: ":") { trainer.excludedPrefixes.append(entry) }
                    else { trainer.excludedWords.insert(entry) }
                }
            }
        } catch {
            throw CommandFailure(String(describing: error))
        }
        let records = try input.readAll()
        let report = OutputWriter(fd: outputFile == nil || outputFile == "-" ? 2 : 1)
        var summary = ""
        let list: TrainedList
        do {
            let set = try TrainingSet(records: records, phrases: phrases, format: input.mail.format, bigrams: bigrams)
            if let folds {
                let results = try CrossValidation.run(set, trainer: trainer, folds: folds, seed: seed)
                summary += Self.crossValidationReport(results, seed: seed)
            }
            list = try trainer.train(set)
        } catch {
            throw CommandFailure(String(describing: error))
        }
        var file = list.ruleFileText(trainer: trainer, title: title,
                                     phraseSource: includeFiles.isEmpty ? nil : includeFiles.joined(separator: ", "))
        if trainer.prior != nil { file = learnedRuleFileWithBuiltins(list, trainer: trainer, title: title) }
        if let outputFile {
            try writeWholeFile(outputFile, Array(file.utf8))
        } else {
            let output = OutputWriter(fd: 1)
            do { try output.write(file); try output.flush() } catch {
                if case .failed(let code) = error { throw CommandFailure("cannot write the output: \(errnoDescription(code))") }
                return
            }
        }
        let m = list.threshold.matrix
        let f = { (x: Double) in SpamTrainer.fixed(x, decimals: 4) }
        summary += "trained on \(records.count) records (\(list.spamRecords) spam, \(list.hamRecords) ham): \(list.words.count) words"
        summary += includeFiles.isEmpty ? "" : " + \(list.phrases.count) curated phrases"
        summary += "\nproposed threshold \(ScorePrecision.text(list.threshold.threshold)): "
        summary += "training precision \(f(m.precision)), recall \(f(m.recall)), F1 \(f(m.f1)) (tp \(m.tp), fp \(m.fp), tn \(m.tn), fn \(m.fn))\n"
        if list.threshold.threshold <= 0 {
            summary += "warning: the proposed threshold \(ScorePrecision.text(list.threshold.threshold)) is not above 0: a record in which no word of the list is found is spam; --threshold-above 0 keeps it above\n"
        }
        do { try report.write(summary); try report.flush() } catch {}
    }

    /// Per-fold and mean held-out figures.
    static func crossValidationReport(_ folds: [CrossValidation.Fold], seed: UInt64) -> String {
        let f = { (x: Double) in SpamTrainer.fixed(x, decimals: 4) }
        var out = "cross-validation, \(folds.count) folds (seed \(seed)), held-out figures:\n"
        for (k, fold) in folds.enumerated() {
            let m = fold.heldOut
            out += "  fold \(k + 1): threshold \(ScorePrecision.text(fold.threshold)), "
            out += "precision \(f(m.precision)), recall \(f(m.recall)), F1 \(f(m.f1)) (tp \(m.tp), fp \(m.fp), tn \(m.tn), fn \(m.fn))\n"
        }
        let pooled = folds.map(\.heldOut).reduce(ConfusionMatrix(), +)
        out += "  mean: precision \(f(CrossValidation.mean(folds, \.precision))), recall \(f(CrossValidation.mean(folds, \.recall))), F1 \(f(CrossValidation.mean(folds, \.f1)))\n"
        out += "  pooled: precision \(f(pooled.precision)), recall \(f(pooled.recall)), F1 \(f(pooled.f1)) (tp \(pooled.tp), fp \(pooled.fp), tn \(pooled.tn), fn \(pooled.fn))\n"
        return out
    }

}
