import SQLite

/// The tables of `location-cache.sqlite` and their migrations (`PRAGMA user_version`).
///
/// Times are Unix seconds (REAL). Every location row carries its own expiry, so nothing about a
/// position is written to disk without the moment it must be gone.
///
/// Version 2 drops `locations_by_expiry`: the purge's `expires_at <= ? OR observed_at <= ?` never
/// used it (an OR over an unindexed column scans the table), yet every put rewrote two of its
/// entries, doubling the pages each batch writes to the WAL.
enum LocationStoreSchema {
    /// The version this code writes and reads.
    static let currentVersion: Int32 = 2

    /// Creates or upgrades the schema in one transaction; refuses a file from a newer version.
    static func migrate(_ database: Database) throws {
        let found = try database.userVersion()
        guard found <= currentVersion else {
            throw LocationStoreError.newerSchema(found: found, supported: currentVersion)
        }
        guard found < currentVersion else { return }
        try database.transaction {
            if found < 1 { try database.execute(version1) }
            if found < 2 { try database.execute(version2) }
            try database.setUserVersion(currentVersion)
        }
    }

    private static let version1 = """
        CREATE TABLE locations (
            user_id     TEXT PRIMARY KEY NOT NULL,
            lat         REAL NOT NULL CHECK (lat BETWEEN -90 AND 90),
            lng         REAL NOT NULL CHECK (lng BETWEEN -180 AND 180),
            observed_at REAL NOT NULL,
            expires_at  REAL NOT NULL CHECK (expires_at > observed_at)
        ) WITHOUT ROWID;
        CREATE INDEX locations_by_expiry ON locations (expires_at);
        CREATE TABLE preferences (
            user_id      TEXT PRIMARY KEY NOT NULL,
            radius_miles REAL CHECK (radius_miles IS NULL OR radius_miles BETWEEN 1 AND 50),
            unit         TEXT CHECK (unit IS NULL OR unit IN ('miles', 'km')),
            CHECK (radius_miles IS NOT NULL OR unit IS NOT NULL)
        ) WITHOUT ROWID;
        """

    /// With `secure_delete` on, the index's freed pages are zeroed.
    private static let version2 = "DROP INDEX IF EXISTS locations_by_expiry"
}

/// Why the location store refused to open or read a row.
public enum LocationStoreError: Error, Sendable, CustomStringConvertible {
    /// The file was written by a newer version of this service.
    case newerSchema(found: Int32, supported: Int32)
    /// SQLite would not switch `secure_delete` on, so erasure could not be guaranteed.
    case secureDeleteUnavailable
    /// The file could not be put back in WAL mode after its page size was changed.
    case walUnavailable
    /// The directory could not be created.
    case cannotOpen(path: String, reason: String)
    /// A stored value this code cannot read (never shows the value itself).
    case corruptRow(table: String, column: String)
    /// The store's file was deleted or replaced while the service ran.
    case fileGone(path: String)

    public var description: String {
        switch self {
        case .newerSchema(let found, let supported):
            "the store has schema version \(found); this build reads up to \(supported)"
        case .secureDeleteUnavailable:
            "PRAGMA secure_delete could not be switched on; refusing to store personal data"
        case .walUnavailable:
            "the store could not be switched back to WAL mode after changing its page size"
        case .cannotOpen(let path, let reason):
            "cannot open the store directory \(path): \(reason)"
        case .corruptRow(let table, let column):
            "unreadable value in \(table).\(column)"
        case .fileGone(let path):
            "the store's file \(path) is gone (deleted or replaced while location-cache ran): nothing can be "
                + "stored until location-cache is restarted"
        }
    }
}
