import ArgumentParser
import AutomatonCore
import LearningStore
import Turnstile
import TurnstileServer

/// `turnstile learn`: correct the filter's mistakes without a full retrain, as
/// `sa-learn --spam` and `bogofilter -s` do.
struct LearnCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "learn",
        abstract: "Learn messages as spam or ham (or forget them) in a database that filter and serve use.",
        discussion: """
            Each message's tokens (the ones 'train --format' counts) are added to the
            per-token spam and ham counts in an SQLite database (created when absent),
            one transaction per message: a message learned twice counts once, one
            learned as the other class moves, --forget takes a message back.
            'filter --db PATH' and 'serve --db PATH' judge with the list 'train' would
            write for the learned messages (the mail settings: --model chi-square --top
            10000 --min-count 2 --smoothing 1 --max-weight 4.6, every token starting
            from the built-in list's weight), together with the built-in present-day
            rules, judged at the built-in mail list's threshold
            (or --threshold): learning changes token counts, never the threshold. Until
            the database holds both spam and ham, they judge with the built-in list.
            --list prints the learned list, the built-in rules at its end. The database
            keeps token counts and each message's SHA-256, never a message. With
            --db-dir DIR --user U it is DIR/U.db, the file 'serve --db-dir' judges U's
            requests with.

            Examples:
              $ turnstile learn --db learned.db --format mbox --spam spam.mbox
              $ turnstile learn --db learned.db --format mbox --ham ham.mbox
              $ turnstile learn --db learned.db --forget wrongly-learned.eml
              $ turnstile filter --format mbox --db learned.db inbox.mbox
              $ turnstile learn --db learned.db --list > learned-words.tsv
              $ turnstile learn --db-dir /var/lib/turnstile/users --user alice --spam junk.eml
            """)

    @Option(name: .customLong("db"), help: ArgumentHelp("The SQLite database to learn into.", valueName: "path"))
    var dbPath: String?

    @Option(name: .customLong("db-dir"),
            help: ArgumentHelp("The folder of per-user databases ('serve --db-dir'): with --user U, learn into DIR/U.db.", valueName: "dir"))
    var dbDir: String?

    @Option(name: .customLong("user"), help: ArgumentHelp("With --db-dir: the user whose database to learn into (spamc -u's name).", valueName: "name"))
    var user: String?

    /// The database file: --db, or the user's in --db-dir.
    var db: String { dbPath ?? (dbDir ?? ".") + "/" + (user ?? "") + ".db" }

    @Flag(name: .customLong("spam"), help: "Learn the messages as spam.")
    var spam = false

    @Flag(name: .customLong("ham"), help: "Learn the messages as ham.")
    var ham = false

    @Flag(name: .customLong("forget"), help: "Forget the messages (take back what learning them added).")
    var forget = false

    @Flag(name: .customLong("list"), help: "Print the weighted list the database gives (a --rules file, as train writes it).")
    var list = false

    @Option(name: .customLong("format"),
            help: ArgumentHelp("The files are e-mail files (eml, the default; folders are walked), mbox files or Maildir folders.",
                               valueName: "eml|mbox|maildir"))
    var format: RecordFormat = .eml

    @Option(name: .customLong("max-record-bytes"),
            help: ArgumentHelp("A longer message is learned from its first N bytes, as filter judges it.", valueName: "n"))
    var maxRecordBytes: Int = RecordReader.defaultMaxRecordBytes

    @Argument(help: ArgumentHelp("The messages.", valueName: "file"))
    var files: [String] = []

    func validate() throws {
        if (dbPath == nil) == (dbDir == nil) { throw ValidationError("give one of --db and --db-dir") }
        if (dbDir == nil) != (user == nil) { throw ValidationError("--db-dir and --user go together") }
        if let user, !UserJudgeStores.isUserName(user) {
            throw ValidationError("--user \(user): a user name is 1 to 64 ASCII letters, digits and ._@+- (not starting with '.')")
        }
        let modes = [spam, ham, forget, list].filter { $0 }.count
        if modes != 1 { throw ValidationError("give one of --spam, --ham, --forget and --list") }
        if !format.isMail { throw ValidationError("--format must be eml, mbox or maildir") }
        if list, !files.isEmpty { throw ValidationError("--list reads no files") }
        if !list, files.isEmpty { throw ValidationError("name the message files to learn") }
        if maxRecordBytes < 1 { throw ValidationError("--max-record-bytes must be at least 1") }
    }

    func run() throws {
        // As `serve --db-dir`: the folder of per-user databases is the administrator's
        // to create (its owner and mode decide who may read the users' files), so a
        // missing one is named, not created, nor reported in SQLite's words.
        if let dbDir {
            var status = stat()
            guard stat(dbDir, &status) == 0, (status.st_mode & S_IFMT) == S_IFDIR else {
                throw CommandFailure("\(dbDir): no such folder (--db-dir)")
            }
        }
        let database: LearningDatabase
        do { database = try LearningDatabase(path: db) } catch { throw CommandFailure(error.description) }
        if list {
            let trainer = SpamTrainer.learnedSettings
            let learned: TrainedList
            do { learned = try database.trainedList(trainer: trainer) } catch { throw CommandFailure("\(db): \(error)") }
            let output = OutputWriter(fd: 1)
            do throws(OutputError) {
                try output.write(learnedRuleFileWithBuiltins(learned, trainer: trainer))
                try output.flush()
            } catch .failed(let code) {
                throw CommandFailure("cannot write the output: \(errnoDescription(code))")
            } catch {
                // The reader went away (`learn --list | head -1`): it has what it
                // wanted, so stop quietly with 0, as match and filter do on a closed pipe.
            }
            return
        }
        let inputs = try format == .maildir ? maildirFiles(files) : expandFolders(files)
        var tally: [String: Int] = [:]
        for path in inputs {
            try eachRecord(in: path, delimiter: format.delimiter(lines: .line), maxRecordBytes: maxRecordBytes) { _, record in
                let message = Array(record)
                do {
                    if forget {
                        tally[try database.forget(message, format: format) ? "forgotten" : "not learned", default: 0] += 1
                    } else {
                        switch try database.learn(message, format: format, as: spam ? .spam : .ham) {
                        case .learned: tally["learned", default: 0] += 1
                        case .moved: tally["moved", default: 0] += 1
                        case .unchanged: tally["already learned", default: 0] += 1
                        }
                    }
                } catch let error as LearningStoreError {
                    throw CommandFailure(error.description)
                }
            }
        }
        let order = ["learned", "moved", "already learned", "forgotten", "not learned"]
        let counts = try database.messageCounts()
        printError("turnstile learn: " + order.compactMap { key in tally[key].map { "\(key) \($0)" } }.joined(separator: ", ")
                   + "; the database holds \(counts.spam) spam and \(counts.ham) ham")
    }
}

/// The learned rules followed by the built-in present-day rules
/// (``DefaultMailList/builtinRules``), a learned token that a built-in rule also names
/// left to the rule: the built-in indicators are weighed together with what was learned,
/// as in the built-in list, and each counts once.
func learnedRulesWithBuiltins(_ learned: [SpamFilter.Rule]) -> [SpamFilter.Rule] {
    let builtin = DefaultMailList.builtinRules
    let named = Set(builtin.map { asciiLowercased($0.pattern) })
    return learned.filter { !named.contains(asciiLowercased($0.pattern)) } + builtin
}

/// The rules file of a learned list (`learn --list`, `train` with a prior): its trained
/// tokens without those a built-in rule names, then the built-in present-day rules —
/// the same rules ``learnedRulesWithBuiltins(_:)`` judges with.
func learnedRuleFileWithBuiltins(_ list: TrainedList, trainer: SpamTrainer, title: String? = nil) -> String {
    let named = Set(DefaultMailList.builtinRules.map { asciiLowercased($0.pattern) })
    var trained = list
    trained.words = list.words.filter { !named.contains(asciiLowercased($0.pattern)) }
    return trained.ruleFileText(trainer: trainer, title: title) + "\n" + DefaultMailList.builtinRulesSource
}

extension SpamTrainer {
    /// A learning database's settings: the mail list's, at the built-in list's fixed
    /// threshold, starting from the built-in list's evidence (``LearningPrior``).
    static var learnedSettings: SpamTrainer {
        var trainer = SpamTrainer.learnedMailSettings
        trainer.thresholdRule = .fixed(DefaultMailList.threshold)
        return trainer
    }
}

/// The rule set of a learning database (`filter --db`, `serve --db`): the list `train`
/// writes for its messages, judged at the built-in mail list's threshold — learning
/// moves token counts, never the threshold (`--threshold` still sets it). A database
/// that does not yet hold both spam and ham judges with the built-in list, so that a
/// fresh one can be filled (`spamc -L`). Judging never creates a database: a path that
/// does not exist is an error (a typo must not filter with nothing).
func learnedRuleSet(_ path: String) throws -> RuleSet {
    var status = stat()
    guard stat(path, &status) == 0 else {
        throw CommandFailure("\(path): no such learning database (create it with 'turnstile learn --db \(path)')",
                             status: 75)
    }
    do {
        let database = try LearningDatabase(path: path)
        let counts = try database.messageCounts()
        guard counts.spam > 0, counts.ham > 0 else { return .standardMail }
        let list = try database.trainedList(trainer: .learnedSettings)
        var set = list.ruleSet
        set.rules = learnedRulesWithBuiltins(set.rules)
        return set
    } catch let error as LearningStoreError {
        throw CommandFailure(error.description)
    } catch {
        throw CommandFailure("\(path): \(error)")
    }
}
