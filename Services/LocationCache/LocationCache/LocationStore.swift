import Foundation
import Messages
import SQLite

/// A user's last-known location as stored: position, when it was observed, when it must be gone.
public struct StoredLocation: Sendable, Equatable {
    public var lat: Double
    public var lng: Double
    public var observedAt: Date
    public var expiresAt: Date

    public init(lat: Double, lng: Double, observedAt: Date, expiresAt: Date) {
        self.lat = lat
        self.lng = lng
        self.observedAt = observedAt
        self.expiresAt = expiresAt
    }
}

/// Which stored locations still count at `now`: those before their own expiry and observed after
/// `observedAfter` (now minus the TTL in force, which may be shorter than when they were written).
public struct LiveWindow: Sendable, Equatable {
    public var now: Date
    public var observedAfter: Date

    public init(now: Date, ttl: TimeInterval) {
        self.now = now
        self.observedAfter = now.addingTimeInterval(-ttl)
    }
}

/// The durable state of location-cache: one location row and one preferences row per user, in
/// `<dataDirectory>/location-cache.sqlite` (WAL, `synchronous=NORMAL`, `secure_delete=ON`,
/// 1024-byte pages).
///
/// Erasure is physical: deleted cells are zeroed by `secure_delete`, and `forget` and
/// `purgeExpired` end with `wal_checkpoint(TRUNCATE)` so no older page image stays in the `-wal`
/// file. Not thread-safe: own it from one thread (the service's loop).
public final class LocationStore {
    /// The database file's name inside the data directory.
    public static let fileName = "location-cache.sqlite"

    /// The database file.
    public let fileURL: URL
    let database: Database
    /// The file opened, to tell when it was deleted or replaced while the service ran.
    private let fileIdentity: FileIdentity?
    private let updateLocation: Statement
    private let insertLocation: Statement
    private let selectLocation: Statement
    private let selectAnyLocation: Statement
    private let deleteLocation: Statement
    private let deleteExpired: Statement
    let selectPreferences: Statement
    let upsertPreferences: Statement
    let deletePreferences: Statement
    /// Every user with a preferences row (and some without): the others' reads skip the query.
    var preferencesFilter: PreferencesFilter

    /// Opens (creating the directory and file if missing), migrates and empties the WAL.
    public init(directory: URL) throws {
        fileURL = directory.appendingPathComponent(Self.fileName)
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw LocationStoreError.cannotOpen(path: directory.path, reason: error.localizedDescription)
        }
        database = try Database.openSound(path: fileURL.path)
        fileIdentity = FileIdentity(path: fileURL.path)
        try Self.enableSecureDelete(database)
        // A put lost to a power cut is harmless (the phone sends its position again), so commits
        // skip the per-transaction fsync; erasures are still durable when acknowledged, because
        // `forget` and `purgeExpired` end with a checkpoint, which syncs the database file.
        try database.execute("PRAGMA synchronous = NORMAL")
        try LocationStoreSchema.migrate(database)
        try Self.usePageSize(database)
        try database.checkpoint(truncate: true)
        // A put replaces the user's row unless that row is newer and still live.
        updateLocation = try database.prepare("""
            UPDATE locations SET lat = ?2, lng = ?3, observed_at = ?4, expires_at = ?5
            WHERE user_id = ?1 AND (observed_at <= ?4 OR expires_at <= ?6 OR observed_at <= ?7)
            """, persistent: true)
        insertLocation = try database.prepare("""
            INSERT INTO locations (user_id, lat, lng, observed_at, expires_at) VALUES (?1, ?2, ?3, ?4, ?5)
            ON CONFLICT (user_id) DO NOTHING
            """, persistent: true)
        selectLocation = try database.prepare("""
            SELECT lat, lng, observed_at, expires_at FROM locations
            WHERE user_id = ?1 AND expires_at > ?2 AND observed_at > ?3
            """, persistent: true)
        selectAnyLocation = try database.prepare(
            "SELECT lat, lng, observed_at, expires_at FROM locations WHERE user_id = ?1", persistent: true)
        deleteLocation = try database.prepare("DELETE FROM locations WHERE user_id = ?1", persistent: true)
        deleteExpired = try database.prepare(
            "DELETE FROM locations WHERE expires_at <= ?1 OR observed_at <= ?2", persistent: true)
        selectPreferences = try database.prepare(
            "SELECT radius_miles, unit FROM preferences WHERE user_id = ?1", persistent: true)
        upsertPreferences = try database.prepare("""
            INSERT INTO preferences (user_id, radius_miles, unit) VALUES (?1, ?2, ?3)
            ON CONFLICT (user_id) DO UPDATE SET radius_miles = excluded.radius_miles, unit = excluded.unit
            """, persistent: true)
        deletePreferences = try database.prepare("DELETE FROM preferences WHERE user_id = ?1", persistent: true)
        preferencesFilter = try Self.preferencesFilter(of: database)
    }

    /// Closes the database; later calls throw. Also happens on deinit.
    public func close() {
        database.close()
    }

    private static func enableSecureDelete(_ database: Database) throws {
        try database.execute("PRAGMA secure_delete = ON")
        let check = try database.prepare("PRAGMA secure_delete")
        defer { check.reset() }
        guard try check.step() == .row, check.int(at: 0) == 1 else {
            throw LocationStoreError.secureDeleteUnavailable
        }
    }

    // MARK: - Batch transactions

    /// True while a transaction is open.
    var isInTransaction: Bool { database.isInTransaction }

    /// Opens the transaction a batch of puts writes in (`BEGIN IMMEDIATE`, a statement the
    /// connection keeps compiled); throws when one is open.
    func beginBatch() throws {
        try refuseIfFileGone()
        try database.begin()
    }

    /// Whether the file at `fileURL` is still the one open (not deleted, not replaced).
    public var isStillItsFile: Bool {
        guard let opened = fileIdentity, let now = FileIdentity(path: fileURL.path) else { return false }
        return opened == now
    }

    /// Refuses a write while the file is gone: it would be acknowledged into a file nobody opens
    /// again, and lost at the restart (QA: every user's settings, without a word).
    func refuseIfFileGone() throws(LocationStoreError) {
        guard isStillItsFile else { throw .fileGone(path: fileURL.path) }
    }

    /// Commits the batch's transaction; when that fails, it is rolled back (unless SQLite already
    /// did) and the error rethrown, so nothing of the batch is stored.
    func commitBatch() throws {
        try database.commit()
    }

    // MARK: - Locations

    /// Stores `location` as the user's last-known one unless a newer live one is already held.
    ///
    /// The usual put, a newer position of a known user, is one UPDATE; a new user adds an INSERT,
    /// and a put older than the live row held adds a read of that row.
    ///
    /// - Returns: whether `location` was stored, and the location held after the call.
    @discardableResult
    public func put(_ location: StoredLocation, user: String, window: LiveWindow) throws
        -> (stored: Bool, held: StoredLocation)
    {
        let observedAt = location.observedAt.timeIntervalSince1970
        let expiresAt = location.expiresAt.timeIntervalSince1970
        try updateLocation.bind(user, at: 1)
        try updateLocation.bind(location.lat, at: 2)
        try updateLocation.bind(location.lng, at: 3)
        try updateLocation.bind(observedAt, at: 4)
        try updateLocation.bind(expiresAt, at: 5)
        try updateLocation.bind(window.now.timeIntervalSince1970, at: 6)
        try updateLocation.bind(window.observedAfter.timeIntervalSince1970, at: 7)
        try updateLocation.run()
        if database.changes > 0 { return (true, location) }
        try insertLocation.bind(user, at: 1)
        try insertLocation.bind(location.lat, at: 2)
        try insertLocation.bind(location.lng, at: 3)
        try insertLocation.bind(observedAt, at: 4)
        try insertLocation.bind(expiresAt, at: 5)
        try insertLocation.run()
        if database.changes > 0 { return (true, location) }
        return (false, try anyLocation(user: user) ?? location)
    }

    /// The user's live location, or nil when none is held or it has expired.
    public func location(user: String, window: LiveWindow) throws -> StoredLocation? {
        try selectLocation.bind(user, at: 1)
        try selectLocation.bind(window.now.timeIntervalSince1970, at: 2)
        try selectLocation.bind(window.observedAfter.timeIntervalSince1970, at: 3)
        return try readLocation(selectLocation)
    }

    /// The user's row whether live or expired (what is on disk), for checks and tests.
    public func anyLocation(user: String) throws -> StoredLocation? {
        try selectAnyLocation.bind(user, at: 1)
        return try readLocation(selectAnyLocation)
    }

    private func readLocation(_ query: Statement) throws -> StoredLocation? {
        defer { query.reset() }
        guard try query.step() == .row else { return nil }
        // A damaged or hand-edited row may hold text where a number belongs, read as 0: refused.
        for (column, name) in ["lat", "lng", "observed_at", "expires_at"].enumerated() where !query.isNumber(at: column) {
            throw LocationStoreError.corruptRow(table: "locations", column: name)
        }
        let lat = query.double(at: 0), lng = query.double(at: 1)
        guard (-90...90).contains(lat) else { throw LocationStoreError.corruptRow(table: "locations", column: "lat") }
        guard (-180...180).contains(lng) else { throw LocationStoreError.corruptRow(table: "locations", column: "lng") }
        return StoredLocation(lat: lat, lng: lng,
                              observedAt: Date(timeIntervalSince1970: query.double(at: 2)),
                              expiresAt: Date(timeIntervalSince1970: query.double(at: 3)))
    }

    /// Deletes every location that is no longer live, then empties the WAL.
    ///
    /// - Returns: how many locations were deleted.
    @discardableResult
    public func purgeExpired(window: LiveWindow) throws -> Int {
        try deleteExpired.bind(window.now.timeIntervalSince1970, at: 1)
        try deleteExpired.bind(window.observedAfter.timeIntervalSince1970, at: 2)
        try deleteExpired.run()
        let removed = database.changes
        try database.checkpoint(truncate: true)
        return removed
    }

    // MARK: - Erasure

    /// Deletes everything held about `user` (location and preferences) in a transaction of its
    /// own; returns the rows removed. Their copies stay in the WAL until `checkpoint()`.
    func erase(user: String) throws -> Int {
        try database.transaction { try eraseRows(user: user) }
    }

    /// Deletes `user`'s location and preferences in the open transaction (a batch's); returns the
    /// rows removed. Their copies stay in the WAL until `checkpoint()` after the commit.
    func eraseRows(user: String) throws -> Int {
        try deleteLocation.bind(user, at: 1)
        try deleteLocation.run()
        let locations = database.changes
        try deletePreferences.bind(user, at: 1)
        try deletePreferences.run()
        return locations + database.changes
    }

    /// Copies the WAL into the database file and truncates it to zero bytes.
    public func checkpoint() throws {
        try database.checkpoint(truncate: true)
    }

    // MARK: - Figures

    /// Row counts for `sys.stats` (expired locations not yet purged included).
    public struct Counts: Sendable, Equatable {
        public var users: Int
        public var locations: Int
        public var preferences: Int

        public init(users: Int, locations: Int, preferences: Int) {
            self.users = users
            self.locations = locations
            self.preferences = preferences
        }
    }

    public func counts() throws -> Counts {
        let query = try database.prepare("""
            SELECT (SELECT count(*) FROM (SELECT user_id FROM locations UNION SELECT user_id FROM preferences)),
                   (SELECT count(*) FROM locations), (SELECT count(*) FROM preferences)
            """)
        defer { query.reset() }
        guard try query.step() == .row else { return Counts(users: 0, locations: 0, preferences: 0) }
        return Counts(users: query.int(at: 0), locations: query.int(at: 1), preferences: query.int(at: 2))
    }

    /// `PRAGMA integrity_check`: `["ok"]` when the file is sound.
    public func integrityCheck() throws -> [String] {
        try database.integrityCheck()
    }
}
