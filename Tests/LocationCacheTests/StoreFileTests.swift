import Foundation
import LocationCache
import Messages
import SQLite
import Testing

/// The file itself: schema version 2 (no expiry index) and 1024-byte pages, for new files and for
/// files written by the version-1 code, which keep every row.
struct StoreFileTests {
    /// The tables version 1 created, as that code wrote them.
    private static let version1Schema = """
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
        PRAGMA user_version = 1;
        """

    private let window = LiveWindow(now: TestClock.start, ttl: 3600)

    /// What the file says about itself, read through a connection of its own.
    private struct FileFacts: Equatable {
        var pageSize: Int
        var userVersion: Int
        var journalMode: String
        var hasExpiryIndex: Bool
        var integrity: [String]
    }

    private func facts(of directory: URL) throws -> FileFacts {
        let database = try Database(path: directory.appendingPathComponent(LocationStore.fileName).path)
        defer { database.close() }
        func number(_ sql: String) throws -> Int { try database.prepare(sql).firstRow { $0.int(at: 0) } ?? -1 }
        return FileFacts(
            pageSize: try number("PRAGMA page_size"),
            userVersion: try number("PRAGMA user_version"),
            journalMode: try database.journalMode(),
            hasExpiryIndex: try number("SELECT count(*) FROM sqlite_schema WHERE name = 'locations_by_expiry'") > 0,
            integrity: try database.integrityCheck())
    }

    private func expectedFacts() -> FileFacts {
        FileFacts(pageSize: LocationStore.pageSize, userVersion: 2, journalMode: "wal", hasExpiryIndex: false,
                  integrity: ["ok"])
    }

    /// A file as the version-1 code left it: 4096-byte pages, the expiry index, rows in both tables.
    private func writeVersion1File(in directory: URL, users: Int) throws {
        let database = try Database(path: directory.appendingPathComponent(LocationStore.fileName).path)
        defer { database.close() }
        try database.execute(Self.version1Schema)
        let start = TestClock.start.timeIntervalSince1970
        try database.transaction {
            let insert = try database.prepare("INSERT INTO locations VALUES (?1, ?2, ?3, ?4, ?5)")
            for index in 0..<users {
                try insert.bind("user-\(index)", at: 1)
                try insert.bind(50 + Double(index) / 10_000, at: 2)
                try insert.bind(-1 - Double(index) / 10_000, at: 3)
                try insert.bind(start, at: 4)
                try insert.bind(start + 3600, at: 5)
                try insert.run()
            }
            try database.execute("INSERT INTO preferences VALUES ('user-7', 12, 'km')")
        }
    }

    @Test func newStore_hasSmallPagesAndNoExpiryIndex() throws {
        let directory = try TemporaryDirectory()
        try LocationStore(directory: directory.url).close()
        #expect(try facts(of: directory.url) == expectedFacts())
    }

    @Test func version1File_isMigratedAndRebuiltWithSmallPages_keepingEveryRow() throws {
        let directory = try TemporaryDirectory()
        try writeVersion1File(in: directory.url, users: 3000)
        #expect(try facts(of: directory.url).pageSize == 4096)
        #expect(try facts(of: directory.url).hasExpiryIndex)

        let store = try LocationStore(directory: directory.url)
        #expect(try store.counts() == LocationStore.Counts(users: 3000, locations: 3000, preferences: 1))
        let held = try #require(try store.location(user: "user-2999", window: window))
        #expect(held.lat == 50.2999 && held.lng == -1.2999 && held.observedAt == TestClock.start)
        #expect(try store.preferences(user: "user-7") == StoredPreferences(radiusMiles: 12, unit: .km))
        let later = StoredLocation(lat: 51, lng: 0.5, observedAt: TestClock.start + 60,
                                   expiresAt: TestClock.start + 3660)
        #expect(try store.put(later, user: "user-5", window: window).stored)
        store.close()

        #expect(try facts(of: directory.url) == expectedFacts())
        let reopened = try LocationStore(directory: directory.url)
        #expect(try reopened.location(user: "user-5", window: window) == later)
    }

    @Test func store_whenReopened_keepsItsPageSizeAndRows() throws {
        let directory = try TemporaryDirectory()
        let location = StoredLocation(lat: 1, lng: 2, observedAt: TestClock.start, expiresAt: TestClock.start + 3600)
        do {
            let store = try LocationStore(directory: directory.url)
            try store.put(location, user: "u", window: window)
            store.close()
        }
        let reopened = try LocationStore(directory: directory.url)
        #expect(try reopened.location(user: "u", window: window) == location)
        reopened.close()
        #expect(try facts(of: directory.url) == expectedFacts())
    }

    @Test func purge_withoutTheExpiryIndex_stillDeletesOnlyWhatIsNoLongerLive() throws {
        let directory = try TemporaryDirectory()
        try writeVersion1File(in: directory.url, users: 10)
        let store = try LocationStore(directory: directory.url)
        let fresh = StoredLocation(lat: 3, lng: 4, observedAt: TestClock.start + 3000,
                                   expiresAt: TestClock.start + 6600)
        try store.put(fresh, user: "user-3", window: window)
        #expect(try store.purgeExpired(window: LiveWindow(now: TestClock.start + 3600, ttl: 3600)) == 9)
        #expect(try store.counts().locations == 1)
        #expect(try store.anyLocation(user: "user-3") == fresh)
    }
}
