import Turnstile

// `turnstile learn`'s database: per-token spam and ham counts — the numbers `train`
// weighs — and the SHA-256 digest of each message learned, never the message itself
// (issue 52: the database of a user's mail holds no mail). The digest makes learning
// exact: a message learned twice counts once, one learned as the other class moves,
// `--forget` takes back exactly what was added — each by tokenizing the message given
// again, which gives the tokens it gave when it was learned. SQLite in WAL mode: a
// reader (`serve --db`, `filter --db`) reads while a writer learns; each message is
// learned in a transaction of its own, so a crash (kill -9) loses nothing committed
// before it (synchronous=NORMAL is durable across a process crash; a power loss may
// lose the last commits, never corrupt the file). A new file is created 0600.
//
// Schema (PRAGMA user_version 2):
//   tokens(token BLOB PRIMARY KEY, spam INTEGER, ham INTEGER)  -- messages containing it
//   messages(digest BLOB PRIMARY KEY, spam INTEGER)            -- SHA-256 of the bytes
// A token is a MailTokens token (`free`, `subject:free`, `header:x-mailer:outlook`).
// Version 1 (issue 43) kept each message's bytes (`messages(digest INTEGER, spam,
// unquote, message BLOB)`); opening it migrates it once, in place: each row becomes its
// SHA-256, the token counts stay as they are, and the file is vacuumed so that no page
// of the old text is left in it.

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
                    CREATE TABLE IF NOT EXISTS messages(digest BLOB PRIMARY KEY, spam INTEGER NOT NULL) WITHOUT ROWID;
                    PRAGMA user_version = 2;
                    """)
            }
        } else if version == 1 {
            try Self.migrateFromVersion1(connection)
        } else if version != 2 {
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

    /// Version 1 → 2, in place: each stored message becomes its digest (the counts
    /// were taken from it and stay), then VACUUM rewrites the file without the freed
    /// pages and the WAL is emptied, so no byte of a message is left behind.
    private static func migrateFromVersion1(_ connection: SQLiteConnection) throws(LearningStoreError) {
        try connection.transaction { () throws(LearningStoreError) in
            var rows: [(digest: [UInt8], spam: Int64)] = []
            try connection.prepare("SELECT spam, message FROM messages ORDER BY rowid").query([]) { row in
                rows.append((MessageDigest.sha256(row.blob(1)).bytes, row.int(0)))
            }
            try connection.execute("""
                DROP INDEX IF EXISTS messages_digest;
                DROP TABLE messages;
                CREATE TABLE messages(digest BLOB PRIMARY KEY, spam INTEGER NOT NULL) WITHOUT ROWID;
                """)
            let insert = try connection.prepare("INSERT OR IGNORE INTO messages(digest, spam) VALUES(?, ?)")
            for row in rows { try insert.run([.blob(row.digest), .int(row.spam)]) }
            try connection.execute("PRAGMA user_version = 2")
        }
        try connection.execute("VACUUM")
        try connection.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    }

    /// Learns `message` (the bytes of one record of the mail `format`: `.mbox` when it
    /// came from an mbox, whose `>From ` quoting is then undone) as `kind`, in one
    /// transaction.
    @discardableResult
    public func learn(_ message: [UInt8], format: RecordFormat = .eml, as kind: LearnedClass) throws(LearningStoreError) -> Outcome {
        try connection.transaction { () throws(LearningStoreError) -> Outcome in
            let tokens = Self.tokens(message, format: format)
            let digest = MessageDigest.sha256(message).bytes
            if let wasSpam = try find(digest) {
                if wasSpam == (kind == .spam) { return .unchanged }
                try count(tokens, spam: wasSpam ? -1 : 1, ham: wasSpam ? 1 : -1)
                try connection.prepare("UPDATE messages SET spam = ? WHERE digest = ?").run([.int(kind == .spam ? 1 : 0), .blob(digest)])
                return .moved
            }
            try count(tokens, spam: kind == .spam ? 1 : 0, ham: kind == .ham ? 1 : 0)
            try connection.prepare("INSERT INTO messages(digest, spam) VALUES(?, ?)")
                .run([.blob(digest), .int(kind == .spam ? 1 : 0)])
            return .learned
        }
    }

    /// Forgets `message` if it was learned; whether it was.
    @discardableResult
    public func forget(_ message: [UInt8], format: RecordFormat = .eml) throws(LearningStoreError) -> Bool {
        try connection.transaction { () throws(LearningStoreError) -> Bool in
            let digest = MessageDigest.sha256(message).bytes
            guard let wasSpam = try find(digest) else { return false }
            try count(Self.tokens(message, format: format), spam: wasSpam ? -1 : 0, ham: wasSpam ? 0 : -1)
            try connection.prepare("DELETE FROM messages WHERE digest = ?").run([.blob(digest)])
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

    /// The weighted list `trainer` derives from the counts — the same words and
    /// weights as `train` with those settings on the learned messages, at the
    /// trainer's fixed threshold (the messages are not kept to choose one). Reads
    /// one consistent snapshot (a read transaction), while a writer may be learning.
    public func trainedList(trainer: SpamTrainer) throws(TurnstileError) -> TrainedList {
        do {
            return try connection.transaction { () throws(LearningStoreError) -> Result<TrainedList, TurnstileError> in
                var counts: [(token: [UInt8], spam: Int, ham: Int)] = []
                try connection.prepare("SELECT token, spam, ham FROM tokens").query([]) { row in
                    counts.append((row.blob(0), Int(row.int(1)), Int(row.int(2))))
                }
                var spam = 0, ham = 0
                try connection.prepare("SELECT spam, count(*) FROM messages GROUP BY spam").query([]) { row in
                    if row.int(0) == 1 { spam = Int(row.int(1)) } else { ham = Int(row.int(1)) }
                }
                return Result { () throws(TurnstileError) in
                    try trainer.train(counts: counts, spamRecords: spam, hamRecords: ham)
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

    /// Whether the message with `digest` was learned as spam; nil when it was not learned.
    private func find(_ digest: [UInt8]) throws(LearningStoreError) -> Bool? {
        var found: Bool? = nil
        try connection.prepare("SELECT spam FROM messages WHERE digest = ?").query([.blob(digest)]) { row in
            found = row.int(0) == 1
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
}
