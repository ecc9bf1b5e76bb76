import SQLite

/// The price-ingest database schema and its migrations, versioned by `PRAGMA user_version`.
///
/// Times are stored as REAL seconds since 2001-01-01T00:00:00Z (Foundation's reference date),
/// so a `Date` round-trips bit for bit; in SQL, `datetime(updated + 978307200, 'unixepoch')`
/// shows one. Prices are INTEGER tenths of a penny per litre, one nullable column per fuel.
enum StationStoreSchema {
    /// `migrations[n]` takes a file from user_version `n` to `n + 1`. Append, never edit.
    static let migrations: [String] = [version1, version2, version3]

    /// The user_version this code writes and reads.
    static var latestVersion: Int32 { Int32(migrations.count) }

    /// Brings the file to `latestVersion` in one transaction; refuses files from newer code.
    static func migrate(_ database: Database) throws {
        try database.transaction {
            let found = try database.userVersion()
            guard found >= 0, found <= latestVersion else {
                throw StationStoreError.unsupportedSchema(found: found, supported: latestVersion)
            }
            for step in Int(found)..<migrations.count {
                try database.execute(migrations[step])
            }
            if found != latestVersion {
                try database.setUserVersion(latestVersion)
            }
        }
    }

    /// The store's identity (`StationStore.storeID`), random, made once per file.
    private static let version2 = """
        ALTER TABLE store_state ADD COLUMN store_id TEXT;
        UPDATE store_state SET store_id = lower(hex(randomblob(8)));
        """

    /// A fingerprint of the stored feed's bytes (`StationStore.contentHash(of:)`), so that a poll
    /// fetching the same feed again changes nothing.
    private static let version3 = """
        ALTER TABLE feeds ADD COLUMN content_hash TEXT;
        """

    private static let version1 = """
        CREATE TABLE store_state (
            singleton INTEGER PRIMARY KEY CHECK (singleton = 1),
            version INTEGER NOT NULL CHECK (version >= 0)
        );
        INSERT INTO store_state (singleton, version) VALUES (1, 0);

        CREATE TABLE feeds (
            retailer TEXT PRIMARY KEY NOT NULL,
            version INTEGER,
            updated REAL,
            fetched_at REAL,
            station_count INTEGER NOT NULL DEFAULT 0,
            last_success_at REAL,
            last_error_at REAL,
            last_error TEXT,
            last_error_source TEXT,
            source TEXT
        ) WITHOUT ROWID;

        CREATE TABLE stations (
            id TEXT PRIMARY KEY NOT NULL,
            retailer TEXT NOT NULL,
            site_id TEXT NOT NULL,
            brand TEXT NOT NULL,
            name TEXT NOT NULL,
            address TEXT NOT NULL,
            postcode TEXT NOT NULL,
            lat REAL,
            lng REAL,
            reported_lat REAL,
            reported_lng REAL,
            updated REAL NOT NULL,
            price_e10 INTEGER,
            price_e5 INTEGER,
            price_b7 INTEGER,
            price_sdv INTEGER,
            CHECK ((lat IS NULL) = (lng IS NULL))
        ) WITHOUT ROWID;
        CREATE INDEX stations_by_retailer ON stations (retailer);
        """
}
