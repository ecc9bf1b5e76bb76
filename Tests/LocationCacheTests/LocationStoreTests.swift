import Foundation
import LocationCache
import Messages
import SQLite
import Testing

struct LocationStoreTests {
    private let window = LiveWindow(now: TestClock.start, ttl: 3600)

    private func location(_ lat: Double, _ lng: Double) -> StoredLocation {
        StoredLocation(lat: lat, lng: lng, observedAt: TestClock.start, expiresAt: TestClock.start + 3600)
    }

    @Test func store_whenClosedAndReopened_keepsLocationsAndPreferences() throws {
        let directory = try TemporaryDirectory()
        do {
            let store = try LocationStore(directory: directory.url)
            try store.put(location(51.5, -0.12), user: "u1", window: window)
            try store.setPreferences(StoredPreferences(radiusMiles: 10, unit: .km), user: "u1")
            store.close()
        }
        let reopened = try LocationStore(directory: directory.url)
        #expect(try reopened.location(user: "u1", window: window) == location(51.5, -0.12))
        #expect(try reopened.preferences(user: "u1") == StoredPreferences(radiusMiles: 10, unit: .km))
    }

    @Test func store_whenOpened_createsItsFileInTheDataDirectory() throws {
        let directory = try TemporaryDirectory()
        let nested = directory.url.appendingPathComponent("var/data")
        let store = try LocationStore(directory: nested)
        #expect(store.fileURL.lastPathComponent == "location-cache.sqlite")
        #expect(FileManager.default.fileExists(atPath: nested.appendingPathComponent("location-cache.sqlite").path))
    }

    @Test func store_whenFileHasNewerSchema_refusesToOpen() throws {
        let directory = try TemporaryDirectory()
        do {
            let database = try Database(path: directory.url.appendingPathComponent(LocationStore.fileName).path)
            try database.setUserVersion(99)
            database.close()
        }
        #expect(throws: LocationStoreError.self) { try LocationStore(directory: directory.url) }
    }

    @Test func put_whenCalledAgainWithSameTime_isIdempotent() throws {
        let directory = try TemporaryDirectory()
        let store = try LocationStore(directory: directory.url)
        #expect(try store.put(location(1, 2), user: "u", window: window).stored)
        #expect(try store.put(location(1, 2), user: "u", window: window).stored)
        #expect(try store.counts() == LocationStore.Counts(users: 1, locations: 1, preferences: 0))
    }

    @Test func put_whenTheHeldRowIsNoLongerLive_replacesItEvenWithAnOlderLocation() throws {
        let directory = try TemporaryDirectory()
        let store = try LocationStore(directory: directory.url)
        let start = TestClock.start
        try store.put(location(1, 1), user: "u", window: window)
        let older = StoredLocation(lat: 2, lng: 2, observedAt: start - 10, expiresAt: start + 7190)
        // Past the window's TTL (observed before now - ttl), though its own expiry is still ahead.
        let laterWindow = LiveWindow(now: start + 3600, ttl: 3600)
        #expect(try store.put(older, user: "u", window: laterWindow) == (true, older))
        #expect(try store.anyLocation(user: "u") == older)
        // Past its own expiry.
        let newest = StoredLocation(lat: 3, lng: 3, observedAt: start - 20, expiresAt: start + 100)
        #expect(try store.put(newest, user: "u", window: LiveWindow(now: start + 7190, ttl: 7200)) == (true, newest))
    }

    @Test func put_whenTheHeldRowIsLiveAndNewer_keepsItAndReturnsIt() throws {
        let directory = try TemporaryDirectory()
        let store = try LocationStore(directory: directory.url)
        try store.put(location(1, 1), user: "u", window: window)
        let older = StoredLocation(lat: 2, lng: 2, observedAt: TestClock.start - 10, expiresAt: TestClock.start + 3590)
        #expect(try store.put(older, user: "u", window: window) == (false, location(1, 1)))
        #expect(try store.counts().locations == 1)
    }

    @Test func counts_whenUserHasLocationAndPreferences_countsTheUserOnce() throws {
        let directory = try TemporaryDirectory()
        let store = try LocationStore(directory: directory.url)
        try store.put(location(1, 2), user: "both", window: window)
        try store.setPreferences(StoredPreferences(unit: .km), user: "both")
        try store.setPreferences(StoredPreferences(radiusMiles: 15), user: "prefs-only")
        #expect(try store.counts() == LocationStore.Counts(users: 2, locations: 1, preferences: 2))
    }
}
