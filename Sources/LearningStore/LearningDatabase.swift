import Turnstile

// `turnstile learn`'s database: per-token spam and ham counts — the numbers `train`
// weighs — and the messages learned, so that a message learned twice counts once, a
// message learned as the other class moves, `--forget` takes back exactly what was
// added, and the threshold can be chosen on the learned messages as `train` chooses
// it. SQLite in WAL mode: a reader (`serve --db`, `filter --db`) reads while a
// writer learns; each message is learned in a transaction of its own, so a crash
// (kill -9) loses nothing committed before it (synchronous=NORMAL is durable across
// a process crash; a power loss may lose the last commits, never corrupt the file).
//
// Schema (PRAGMA user_version 1):
//   tokens(token BLOB PRIMARY KEY, spam INTEGER, ham INTEGER)  -- messages containing it
//   messages(digest INTEGER, spam INTEGER, unquote INTEGER, message BLOB)
// A token is a MailTokens token (`free`, `subject:free`, `header:x-mailer:outlook`).

/// A message's class in the database.
public enum LearnedClass: Sendable, Hashable {
    case spam, ham
}

/// The learning database.
///
/// ```swift
/// let db = try LearningDatabase(path: "learned.db")
/// try db.learn(Array("Subject: win\r\n\r\nclaim now".utf8), as: .spam)   // .learned
/// let list = try db.trainedList(trainer: .mailSettings)
/// ```
public final class LearningDatabase {
    private let connection: SQLiteConnection
    public var path: String { connection.path }

    /// What learning one message did.
    public enum Outcome: Sendable, Hashable {
        /// Newly learned.
        case learned
        /// It was learned as the other class: moved.
        case moved
        /// Already learned as this class: nothing changed.
        case unchanged
    }

    /// Opens (creating when absent) the database at `path`.
    public init(path: String) throws(LearningStoreError) {
        connection = try SQLiteConnection(path: path)
        try connection.execute("PRAGMA journal_mode=WAL")
        try connection.execute("PRAGMA synchronous=NORMAL")
        var version: Int64 = 0
        try connection.prepare("PRAGMA user_version").query([]) { version = $0.int(0) }
        if version == 0 {
            try connection.transaction { () throws(LearningStoreError) in
                try connection.execute("""
                    CREATE TABLE IF NOT EXISTS tokens(token BLOB PRIMARY KEY, spam INTEGER NOT NULL, ham INTEGER NOT NULL) WITHOUT ROWID;
                    CREATE TABLE IF NOT EXISTS messages(digest INTEGER NOT NULL, spam INTEGER NOT NULL, unquote INTEGER NOT NULL, message BLOB NOT NULL);
                    CREATE INDEX IF NOT EXISTS messages_digest ON messages(digest);
                    PRAGMA user_version = 1;
                    """)
            }
        } else if version != 1 {
            throw LearningStoreError(description: "\(path): not a turnstile learning database (user_version \(version))")
        }
        var tables = Set<String>()
        try connection.prepare("SELECT name FROM sqlite_master WHERE type = 'table'").query([]) {
            tables.insert(String(decoding: $0.blob(0), as: UTF8.self))
        }
        guard tables.isSuperset(of: ["tokens", "messages"]) else {
            throw LearningStoreError(description: "\(path): not a turnstile learning database (no tokens and messages tables)")
        }
    }

    /// Learns `message` (the bytes of one record of the mail `format`: `.mbox` when it
    /// came from an mbox, whose `>From ` quoting is then undone) as `kind`, in one
    /// transaction.
    @discardableResult
    public func learn(_ message: [UInt8], format: RecordFormat = .eml, as kind: LearnedClass) throws(LearningStoreError) -> Outcome {
        try connection.transaction { () throws(LearningStoreError) -> Outcome in
            let tokens = Self.tokens(message, format: format)
            if let (rowid, wasSpam) = try find(message) {
                if wasSpam == (kind == .spam) { return .unchanged }
                try count(tokens, spam: wasSpam ? -1 : 1, ham: wasSpam ? 1 : -1)
                try connection.prepare("UPDATE messages SET spam = ? WHERE rowid = ?").run([.int(kind == .spam ? 1 : 0), .int(rowid)])
                return .moved
            }
            try count(tokens, spam: kind == .spam ? 1 : 0, ham: kind == .ham ? 1 : 0)
            try connection.prepare("INSERT INTO messages(digest, spam, unquote, message) VALUES(?, ?, ?, ?)")
                .run([.int(Self.digest(message)), .int(kind == .spam ? 1 : 0), .int(format == .mbox ? 1 : 0), .blob(message)])
            return .learned
        }
    }

    /// Forgets `message` if it was learned; whether it was.
    @discardableResult
    public func forget(_ message: [UInt8], format: RecordFormat = .eml) throws(LearningStoreError) -> Bool {
        try connection.transaction { () throws(LearningStoreError) -> Bool in
            guard let (rowid, wasSpam) = try find(message) else { return false }
            try count(Self.tokens(message, format: format), spam: wasSpam ? -1 : 0, ham: wasSpam ? 0 : -1)
            try connection.prepare("DELETE FROM messages WHERE rowid = ?").run([.int(rowid)])
            return true
        }
    }

    /// The learned messages by class.
    public func messageCounts() throws(LearningStoreError) -> (spam: Int, ham: Int) {
        var spam = 0, ham = 0
        try connection.prepare("SELECT spam, count(*) FROM messages GROUP BY spam").query([]) { row in
            if row.int(0) == 1 { spam = Int(row.int(1)) } else { ham = Int(row.int(1)) }
        }
        return (spam, ham)
    }

    /// The weighted list `trainer` derives from the counts — the same words, weights
    /// and threshold as `train` with those settings on the learned messages. Reads
    /// one consistent snapshot (a read transaction), while a writer may be learning.
    public func trainedList(trainer: SpamTrainer) throws(TurnstileError) -> TrainedList {
        do {
            return try connection.transaction { () throws(LearningStoreError) -> Result<TrainedList, TurnstileError> in
                var counts: [(token: [UInt8], spam: Int, ham: Int)] = []
                try connection.prepare("SELECT token, spam, ham FROM tokens").query([]) { row in
                    counts.append((row.blob(0), Int(row.int(1)), Int(row.int(2))))
                }
                var messages: [(isSpam: Bool, message: MailMessage)] = []
                try connection.prepare("SELECT spam, unquote, message FROM messages ORDER BY rowid").query([]) { row in
                    messages.append((row.int(0) == 1, (row.int(1) == 1 ? RecordFormat.mbox : .eml).message(of: row.blob(2))))
                }
                let spam = messages.count { $0.isSpam }
                return Result { () throws(TurnstileError) in
                    try trainer.train(counts: counts, spamRecords: spam, hamRecords: messages.count - spam) { (rules) throws(TurnstileError) in
                        var judge = try MailJudge(rules: RuleSet(rules: rules, options: SpamFilter.standardOptions,
                                                                  model: trainer.model), threshold: 0)
                        let scores = messages.map { m in
                            judge.judge(m.message)
                            return judge.score
                        }
                        return (scores, messages.map(\.isSpam))
                    }
                }
            }.get()
        } catch let error as LearningStoreError {
            throw TurnstileError(.invalidOptions(error.description))
        } catch let error as TurnstileError {
            throw error
        } catch {
            throw TurnstileError(.invalidOptions("\(error)"))
        }
    }

    // MARK: - Parts

    /// The stored row holding exactly `message`, and whether it is spam.
    private func find(_ message: [UInt8]) throws(LearningStoreError) -> (Int64, Bool)? {
        var found: (Int64, Bool)? = nil
        try connection.prepare("SELECT rowid, spam, message FROM messages WHERE digest = ?").query([.int(Self.digest(message))]) { row in
            if found == nil, row.blob(2) == message { found = (row.int(0), row.int(1) == 1) }
        }
        return found
    }

    /// Adds `spam` and `ham` to each token's counts; a token left at 0 and 0 is removed.
    private func count(_ tokens: [[UInt8]], spam: Int, ham: Int) throws(LearningStoreError) {
        let upsert = try connection.prepare("""
            INSERT INTO tokens(token, spam, ham) VALUES(?, ?, ?)
            ON CONFLICT(token) DO UPDATE SET spam = spam + excluded.spam, ham = ham + excluded.ham
            """)
        for token in tokens { try upsert.run([.blob(token), .int(Int64(spam)), .int(Int64(ham))]) }
        if spam < 0 || ham < 0 {
            let prune = try connection.prepare("DELETE FROM tokens WHERE token = ? AND spam <= 0 AND ham <= 0")
            for token in tokens { try prune.run([.blob(token)]) }
        }
    }

    /// A message's tokens, as `train` takes them.
    static func tokens(_ message: [UInt8], format: RecordFormat) -> [[UInt8]] {
        MailTokens.tokens(of: format.message(of: message))
    }

    /// FNV-1a, 64 bits: finds a message's row (the bytes are compared as well).
    static func digest(_ bytes: [UInt8]) -> Int64 {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for b in bytes { h = (h ^ UInt64(b)) &* 0x100_0000_01b3 }
        return Int64(bitPattern: h)
    }
}
