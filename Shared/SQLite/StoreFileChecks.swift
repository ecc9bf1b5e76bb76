import Foundation

extension Database {
    /// Opens the database at `path` and runs the quick check (`integrityProblems`) on it: a damaged
    /// file, or one that is not a database, throws `DamagedDatabase`, so a service refuses to start
    /// on it rather than serve part of it.
    public static func openSound(path: String) throws -> Database {
        do {
            let database = try Database(path: path)
            if let problems = try database.integrityProblems() {
                database.close()
                throw DamagedDatabase(path: path, findings: problems)
            }
            return database
        } catch let error as SQLiteError where error.isDamage {
            throw DamagedDatabase(path: path, findings: error.message)
        }
    }
}

/// A damaged database file, found when a store opens (`Database.openSound`).
public struct DamagedDatabase: Error, Sendable, CustomStringConvertible {
    public let path: String
    public let findings: String

    public init(path: String, findings: String) {
        self.path = path
        self.findings = findings
    }

    public var description: String {
        "the store \(path) is damaged (SQLite's quick check: \(findings.prefix(300))): put back a copy "
            + "(deploy/README.md, \"What to back up\"), or move the file and its -wal aside to start with an empty store"
    }
}

/// Which file a path names (device and inode): a store compares it with the file it opened, to
/// tell when that file was deleted or replaced while it ran (its writes would go nowhere lasting).
public struct FileIdentity: Equatable, Sendable {
    public let device: UInt64
    public let inode: UInt64

    /// The file at `path` now; nil when there is none.
    public init?(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        device = UInt64(info.st_dev)
        inode = UInt64(info.st_ino)
    }
}
