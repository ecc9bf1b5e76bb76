internal import CSQLite

/// Schema versioning, checkpoints and checks, as typed calls rather than pragma strings.
extension Database {
    /// What a WAL checkpoint did.
    public struct CheckpointResult: Sendable, Equatable {
        /// Frames in the WAL when the checkpoint ran (0 after a TRUNCATE that emptied it).
        public var walFrames: Int
        /// Frames copied back into the database file.
        public var checkpointedFrames: Int
    }

    /// `PRAGMA user_version`: the schema version this project's migrations recorded (0 for a new file).
    public func userVersion() throws -> Int32 {
        guard let text = try scalarText("PRAGMA user_version"), let version = Int32(text) else {
            throw SQLiteError.misuse("PRAGMA user_version returned no number", operation: "user_version")
        }
        return version
    }

    /// Sets `PRAGMA user_version` (pragma arguments cannot be bound, so the number is formatted).
    public func setUserVersion(_ version: Int32) throws {
        try execute("PRAGMA user_version = \(version)")
    }

    /// The journal mode in force (`wal` for every database this type opens).
    public func journalMode() throws -> String {
        try scalarText("PRAGMA journal_mode")?.lowercased() ?? ""
    }

    /// Copies the WAL back into the database file. With `truncate` (the default) it waits for
    /// readers and writers, then empties the `-wal` file; otherwise it is a PASSIVE checkpoint.
    @discardableResult
    public func checkpoint(truncate: Bool = true) throws -> CheckpointResult {
        let db = try openHandle(for: "checkpoint")
        var walFrames: Int32 = 0
        var checkpointed: Int32 = 0
        let mode = truncate ? SQLITE_CHECKPOINT_TRUNCATE : SQLITE_CHECKPOINT_PASSIVE
        let result = sqlite3_wal_checkpoint_v2(db, nil, mode, &walFrames, &checkpointed)
        guard result == SQLITE_OK else {
            throw error(result, operation: "checkpoint", sql: nil)
        }
        return CheckpointResult(walFrames: Int(walFrames), checkpointedFrames: Int(checkpointed))
    }

    /// `PRAGMA integrity_check`: `["ok"]` for a sound file, otherwise SQLite's list of problems.
    public func integrityCheck() throws -> [String] {
        let statement = try prepare("PRAGMA integrity_check")
        var lines: [String] = []
        try statement.forEachRow { lines.append($0.string(at: 0)) }
        return lines
    }
}
