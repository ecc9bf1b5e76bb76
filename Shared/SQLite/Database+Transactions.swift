internal import CSQLite

/// A connection's transaction statements, compiled on first use and kept: a transaction steps
/// them instead of compiling its SQL again each time (as `sqlite3_exec` would). Raw
/// `sqlite3_stmt*` handles, not `Statement`s (those would keep their `Database` alive); the
/// connection's `close()` finalizes them with all its other statements.
struct TransactionStatements {
    private var begin: OpaquePointer?
    private var commit: OpaquePointer?
    private var rollback: OpaquePointer?

    fileprivate subscript(command: TransactionCommand) -> OpaquePointer? {
        get {
            switch command {
            case .begin: begin
            case .commit: commit
            case .rollback: rollback
            }
        }
        set {
            switch command {
            case .begin: begin = newValue
            case .commit: commit = newValue
            case .rollback: rollback = newValue
            }
        }
    }
}

/// The three statements, by the SQL they run.
private enum TransactionCommand: String {
    case begin = "BEGIN IMMEDIATE"
    case commit = "COMMIT"
    case rollback = "ROLLBACK"
}

extension Database {
    /// Runs `body` inside `BEGIN IMMEDIATE` ... `COMMIT`; rolls back and rethrows if anything throws.
    ///
    /// Transactions do not nest: calling this inside another transaction throws a misuse error.
    public func transaction<Result>(_ body: () throws -> Result) throws -> Result {
        let db = try openHandle(for: "transaction", sql: TransactionCommand.begin.rawValue)
        guard sqlite3_get_autocommit(db) != 0 else {
            throw SQLiteError.misuse("a transaction is already open (transactions do not nest)",
                                     operation: "transaction", sql: TransactionCommand.begin.rawValue)
        }
        try run(.begin)
        let result: Result
        do {
            result = try body()
            try run(.commit)
        } catch {
            rollbackIfOpen()
            throw error
        }
        return result
    }

    /// Opens a transaction that stays open across calls until `commit()` (for group commit:
    /// several writes, one commit). Throws when one is already open.
    public func begin() throws {
        try run(.begin)
    }

    /// Commits the transaction `begin()` opened; on failure rolls it back and rethrows.
    public func commit() throws {
        do {
            try run(.commit)
        } catch {
            rollbackIfOpen()
            throw error
        }
    }

    // MARK: - Internals

    /// Steps the kept statement for `command` and resets it. Its errors are those
    /// `execute(command.rawValue)` reports (operation "exec", the command as SQL).
    private func run(_ command: TransactionCommand) throws {
        let db = try openHandle(for: "exec", sql: command.rawValue)
        let statement = try kept(command, db)
        let result = sqlite3_step(statement)
        guard result == SQLITE_DONE else {
            let failure = error(result, operation: "exec", sql: command.rawValue)
            sqlite3_reset(statement)
            throw failure
        }
        sqlite3_reset(statement)
    }

    /// The compiled statement for `command`, compiling it the first time.
    private func kept(_ command: TransactionCommand, _ db: OpaquePointer) throws -> OpaquePointer {
        if let statement = transactionStatements[command] { return statement }
        var statement: OpaquePointer?
        let result = sqlite3_prepare_v3(db, command.rawValue, -1, UInt32(SQLITE_PREPARE_PERSISTENT), &statement, nil)
        guard result == SQLITE_OK, let statement else {
            sqlite3_finalize(statement)
            throw error(result == SQLITE_OK ? SQLITE_MISUSE : result, operation: "exec", sql: command.rawValue)
        }
        transactionStatements[command] = statement
        return statement
    }

    /// Rolls back the open transaction, if one is open.
    func rollbackIfOpen() {
        // SQLite rolls back by itself after some errors (SQLITE_FULL, SQLITE_IOERR...): only
        // issue ROLLBACK when the transaction is still open, and keep the original error.
        guard let handle, sqlite3_get_autocommit(handle) == 0 else { return }
        if let rollback = try? kept(.rollback, handle) {
            sqlite3_step(rollback)
            sqlite3_reset(rollback)
        } else {
            sqlite3_exec(handle, TransactionCommand.rollback.rawValue, nil, nil, nil)
        }
    }
}
