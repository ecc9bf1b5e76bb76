import Foundation
import LocationCache
import Messages
import Testing

/// `location.forget` must leave no copy of the user's rows in the database file or its WAL.
struct ErasureTests {
    private static let canaryNeedles: [(String, Data)] = [
        ("user id", DiskBytes.text(Canary.user)),
        ("lat", DiskBytes.real(Canary.lat)),
        ("lng", DiskBytes.real(Canary.lng)),
    ]

    /// A store with the canary user among many others, so its rows share pages with theirs.
    private func populatedFixture() throws -> HandlerFixture {
        let fixture = try HandlerFixture()
        for index in 0..<40 {
            try fixture.put("other-\(index)", lat: 50 + Double(index) / 1000, lng: -1 - Double(index) / 1000)
        }
        try fixture.put()
        try fixture.setPreferences(radius: .set(15), unit: .set(.km))
        try fixture.put("other-late", lat: 49.25, lng: -2.75)
        return fixture
    }

    @Test func forget_erasesUserIdAndCoordinatesFromDatabaseAndWAL() throws {
        let fixture = try populatedFixture()
        let directory = fixture.directory.url
        for (name, needle) in Self.canaryNeedles {
            #expect(try !DiskBytes.filesContaining(needle, in: directory).isEmpty, "\(name) on disk before forget")
        }
        try fixture.forget()
        for (name, needle) in Self.canaryNeedles {
            #expect(try DiskBytes.filesContaining(needle, in: directory).isEmpty, "\(name) still on disk")
        }
        #expect(try !DiskBytes.filesContaining(DiskBytes.text("other-late"), in: directory).isEmpty)
        #expect(try !DiskBytes.filesContaining(DiskBytes.real(49.25), in: directory).isEmpty)
    }

    @Test func forget_whenRowsWereCheckpointedIntoTheDatabaseFile_erasesThemThere() throws {
        let fixture = try populatedFixture()
        try fixture.store.checkpoint()
        let directory = fixture.directory.url
        #expect(try DiskBytes.filesContaining(DiskBytes.real(Canary.lat), in: directory) == [LocationStore.fileName])
        try fixture.forget()
        #expect(try DiskBytes.filesContaining(DiskBytes.real(Canary.lat), in: directory).isEmpty)
        #expect(try DiskBytes.filesContaining(DiskBytes.text(Canary.user), in: directory).isEmpty)
    }

    @Test func forget_whenLocationWasOverwritten_erasesEveryEarlierPositionToo() throws {
        let fixture = try HandlerFixture()
        try fixture.put(lat: 53.1234567, lng: -1.7654321, at: fixture.clock.now.addingTimeInterval(-60))
        try fixture.put()
        try fixture.forget()
        let directory = fixture.directory.url
        #expect(try DiskBytes.filesContaining(DiskBytes.real(53.1234567), in: directory).isEmpty)
        #expect(try DiskBytes.filesContaining(DiskBytes.real(Canary.lat), in: directory).isEmpty)
    }

    @Test func forget_whenTheUserIdIsTooLongForOnePage_erasesItsOverflowToo() throws {
        let fixture = try populatedFixture()
        let longUser = String(repeating: "用", count: 128)  // 384 bytes: the row overflows a 1024-byte page
        try fixture.put(longUser, lat: 47.1234567, lng: 8.7654321)
        try fixture.setPreferences(longUser, radius: .set(7))
        try fixture.store.checkpoint()
        let directory = fixture.directory.url
        #expect(try fixture.get(longUser).lat == 47.1234567)
        // The id is split between the row's page and its overflow page: look for both ends.
        let head = DiskBytes.text(longUser).prefix(60), tail = DiskBytes.text(longUser).suffix(60)
        #expect(try DiskBytes.filesContaining(head, in: directory) == [LocationStore.fileName])
        #expect(try DiskBytes.filesContaining(tail, in: directory) == [LocationStore.fileName])
        try fixture.forget(longUser)
        for needle in [head, tail, DiskBytes.real(47.1234567)] {
            #expect(try DiskBytes.filesContaining(needle, in: directory).isEmpty)
        }
        #expect(try fixture.store.integrityCheck() == ["ok"])
    }

    @Test func forget_leavesTheWALEmpty() throws {
        let fixture = try populatedFixture()
        #expect((DiskBytes.walSize(in: fixture.directory.url) ?? 0) > 0)
        try fixture.forget()
        #expect(DiskBytes.walSize(in: fixture.directory.url) == 0)
        #expect(fixture.handler.checkpointPending == false)
    }

    @Test func forget_keepsTheFileSound() throws {
        let fixture = try populatedFixture()
        try fixture.forget()
        #expect(try fixture.store.integrityCheck() == ["ok"])
        try fixture.reopen()
        #expect(try fixture.store.counts() == LocationStore.Counts(users: 41, locations: 41, preferences: 0))
    }
}
