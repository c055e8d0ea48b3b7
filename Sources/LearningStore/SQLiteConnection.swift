import CSQLite

// The few SQLite calls the learning database makes, with errors as one typed value.
// The system's libsqlite3 through a system-library target (as CPCRE2 for PCRE2): no
// package to build, which keeps CI's clean build short; GRDB would add a Swift
// package whose features (records, observation, migrations) the four statements here
// do not need.

/// An SQLite failure: the operation and SQLite's own message.
public struct LearningStoreError: Error, Sendable, CustomStringConvertible {
    public var description: String
}

/// One open database; not shared between threads (each user opens its own).
final class SQLiteConnection {
    private(set) var handle: OpaquePointer?
    let path: String

    init(path: String, readOnly: Bool = false) throws(LearningStoreError) {
        self.path = path
        let flags = readOnly ? SQLITE_OPEN_READONLY : (SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE)
        // Not the umask's 0644: the database is private (issue 38). The mode is fixed
        // here, before SQLite creates the file, not with a chmod after.
        if !readOnly, path != ":memory:", !path.isEmpty { createOwnerOnlyFileIfAbsent(path) }
        let code = sqlite3_open_v2(path, &handle, flags | SQLITE_OPEN_NOMUTEX, nil)
        if code != SQLITE_OK {
            let message = handle.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close(handle)
            handle = nil
            throw LearningStoreError(description: "\(path): cannot open the database: \(message)")
        }
        sqlite3_busy_timeout(handle, 10_000)
    }

    deinit { sqlite3_close(handle) }

    func fail(_ what: String) -> LearningStoreError {
        LearningStoreError(description: "\(path): \(what): \(String(cString: sqlite3_errmsg(handle)))")
    }

    /// Runs statements with no results.
    func execute(_ sql: String) throws(LearningStoreError) {
        if sqlite3_exec(handle, sql, nil, nil, nil) != SQLITE_OK { throw fail(sql.split(separator: " ").prefix(3).joined(separator: " ")) }
    }

    func prepare(_ sql: String) throws(LearningStoreError) -> Statement {
        var statement: OpaquePointer?
        if sqlite3_prepare_v2(handle, sql, -1, &statement, nil) != SQLITE_OK { throw fail("preparing a statement") }
        return Statement(statement!, connection: self)
    }

    /// Runs `body` in one IMMEDIATE transaction: all of it is committed, or none.
    func transaction<T>(_ body: () throws(LearningStoreError) -> T) throws(LearningStoreError) -> T {
        try execute("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }
}

/// A prepared statement, reset before each use.
final class Statement {
    private let statement: OpaquePointer
    private unowned let connection: SQLiteConnection
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

    init(_ statement: OpaquePointer, connection: SQLiteConnection) {
        self.statement = statement
        self.connection = connection
    }

    deinit { sqlite3_finalize(statement) }

    func bind(_ values: [Value]) {
        sqlite3_reset(statement)
        sqlite3_clear_bindings(statement)
        for (k, value) in values.enumerated() {
            let index = Int32(k + 1)
            switch value {
            case .int(let n): sqlite3_bind_int64(statement, index, n)
            case .blob(let bytes):
                bytes.withUnsafeBytes { raw in
                    // SAFETY: SQLITE_TRANSIENT makes SQLite copy the bytes before this returns.
                    _ = sqlite3_bind_blob64(statement, index, raw.baseAddress ?? UnsafeRawPointer(bitPattern: 1), UInt64(raw.count), Self.transient)
                }
            }
        }
    }

    enum Value { case int(Int64), blob([UInt8]) }

    /// Runs a statement without results.
    func run(_ values: [Value]) throws(LearningStoreError) {
        bind(values)
        let code = sqlite3_step(statement)
        sqlite3_reset(statement)
        if code != SQLITE_DONE { throw connection.fail("writing") }
    }

    /// Runs a query: `row` is called for each row.
    func query(_ values: [Value], _ row: (Row) throws(LearningStoreError) -> Void) throws(LearningStoreError) {
        bind(values)
        defer { sqlite3_reset(statement) }
        while true {
            let code = sqlite3_step(statement)
            if code == SQLITE_DONE { return }
            guard code == SQLITE_ROW else { throw connection.fail("reading") }
            try row(Row(statement: statement))
        }
    }

    struct Row {
        let statement: OpaquePointer
        func int(_ column: Int32) -> Int64 { sqlite3_column_int64(statement, column) }
        func blob(_ column: Int32) -> [UInt8] {
            let count = Int(sqlite3_column_bytes(statement, column))
            guard count > 0, let base = sqlite3_column_blob(statement, column) else { return [] }
            return Array(UnsafeRawBufferPointer(start: base, count: count))
        }
    }
}
