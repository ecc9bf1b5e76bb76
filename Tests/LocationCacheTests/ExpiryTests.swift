import Foundation
import LocationCache
import Messages
import Testing

struct ExpiryTests {
    @Test func get_whenTTLHasPassed_isNotFound() throws {
        let fixture = try HandlerFixture(ttl: .seconds(3600))
        try fixture.put()
        fixture.clock.advance(by: 3600)
        #expect(fixture.code { try fixture.get() } == .notFound)
    }

    @Test func get_justBeforeTheTTL_returnsTheLocation() throws {
        let fixture = try HandlerFixture(ttl: .seconds(3600))
        try fixture.put()
        fixture.clock.advance(by: 3599)
        #expect(try fixture.get().ageSeconds == 3599)
    }

    @Test func get_whenExpiredButNotYetPurged_isNotFoundWhileTheRowStillExists() throws {
        let fixture = try HandlerFixture(ttl: .seconds(60))
        try fixture.put()
        fixture.clock.advance(by: 61)
        #expect(fixture.code { try fixture.get() } == .notFound)
        #expect(try fixture.store.anyLocation(user: Canary.user) != nil)
    }

    @Test func purge_deletesExpiredRowsAndKeepsLiveOnes() throws {
        let fixture = try HandlerFixture(ttl: .seconds(600))
        try fixture.put("old")
        fixture.clock.advance(by: 300)
        try fixture.put("recent")
        fixture.clock.advance(by: 301)
        #expect(fixture.handler.purgeExpired() == 1)
        #expect(try fixture.store.anyLocation(user: "old") == nil)
        #expect(try fixture.get("recent").ageSeconds == 301)
        #expect(fixture.handler.expiredPurged == 1)
        #expect(fixture.handler.purgeExpired() == 0)
    }

    @Test func purge_erasesExpiredPositionsFromTheFiles() throws {
        let fixture = try HandlerFixture(ttl: .seconds(60))
        try fixture.put()
        try fixture.put("keeper", lat: 48.8566123, lng: 2.3522456)
        fixture.clock.advance(by: 30)
        try fixture.put("keeper", lat: 48.8566123, lng: 2.3522456)
        let directory = fixture.directory.url
        #expect(try !DiskBytes.filesContaining(DiskBytes.real(Canary.lat), in: directory).isEmpty)
        fixture.clock.advance(by: 31)
        fixture.handler.purgeExpired()
        #expect(try DiskBytes.filesContaining(DiskBytes.real(Canary.lat), in: directory).isEmpty)
        #expect(try DiskBytes.filesContaining(DiskBytes.real(Canary.lng), in: directory).isEmpty)
        #expect(try DiskBytes.filesContaining(DiskBytes.text(Canary.user), in: directory).isEmpty)
        #expect(try !DiskBytes.filesContaining(DiskBytes.real(48.8566123), in: directory).isEmpty)
    }

    @Test func put_whenHeldLocationExpired_replacesItEvenIfOlder() throws {
        let fixture = try HandlerFixture(ttl: .seconds(3600))
        let first = fixture.clock.now
        try fixture.put(lat: 1, lng: 1, at: first)
        fixture.clock.advance(by: 3700)
        try fixture.reopen(ttl: .seconds(24 * 3600))
        let reply = try fixture.put(lat: 2, lng: 2, at: first.addingTimeInterval(-100))
        #expect(reply.stored)
        #expect(try fixture.get().lat == 2)
    }

    @Test func reopen_withShorterTTL_hidesAndPurgesOlderLocations() throws {
        let fixture = try HandlerFixture(ttl: .seconds(24 * 3600))
        try fixture.put()
        fixture.clock.advance(by: 2 * 3600)
        try fixture.reopen(ttl: .seconds(3600))
        #expect(fixture.code { try fixture.get() } == .notFound)
        #expect(fixture.handler.purgeExpired() == 1)
    }

    @Test func reopen_withLongerTTL_keepsTheExpiryTheLocationWasStoredWith() throws {
        let fixture = try HandlerFixture(ttl: .seconds(3600))
        try fixture.put()
        try fixture.reopen(ttl: .seconds(24 * 3600))
        fixture.clock.advance(by: 3600)
        #expect(fixture.code { try fixture.get() } == .notFound)
    }
}
