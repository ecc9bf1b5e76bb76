internal import CSQLite
import Foundation

/// `SQLITE_TRANSIENT`: SQLite copies bound text and blobs before the bind call returns, so the
/// Swift buffer may go away right after. (The C macro is a cast of -1 and does not import.)
private let sqliteTransient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)

/// `SQLITE_STATIC`: SQLite reads the bytes where they are, at every step, until the parameter is
/// bound again or the statement finalized; only for bytes the statement owns (`ParameterBuffers`).
private let sqliteStatic: sqlite3_destructor_type? = nil

/// Binding parameters (1-based). A binding stays until the parameter is bound again or
/// `clearBindings()`; `reset()` and `run()` keep it.
extension Statement {
    public func bind(_ value: Int64, at index: Int) throws {
        let (statement, position) = try parameter(index)
        try check(sqlite3_bind_int64(statement, position, value), index)
    }

    public func bind(_ value: Int, at index: Int) throws {
        try bind(Int64(value), at: index)
    }

    public func bind(_ value: Double, at index: Int) throws {
        let (statement, position) = try parameter(index)
        try check(sqlite3_bind_double(statement, position, value), index)
    }

    /// Binds UTF-8 text of exact length (embedded NULs kept); an empty string stays `''`, never NULL.
    ///
    /// The bytes are copied into the statement's own buffer for the parameter, which SQLite reads
    /// in place (no allocation of its own per bind); the string may change or go right after.
    public func bind(_ value: String, at index: Int) throws {
        let (statement, position) = try parameter(index)
        var text = value
        let result = text.withUTF8 { bytes -> Int32 in
            let count = UInt64(bytes.count)
            let encoding = UInt8(SQLITE_UTF8)
            if ownsBytes(count: bytes.count) {
                return boundBytes.bind(UnsafeRawBufferPointer(bytes), position: Int(position)) { copy in
                    sqlite3_bind_text64(statement, position, copy.assumingMemoryBound(to: CChar.self), count,
                                        sqliteStatic, encoding)
                }
            }
            guard let base = bytes.baseAddress, !bytes.isEmpty else {
                return sqlite3_bind_text(statement, position, "", 0, sqliteTransient)
            }
            let characters = UnsafeRawPointer(base).assumingMemoryBound(to: CChar.self)
            return sqlite3_bind_text64(statement, position, characters, count, sqliteTransient, encoding)
        }
        try check(result, index)
    }

    /// Binds a blob; empty data stays a zero-length blob, never NULL. Copied like text.
    public func bind(_ value: Data, at index: Int) throws {
        let (statement, position) = try parameter(index)
        let result = value.withUnsafeBytes { bytes -> Int32 in
            guard let base = bytes.baseAddress, !bytes.isEmpty else {
                return sqlite3_bind_zeroblob(statement, position, 0)
            }
            let count = UInt64(bytes.count)
            if ownsBytes(count: bytes.count) {
                return boundBytes.bind(bytes, position: Int(position)) { copy in
                    sqlite3_bind_blob64(statement, position, copy, count, sqliteStatic)
                }
            }
            return sqlite3_bind_blob64(statement, position, base, count, sqliteTransient)
        }
        try check(result, index)
    }

    public func bindNull(at index: Int) throws {
        let (statement, position) = try parameter(index)
        try check(sqlite3_bind_null(statement, position), index)
    }

    public func bind(_ value: Int64?, at index: Int) throws {
        if let value { try bind(value, at: index) } else { try bindNull(at: index) }
    }

    public func bind(_ value: Int?, at index: Int) throws {
        if let value { try bind(Int64(value), at: index) } else { try bindNull(at: index) }
    }

    public func bind(_ value: Double?, at index: Int) throws {
        if let value { try bind(value, at: index) } else { try bindNull(at: index) }
    }

    public func bind(_ value: String?, at index: Int) throws {
        if let value { try bind(value, at: index) } else { try bindNull(at: index) }
    }

    public func bind(_ value: Data?, at index: Int) throws {
        if let value { try bind(value, at: index) } else { try bindNull(at: index) }
    }

    // MARK: - Internals

    /// True when `count` bytes go through the statement's own buffer. Between a step and its
    /// reset they never do: SQLite refuses the bind then (as before, with nothing changed) and
    /// may read the current binding's bytes again, so they must stay as they are.
    private func ownsBytes(count: Int) -> Bool {
        !isStepping && ParameterBuffers.owns(byteCount: count)
    }

    /// The live statement and parameter `index` as SQLite counts it; throws when out of range.
    /// (Inlined: every bind runs it; the errors are built out of line.)
    @inline(__always)
    private func parameter(_ index: Int) throws -> (OpaquePointer, Int32) {
        let statement = try live("bind")
        guard index >= 1, index <= Int(parameterCount) else { throw noParameter(index) }
        return (statement, Int32(truncatingIfNeeded: index))
    }

    @inline(__always)
    private func check(_ result: Int32, _ index: Int) throws {
        guard result == SQLITE_OK else { throw bindFailure(result, index) }
    }

    @inline(never)
    private func noParameter(_ index: Int) -> SQLiteError {
        SQLiteError(code: SQLITE_RANGE, message: "no parameter \(index) (parameters are 1-based)",
                    operation: "bind", sql: sql)
    }

    @inline(never)
    private func bindFailure(_ result: Int32, _ index: Int) -> SQLiteError {
        database.error(result, operation: "bind parameter \(index)", sql: sql)
    }
}
