internal import CSQLite
import Glibc

/// One SQLite connection, opened in WAL mode with `synchronous=FULL` and foreign keys on.
///
/// Not thread-safe and not `Sendable`: each thread (or actor) opens its own. `close()` is
/// idempotent and also runs on deinit; statements prepared from a closed database throw.
public final class Database {
    /// The `sqlite3*` handle; nil once closed.
    private(set) var handle: OpaquePointer?
    /// The file this connection opened.
    public let path: String
    /// `BEGIN IMMEDIATE`, `COMMIT` and `ROLLBACK`, compiled on first use and kept.
    var transactionStatements = TransactionStatements()

    /// What is set once for the process before its first connection: SQLite's count of the
    /// memory it holds is not kept (nothing reads it; keeping it costs a mutex per allocation).
    private static let processSetUp: Void = {
        _ = fuelboard_sqlite3_skip_memory_count()
    }()

    /// Opens (creating if missing) the database file at `path`. The directory must exist.
    ///
    /// - Parameter busyTimeoutMilliseconds: how long a call waits for another connection's lock
    ///   before failing with `SQLITE_BUSY`.
    public init(path: String, busyTimeoutMilliseconds: Int32 = 5_000) throws {
        self.path = path
        _ = Self.processSetUp
        var opened: OpaquePointer?
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX
        let result = sqlite3_open_v2(path, &opened, flags, nil)
        guard result == SQLITE_OK, let opened else {
            let message = opened.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close_v2(opened)
            // A store this process may not even read (put back by root with mode 0600) is the same
            // fault as one it may only read: said as such, whose it is (it was "unable to open
            // database file", exit 1, and a restart loop) (QA).
            if result == SQLITE_CANTOPEN, access(path, F_OK) == 0, access(path, R_OK | W_OK) != 0 {
                throw SQLiteError(code: SQLITE_READONLY, message: Self.accessReason(path, canRead: false), operation: "open")
            }
            throw SQLiteError(code: result, message: "\(message) (\(path))", operation: "open")
        }
        if sqlite3_db_readonly(opened, "main") == 1 {
            // SQLite falls back to reading a file it may not write, and every write fails later
            // ("attempt to write a readonly database"): a store put back as another user, say.
            sqlite3_close_v2(opened)
            throw SQLiteError(code: SQLITE_READONLY, message: Self.accessReason(path, canRead: true), operation: "open")
        }
        handle = opened
        sqlite3_extended_result_codes(opened, 1)
        sqlite3_busy_timeout(opened, busyTimeoutMilliseconds)
        do {
            try configure()
        } catch {
            close()
            throw error
        }
    }

    deinit {
        close()
    }

    /// Why `path` opened read-only (`canRead`) or not at all, as far as the file system tells:
    /// whose it is against who runs. Short, to fit a log line's value: the data directory is in
    /// the service's other lines.
    static func accessReason(_ path: String, canRead: Bool) -> String {
        var status = stat()
        let user = getuid()
        let name = path.split(separator: "/").last.map(String.init) ?? path
        let cannot = canRead ? "can be read but not written by this process" : "cannot be read and written by this process"
        guard stat(path, &status) == 0 else { return "\(name) \(cannot)" }
        if status.st_uid != user {
            return "\(name) belongs to uid \(status.st_uid), not this process's uid \(user)"
                + (canRead ? "" : ", which cannot open it") + ": chown it to the service's user"
        }
        return "\(name) \(cannot) (its mode\(canRead ? ", or a read-only file system" : ""))"
    }

    private func configure() throws {
        let mode = try scalarText("PRAGMA journal_mode=WAL")
        guard mode?.lowercased() == "wal" else {
            throw SQLiteError.misuse("could not switch to WAL journal mode (got \(mode ?? "nothing"))",
                                     operation: "open", sql: "PRAGMA journal_mode=WAL")
        }
        try execute("PRAGMA synchronous=FULL; PRAGMA foreign_keys=ON;")
    }

    /// True until `close()`.
    public var isOpen: Bool { handle != nil }

    /// Closes the connection, finalizing any statement still alive. Safe to call twice.
    public func close() {
        guard let handle else { return }
        while let statement = sqlite3_next_stmt(handle, nil) {
            sqlite3_finalize(statement)
        }
        transactionStatements = TransactionStatements()  // finalized just above
        sqlite3_close_v2(handle)
        self.handle = nil
    }

    /// Runs one or more SQL statements that return no rows needed by the caller.
    public func execute(_ sql: String) throws {
        let db = try openHandle(for: "exec", sql: sql)
        var errorMessage: UnsafeMutablePointer<CChar>?
        let result = sqlite3_exec(db, sql, nil, nil, &errorMessage)
        defer { sqlite3_free(errorMessage) }
        guard result == SQLITE_OK else {
            let message = errorMessage.map { String(cString: $0) } ?? String(cString: sqlite3_errmsg(db))
            throw SQLiteError(code: result, extendedCode: sqlite3_extended_errcode(db), message: message,
                              operation: "exec", sql: sql)
        }
    }

    /// Compiles exactly one SQL statement.
    ///
    /// - Parameter persistent: hint that the statement will be reused many times.
    public func prepare(_ sql: String, persistent: Bool = false) throws -> Statement {
        let db = try openHandle(for: "prepare", sql: sql)
        var statement: OpaquePointer?
        var hasTrailingSQL = false
        let flags = persistent ? UInt32(SQLITE_PREPARE_PERSISTENT) : 0
        let result = sql.withCString { text in
            var tail: UnsafePointer<CChar>?
            let result = sqlite3_prepare_v3(db, text, -1, flags, &statement, &tail)
            if let tail {
                hasTrailingSQL = String(cString: tail).contains { !$0.isWhitespace && $0 != ";" }
            }
            return result
        }
        guard result == SQLITE_OK else {
            throw error(result, operation: "prepare", sql: sql)
        }
        guard let statement else {
            throw SQLiteError.misuse("no SQL statement to prepare", operation: "prepare", sql: sql)
        }
        guard !hasTrailingSQL else {
            sqlite3_finalize(statement)
            throw SQLiteError.misuse("prepare takes one statement; use execute() for several",
                                     operation: "prepare", sql: sql)
        }
        return Statement(handle: statement, database: self, sql: sql)
    }

    /// True while a transaction is open on this connection.
    public var isInTransaction: Bool {
        guard let handle else { return false }
        return sqlite3_get_autocommit(handle) == 0
    }

    /// Rows changed by the most recent INSERT, UPDATE or DELETE.
    public var changes: Int {
        guard let handle else { return 0 }
        return Int(sqlite3_changes64(handle))
    }

    /// The rowid of the most recent successful INSERT on this connection.
    public var lastInsertRowID: Int64 {
        guard let handle else { return 0 }
        return sqlite3_last_insert_rowid(handle)
    }

    // MARK: - Internals shared with Statement and the pragma helpers

    /// The open handle, or a misuse error naming the operation.
    func openHandle(for operation: String, sql: String? = nil) throws -> OpaquePointer {
        guard let handle else {
            throw SQLiteError.misuse("the database is closed", operation: operation, sql: sql)
        }
        return handle
    }

    /// An error carrying this connection's current message and extended code.
    func error(_ result: Int32, operation: String, sql: String?) -> SQLiteError {
        guard let handle else {
            return SQLiteError(code: result, message: "the database is closed", operation: operation, sql: sql)
        }
        return SQLiteError(code: result, extendedCode: sqlite3_extended_errcode(handle),
                           message: String(cString: sqlite3_errmsg(handle)), operation: operation, sql: sql)
    }

    /// The first column of the first row as text, or nil when there is no row or it is NULL.
    func scalarText(_ sql: String) throws -> String? {
        try prepare(sql).firstRow { $0.optionalString(at: 0) } ?? nil
    }
}

/// One connection per thread: never share a `Database` across concurrency domains.
@available(*, unavailable)
extension Database: Sendable {}
