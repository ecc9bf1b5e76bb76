internal import CSQLite

/// A failed SQLite call: the result codes, SQLite's message, and what was being done.
public struct SQLiteError: Error, Sendable, CustomStringConvertible {
    /// The primary result code (`SQLITE_CONSTRAINT` is 19, `SQLITE_BUSY` is 5...).
    public var code: Int32
    /// The extended result code (`SQLITE_CONSTRAINT_PRIMARYKEY` is 1555...); equal to `code` when none.
    public var extendedCode: Int32
    /// SQLite's own message, e.g. "UNIQUE constraint failed: stations.id".
    public var message: String
    /// The call that failed: "open", "prepare", "step", "bind", "exec", "checkpoint"...
    public var operation: String
    /// The SQL text involved, when there is one (never bound values).
    public var sql: String?

    public init(code: Int32, extendedCode: Int32? = nil, message: String, operation: String, sql: String? = nil) {
        self.code = code & 0xff
        self.extendedCode = extendedCode ?? code
        self.message = message
        self.operation = operation
        self.sql = sql
    }

    /// A UNIQUE, PRIMARY KEY, NOT NULL, CHECK or FOREIGN KEY constraint refused the change.
    public var isConstraintViolation: Bool { code == SQLITE_CONSTRAINT }

    /// Another connection held a lock for longer than the busy timeout.
    public var isBusy: Bool { code == SQLITE_BUSY || code == SQLITE_LOCKED }

    /// The file can be read but not written by this process (`Database.init` refuses to open it so).
    public var isReadOnly: Bool { code == SQLITE_READONLY }

    /// The file is damaged, or is not a database at all.
    public var isDamage: Bool { code == SQLITE_CORRUPT || code == SQLITE_NOTADB }

    /// The API was used wrongly (a closed database, a finalized statement, a bad index...).
    public var isMisuse: Bool { code == SQLITE_MISUSE || code == SQLITE_RANGE }

    public var description: String {
        var text = "SQLite \(operation) failed (\(Self.codeName(code))"
        if extendedCode != code { text += ", extended \(extendedCode)" }
        text += "): \(message)"
        if let sql { text += " [SQL: \(sql.count > 200 ? sql.prefix(200) + "…" : sql)]" }
        return text
    }

    /// SQLite's English name for a result code ("constraint failed", "database is locked").
    public static func codeName(_ code: Int32) -> String {
        guard let text = sqlite3_errstr(code) else { return "code \(code)" }
        return "\(String(cString: text)), code \(code)"
    }

    /// An error raised by this wrapper itself (not by SQLite) for wrong use of the API.
    static func misuse(_ message: String, operation: String, sql: String? = nil) -> SQLiteError {
        SQLiteError(code: SQLITE_MISUSE, message: message, operation: operation, sql: sql)
    }
}
