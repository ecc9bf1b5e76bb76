internal import CSQLite
import Foundation

/// A compiled SQL statement: bind parameters (1-based), step through rows, read columns (0-based).
///
/// Reuse it with `reset()` after each run. Finalized on deinit or when its database closes.
public final class Statement {
    /// The `sqlite3_stmt*`; nil once finalized.
    private var handle: OpaquePointer?
    /// Kept alive so the connection outlives its statements.
    let database: Database
    /// `sqlite3_bind_parameter_count`, fixed for the statement's life.
    let parameterCount: Int32
    /// The bytes of text and blob bindings (released after the statement is finalized).
    let boundBytes: ParameterBuffers
    /// True from a step until the next reset: SQLite refuses binds then, and the statement may
    /// read its current bindings again, so their bytes must not be rewritten.
    private(set) var isStepping = false
    /// The SQL text, for error messages.
    public let sql: String

    /// What one `step()` produced.
    public enum StepResult: Sendable, Equatable {
        /// A result row is ready to read.
        case row
        /// The statement has finished.
        case done
    }

    init(handle: OpaquePointer, database: Database, sql: String) {
        self.handle = handle
        self.database = database
        self.sql = sql
        parameterCount = sqlite3_bind_parameter_count(handle)
        boundBytes = ParameterBuffers(parameterCount: Int(parameterCount))
    }

    deinit {
        // When the database closed first, it already finalized every statement. The bound
        // bytes are released after this body, when the statement can no longer read them.
        if database.isOpen, let handle { sqlite3_finalize(handle) }
    }

    /// Releases the compiled statement now; later calls throw a misuse error.
    public func finalize() {
        if database.isOpen, let handle { sqlite3_finalize(handle) }
        handle = nil
        boundBytes.releaseAll()
    }

    // MARK: - Running

    /// Advances to the next row, or reports that the statement is done.
    @discardableResult
    public func step() throws -> StepResult {
        let statement = try live("step")
        isStepping = true
        let result = sqlite3_step(statement)
        switch result {
        case SQLITE_ROW: return .row
        case SQLITE_DONE: return .done
        default: throw database.error(result, operation: "step", sql: sql)
        }
    }

    /// Steps until done (ignoring any rows), then resets so the statement can run again.
    /// Bindings are kept; rebind what changes.
    public func run() throws {
        defer { reset() }
        while try step() == .row {}
    }

    /// Calls `body` for every result row, then resets the statement.
    public func forEachRow(_ body: (Statement) throws -> Void) throws {
        defer { reset() }
        while try step() == .row {
            try body(self)
        }
    }

    /// Steps once and reads the row with `read`, or returns nil when there is none; always resets,
    /// so no read stays open (an open read would hold back WAL checkpoints).
    public func firstRow<Value>(_ read: (Statement) throws -> Value) throws -> Value? {
        defer { reset() }
        guard try step() == .row else { return nil }
        return try read(self)
    }

    /// Rewinds the statement so it can run again; bindings are kept.
    public func reset() {
        guard database.isOpen, let handle else { return }
        // The return value repeats the last step's error, which step() already reported.
        sqlite3_reset(handle)
        isStepping = false
    }

    /// Sets every parameter back to NULL.
    public func clearBindings() {
        guard database.isOpen, let handle else { return }
        sqlite3_clear_bindings(handle)
    }

    // MARK: - Reading the current row (0-based column index)

    /// Columns in the result (0 for statements that return none).
    public var columnCount: Int {
        guard database.isOpen, let handle else { return 0 }
        return Int(sqlite3_column_count(handle))
    }

    /// True when the column holds SQL NULL.
    public func isNull(at column: Int) -> Bool {
        sqlite3_column_type(current(column), Int32(column)) == SQLITE_NULL
    }

    /// True when the column holds an INTEGER or a REAL. A damaged or hand-edited row may hold text
    /// or a blob where a number belongs, which `double(at:)` and `int64(at:)` would read as 0.
    public func isNumber(at column: Int) -> Bool {
        let type = sqlite3_column_type(current(column), Int32(column))
        return type == SQLITE_INTEGER || type == SQLITE_FLOAT
    }

    public func int64(at column: Int) -> Int64 {
        sqlite3_column_int64(current(column), Int32(column))
    }

    public func int(at column: Int) -> Int {
        Int(int64(at: column))
    }

    public func double(at column: Int) -> Double {
        sqlite3_column_double(current(column), Int32(column))
    }

    /// The column as UTF-8 text (`""` for NULL).
    public func string(at column: Int) -> String {
        let statement = current(column)
        // Order matters: fetch the text first, then its byte count.
        guard let text = sqlite3_column_text(statement, Int32(column)) else { return "" }
        let count = Int(sqlite3_column_bytes(statement, Int32(column)))
        return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
    }

    /// The column as bytes (empty for NULL or a zero-length blob).
    public func data(at column: Int) -> Data {
        let statement = current(column)
        guard let bytes = sqlite3_column_blob(statement, Int32(column)) else { return Data() }
        return Data(bytes: bytes, count: Int(sqlite3_column_bytes(statement, Int32(column))))
    }

    public func optionalInt64(at column: Int) -> Int64? {
        isNull(at: column) ? nil : int64(at: column)
    }

    public func optionalDouble(at column: Int) -> Double? {
        isNull(at: column) ? nil : double(at: column)
    }

    public func optionalString(at column: Int) -> String? {
        isNull(at: column) ? nil : string(at: column)
    }

    public func optionalData(at column: Int) -> Data? {
        isNull(at: column) ? nil : data(at: column)
    }

    // MARK: - Internals

    /// The `sqlite3_stmt*`, or a misuse error when the database closed or the statement was
    /// finalized. (Inlined: every bind and step runs it; the errors are built out of line.)
    @inline(__always)
    func live(_ operation: String) throws -> OpaquePointer {
        guard database.isOpen, let handle else { throw notLive(operation) }
        return handle
    }

    @inline(never)
    private func notLive(_ operation: String) -> SQLiteError {
        SQLiteError.misuse(database.isOpen ? "the statement was finalized" : "the database is closed",
                           operation: operation, sql: sql)
    }

    /// Column reads are programming-time contracts (a row was stepped to, the index exists).
    private func current(_ column: Int) -> OpaquePointer {
        guard database.isOpen, let handle else {
            preconditionFailure("reading a column of a closed or finalized statement: \(sql)")
        }
        precondition(column >= 0 && column < Int(sqlite3_column_count(handle)),
                     "column \(column) out of range for: \(sql)")
        return handle
    }
}

/// Belongs to the thread of its `Database`.
@available(*, unavailable)
extension Statement: Sendable {}
