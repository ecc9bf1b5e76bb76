import Foundation
import Messages
import SQLite

/// The durable state of price-ingest: every retailer's stations, a feed record per retailer
/// and one global version that every successful replace bumps.
///
/// Backed by `<dataDirectory>/price-ingest.sqlite` (WAL, `synchronous=FULL`). A replace is one
/// transaction: when it returns, the new stations survive a crash or power loss; when it throws,
/// nothing changed. Not thread-safe: own it from one thread or actor.
public final class StationStore {
    /// The database file's name inside the data directory.
    public static let fileName = "price-ingest.sqlite"

    /// The database file.
    public let fileURL: URL
    /// The version of the last committed replace (0 for a new store). Strictly increases.
    public private(set) var version: UInt64
    /// The file's identity, random, made with it (16 hex digits): a store started afresh, after its
    /// volume was lost, is told apart from the old one even when the versions match. A copy of the
    /// file put back behind the newest version the directory served takes a new one (`ServedMark`).
    public private(set) var storeID: String
    /// When the database was found older than the newest version its directory served: that
    /// version and the database's (the store then took a new identity).
    public private(set) var rolledBack: (served: UInt64, found: UInt64)?
    /// When the directory served another store before this one (its database lost, emptied or
    /// replaced): that store's id and newest version.
    public private(set) var replaced: (storeID: String, version: UInt64)?
    private let servedMark: ServedMark
    /// The opened file's device and inode: another file put at the path (a copy put back while
    /// price-ingest ran) is not the one the commits go to.
    private let fileIdentity: FileIdentity?

    /// Whether the file at `fileURL` is still the one open (not deleted, not replaced).
    public var isStillItsFile: Bool {
        guard let opened = fileIdentity, let now = FileIdentity(path: fileURL.path) else { return false }
        return opened == now
    }

    let database: Database
    private let now: () -> Date
    private let bumpVersion: Statement
    private let deleteRetailer: Statement
    private let insertStation: Statement
    private let recordSuccess: Statement
    private let recordFailure: Statement
    private let recordKnownFailure: Statement
    let selectAll: Statement
    let selectRetailer: Statement

    /// Opens (creating the directory and file if missing) and migrates the store.
    ///
    /// - Parameter now: the clock stamping `FeedRecord.lastSuccessAt`.
    public init(directory: URL, now: @escaping () -> Date = Date.init) throws {
        fileURL = directory.appendingPathComponent(Self.fileName)
        self.now = now
        do {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        } catch {
            throw StationStoreError.cannotOpen(path: directory.path, reason: error.localizedDescription)
        }
        database = try Database.openSound(path: fileURL.path)
        fileIdentity = FileIdentity(path: fileURL.path)
        // Keep the -wal file from staying at the size of the largest replace after a checkpoint.
        try database.execute("PRAGMA journal_size_limit = \(64 << 20)")
        try StationStoreSchema.migrate(database)
        version = try Self.readVersion(database)
        storeID = try database.prepare("SELECT store_id FROM store_state WHERE singleton = 1")
            .firstRow { $0.string(at: 0) } ?? ""
        servedMark = ServedMark(directory: directory)
        if let served = servedMark.read() {
            if served.storeID == storeID, served.version > version {
                let renewed = try database.prepare("UPDATE store_state SET store_id = lower(hex(randomblob(8))) "
                    + "WHERE singleton = 1 RETURNING store_id").firstRow { $0.string(at: 0) }
                storeID = renewed ?? storeID
                rolledBack = (served.version, version)
            } else if served.storeID != storeID, served.version > 0 {
                replaced = served
            }
        }
        servedMark.write(storeID: storeID, version: version)
        bumpVersion = try database.prepare(
            "UPDATE store_state SET version = version + 1 WHERE singleton = 1 RETURNING version", persistent: true)
        deleteRetailer = try database.prepare("DELETE FROM stations WHERE retailer = ?", persistent: true)
        insertStation = try database.prepare(StationRowCoding.insertSQL, persistent: true)
        recordSuccess = try database.prepare("""
            INSERT INTO feeds (retailer, version, updated, fetched_at, station_count, last_success_at, source,
                               content_hash)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT (retailer) DO UPDATE SET version = excluded.version, updated = excluded.updated,
                fetched_at = excluded.fetched_at, station_count = excluded.station_count,
                last_success_at = excluded.last_success_at, source = excluded.source,
                content_hash = excluded.content_hash
            """, persistent: true)
        recordFailure = try database.prepare("""
            INSERT INTO feeds (retailer, last_error_at, last_error, last_error_source) VALUES (?, ?, ?, ?)
            ON CONFLICT (retailer) DO UPDATE SET last_error_at = excluded.last_error_at,
                last_error = excluded.last_error, last_error_source = excluded.last_error_source
            """, persistent: true)
        recordKnownFailure = try database.prepare(
            "UPDATE feeds SET last_error_at = ?2, last_error = ?3, last_error_source = ?4 WHERE retailer = ?1",
            persistent: true)
        selectAll = try database.prepare(StationRowCoding.selectSQL + " ORDER BY id", persistent: true)
        selectRetailer = try database.prepare(
            StationRowCoding.selectSQL + " WHERE retailer = ? ORDER BY id", persistent: true)
    }

    /// Closes the database; later calls throw. Also happens on deinit.
    public func close() {
        database.close()
    }

    /// Replaces every station of `retailer` with `stations` and records the feed, in one
    /// transaction; other retailers are untouched.
    ///
    /// - Returns: the new store version.
    /// - Throws: `StationStoreError` for invalid input or a station a constraint refused (e.g. an id
    ///   another retailer already holds), `SQLiteError` for storage failures. In every case nothing
    ///   changed.
    @discardableResult
    public func replaceRetailer(_ retailer: String, stations: [Station], updated: Date, fetchedAt: Date,
                                source: String?, contentHash: String? = nil) throws -> UInt64 {
        guard !retailer.isEmpty else { throw StationStoreError.emptyRetailer }
        for station in stations {
            try StationRowCoding.validate(station, retailer: retailer)
        }
        let newVersion = try database.transaction {
            let newVersion = try nextVersion()
            try deleteRetailer.bind(retailer, at: 1)
            try deleteRetailer.run()
            for index in StationRowCoding.insertionOrder(stations) {
                let station = stations[index]
                do {
                    try StationRowCoding.bind(station, to: insertStation)
                    try insertStation.run()
                } catch let error as SQLiteError where error.isConstraintViolation {
                    throw StationStoreError.stationRejected(stationID: station.id, reason: error)
                }
            }
            try recordSuccess.bind(retailer, at: 1)
            try recordSuccess.bind(Int64(bitPattern: newVersion), at: 2)
            try recordSuccess.bind(updated.timeIntervalSinceReferenceDate, at: 3)
            try recordSuccess.bind(fetchedAt.timeIntervalSinceReferenceDate, at: 4)
            try recordSuccess.bind(stations.count, at: 5)
            try recordSuccess.bind(now().timeIntervalSinceReferenceDate, at: 6)
            try recordSuccess.bind(source, at: 7)
            try recordSuccess.bind(contentHash, at: 8)
            try recordSuccess.run()
            return newVersion
        }
        version = newVersion
        servedMark.write(storeID: storeID, version: newVersion)
        return newVersion
    }

    /// Removes `retailer`: its stations and its feed's record, in one transaction, under a new store
    /// version (replicas drop it when they see that version). Other retailers are untouched.
    ///
    /// - Returns: the new version and how many stations went, or nil when the store holds neither
    ///   stations nor a feed record for `retailer` (nothing changed, no version used).
    public func removeRetailer(_ retailer: String) throws -> (version: UInt64, stations: Int)? {
        guard !retailer.isEmpty else { throw StationStoreError.emptyRetailer }
        let removed: (version: UInt64, stations: Int)? = try database.transaction {
            try deleteRetailer.bind(retailer, at: 1)
            try deleteRetailer.run()
            let stations = database.changes
            let forget = try database.prepare("DELETE FROM feeds WHERE retailer = ?")
            try forget.bind(retailer, at: 1)
            try forget.run()
            guard stations > 0 || database.changes > 0 else { return nil }
            return (try nextVersion(), stations)
        }
        if let removed {
            version = removed.version
            servedMark.write(storeID: storeID, version: removed.version)
        }
        return removed
    }

    /// Records that fetching or parsing `retailer`'s feed failed. Stations and version are untouched.
    /// A retailer with no feed yet gets a failing one when `createsFeed` (a configured feed's poll:
    /// the operator asked for it), and nothing otherwise (a request naming a retailer nobody knows
    /// must not leave a feed behind, failing for ever).
    public func recordFeedFailure(_ retailer: String, message: String, at time: Date, source: String?,
                                  createsFeed: Bool) throws {
        guard !retailer.isEmpty else { throw StationStoreError.emptyRetailer }
        let statement = createsFeed ? recordFailure : recordKnownFailure
        try statement.bind(retailer, at: 1)
        try statement.bind(time.timeIntervalSinceReferenceDate, at: 2)
        try statement.bind(message, at: 3)
        try statement.bind(source, at: 4)
        try statement.run()
    }

    /// The fingerprint of the bytes `retailer`'s stored stations were read from (as given to
    /// `replaceRetailer`), nil when none was recorded.
    public func contentHash(of retailer: String) throws -> String? {
        let query = try database.prepare("SELECT content_hash FROM feeds WHERE retailer = ?")
        try query.bind(retailer, at: 1)
        return try query.firstRow { $0.optionalString(at: 0) } ?? nil
    }

    /// Each stored retailer's fingerprint (those with one recorded).
    public func fingerprints() throws -> [String: String] {
        let query = try database.prepare("SELECT retailer, content_hash FROM feeds WHERE content_hash IS NOT NULL")
        var found: [String: String] = [:]
        try query.forEachRow { row in found[row.string(at: 0)] = row.string(at: 1) }
        return found
    }

    /// The fingerprint of the feed stored at the store's version: nil when that change removed a
    /// retailer, or none was recorded (`PriceHeartbeat.head`).
    public func headFingerprint() throws -> String? {
        let query = try database.prepare("""
            SELECT content_hash FROM feeds WHERE version = (SELECT version FROM store_state WHERE singleton = 1)
            """)
        return try query.firstRow { $0.optionalString(at: 0) } ?? nil
    }

    /// Records that `retailer`'s feed was fetched again at `time` and found unchanged: it counts
    /// as a success and a fresh fetch; stations and versions are untouched.
    public func recordUnchangedFetch(_ retailer: String, at time: Date) throws {
        let update = try database.prepare("UPDATE feeds SET fetched_at = ?, last_success_at = ? WHERE retailer = ?")
        try update.bind(time.timeIntervalSinceReferenceDate, at: 1)
        try update.bind(time.timeIntervalSinceReferenceDate, at: 2)
        try update.bind(retailer, at: 3)
        try update.run()
    }

    /// Copies the WAL into the database file and empties it (e.g. after a large replace).
    public func checkpoint() throws {
        try database.checkpoint(truncate: true)
    }

    /// `PRAGMA integrity_check`: `["ok"]` when the file is sound.
    public func integrityCheck() throws -> [String] {
        try database.integrityCheck()
    }

    // MARK: - Version counter

    private func nextVersion() throws -> UInt64 {
        try Self.version(from: bumpVersion.firstRow { $0.int64(at: 0) })
    }

    private static func readVersion(_ database: Database) throws -> UInt64 {
        let query = try database.prepare("SELECT version FROM store_state WHERE singleton = 1")
        return try version(from: query.firstRow { $0.int64(at: 0) })
    }

    private static func version(from stored: Int64?) throws -> UInt64 {
        guard let stored else {
            throw StationStoreError.corruptRow(stationID: "-", detail: "store_state has no version row")
        }
        guard let version = UInt64(exactly: stored) else {
            throw StationStoreError.corruptRow(stationID: "-", detail: "negative store version \(stored)")
        }
        return version
    }
}

/// Owned by one thread or actor, like its `Database`.
@available(*, unavailable)
extension StationStore: Sendable {}
