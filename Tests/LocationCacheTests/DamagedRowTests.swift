import Foundation
import LocationCache
import SQLite
import Testing

/// The tables' CHECK constraints keep text out of number columns on every write; a damaged page or
/// an edit with the checks off does not. Such a value would read as 0: a user placed at 0°N 0°E.
struct DamagedRowTests {
    private let window = LiveWindow(now: TestClock.start, ttl: 3600)

    private func damagedStore(_ directory: TemporaryDirectory, _ damage: String) throws -> LocationStore {
        let store = try LocationStore(directory: directory.url)
        try store.put(StoredLocation(lat: 51.5, lng: -0.12, observedAt: TestClock.start, expiresAt: TestClock.start + 3600),
                      user: "u1", window: window)
        try store.setPreferences(StoredPreferences(radiusMiles: 10, unit: .km), user: "u1")
        let editor = try Database(path: store.fileURL.path)
        try editor.execute("PRAGMA ignore_check_constraints = ON")
        try editor.execute(damage)
        editor.close()
        return store
    }

    private func expectCorrupt(_ damage: String, column expected: String,
                               read: (LocationStore) throws -> Void) throws {
        let directory = try TemporaryDirectory()
        let store = try damagedStore(directory, damage)
        let error = try #require(throws: LocationStoreError.self) { try read(store) }
        guard case .corruptRow(_, let column) = error else {
            Issue.record("expected corruptRow, got \(error)")
            return
        }
        #expect(column == expected)
    }

    @Test func location_whenTheLatitudeIsText_isRefused() throws {
        try expectCorrupt("UPDATE locations SET lat = 'north'", column: "lat") {
            _ = try $0.location(user: "u1", window: window)
        }
    }

    @Test func location_whenTheExpiryIsText_isRefused() throws {
        // Text sorts after every number, so the row even looked live.
        try expectCorrupt("UPDATE locations SET expires_at = 'never'", column: "expires_at") {
            _ = try $0.location(user: "u1", window: window)
        }
    }

    @Test func location_whenTheLongitudeIsOffTheEarth_isRefused() throws {
        try expectCorrupt("UPDATE locations SET lng = 720.5", column: "lng") {
            _ = try $0.anyLocation(user: "u1")
        }
    }

    @Test func preferences_whenTheRadiusIsText_isRefused() throws {
        try expectCorrupt("UPDATE preferences SET radius_miles = 'far'", column: "radius_miles") {
            _ = try $0.preferences(user: "u1")
        }
    }
}
