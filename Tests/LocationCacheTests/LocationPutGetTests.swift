import Foundation
import LocationCache
import Messages
import Testing

struct LocationPutGetTests {
    @Test func put_whenValid_getReturnsPositionAndTime() throws {
        let fixture = try HandlerFixture()
        let at = fixture.clock.now.addingTimeInterval(-600)
        let reply = try fixture.put(at: at)
        #expect(reply == LocationPutReply(stored: true, at: at, expiresAt: at.addingTimeInterval(24 * 3600),
                                          preferences: .default))
        let location = try fixture.get()
        #expect(location == LocationReply(lat: Canary.lat, lng: Canary.lng, at: at, ageSeconds: 600))
    }

    @Test func put_answersWithTheUsersPreferences() throws {
        let fixture = try HandlerFixture()
        _ = try fixture.setPreferences(radius: .set(12), unit: .set(.km))
        #expect(try fixture.put().preferences == Preferences(radiusMiles: 12, unit: .km))
        #expect(try fixture.put("someone-else").preferences == .default)
    }

    @Test func put_whenAtMissing_usesTheServiceClock() throws {
        let fixture = try HandlerFixture()
        let reply = try fixture.put()
        #expect(reply.at == fixture.clock.now)
        fixture.clock.advance(by: 90)
        #expect(try fixture.get().ageSeconds == 90)
    }

    @Test func put_whenAtOlderThanTTL_isBadRequestAndStoresNothing() throws {
        let fixture = try HandlerFixture(ttl: .seconds(3600))
        let error = fixture.error { try fixture.put(at: fixture.clock.now.addingTimeInterval(-3600)) }
        #expect(error?.code == .badRequest)
        #expect(error?.message.contains("TTL") == true)
        #expect(fixture.code { try fixture.get() } == .notFound)
        #expect(try fixture.store.anyLocation(user: Canary.user) == nil)
    }

    @Test func put_whenAtMoreThanFiveMinutesAhead_isBadRequest() throws {
        let fixture = try HandlerFixture()
        #expect(fixture.code { try fixture.put(at: fixture.clock.now.addingTimeInterval(301)) } == .badRequest)
        #expect(try fixture.store.anyLocation(user: Canary.user) == nil)
    }

    /// Up to five minutes ahead (a device clock a little fast) is taken, as now: as given, it
    /// outlived the TTL and hid the next puts as older.
    @Test func put_whenAtSlightlyAhead_isStoredAsNow_withAgeZero() throws {
        let fixture = try HandlerFixture()
        let at = fixture.clock.now.addingTimeInterval(300)
        #expect(try fixture.put(at: at).stored)
        let location = try fixture.get()
        #expect(location.at == fixture.clock.now)
        #expect(location.ageSeconds == 0)
    }

    @Test(arguments: [(91.0, 0.0), (-90.000001, 0.0), (0.0, 180.5), (0.0, -181.0), (.nan, 0.0), (0.0, .infinity),
                      (-.infinity, 0.0), (1e300, 1e300)])
    func put_whenCoordinateInvalid_isBadRequestAndStoresNothing(lat: Double, lng: Double) throws {
        let fixture = try HandlerFixture()
        #expect(fixture.code { try fixture.put(lat: lat, lng: lng) } == .badRequest)
        #expect(try fixture.store.anyLocation(user: Canary.user) == nil)
    }

    @Test(arguments: [(90.0, 180.0), (-90.0, -180.0), (0.0, 0.0)])
    func put_whenCoordinateOnTheBounds_isStored(lat: Double, lng: Double) throws {
        let fixture = try HandlerFixture()
        try fixture.put(lat: lat, lng: lng)
        let location = try fixture.get()
        #expect(location.lat == lat && location.lng == lng)
    }

    @Test(arguments: ["", String(repeating: "u", count: 129), "tab\tuser", "nul\u{0}user",
                      "e" + String(repeating: "\u{301}", count: 600)])
    func put_whenUserIdInvalid_isBadRequest(user: String) throws {
        let fixture = try HandlerFixture()
        #expect(fixture.code { try fixture.put(user) } == .badRequest)
        #expect(try fixture.store.counts().locations == 0)
    }

    @Test(arguments: ["u", String(repeating: "x", count: 128), "émile-ü-用户"])
    func put_whenUserIdWithinLimits_isStored(user: String) throws {
        let fixture = try HandlerFixture()
        try fixture.put(user)
        #expect(try fixture.get(user).lat == Canary.lat)
    }

    @Test func put_whenRefused_leavesTheHeldLocationUnchanged() throws {
        let fixture = try HandlerFixture()
        try fixture.put()
        _ = fixture.code { try fixture.put(lat: 95, lng: 1) }
        _ = fixture.code { try fixture.put(lat: 10, lng: 10, at: fixture.clock.now.addingTimeInterval(3600)) }
        _ = fixture.code { try fixture.put(lat: .nan, lng: 10) }
        let location = try fixture.get()
        #expect(location.lat == Canary.lat && location.lng == Canary.lng)
    }

    @Test func put_whenOlderThanTheHeldLocation_keepsTheNewerOne() throws {
        let fixture = try HandlerFixture()
        let newer = fixture.clock.now
        try fixture.put(lat: 52, lng: -1, at: newer)
        let reply = try fixture.put(lat: 53, lng: -2, at: newer.addingTimeInterval(-60))
        #expect(reply == LocationPutReply(stored: false, at: newer, expiresAt: newer.addingTimeInterval(24 * 3600),
                                          preferences: .default))
        #expect(try fixture.get().lat == 52)
    }

    @Test func put_whenNewerThanTheHeldLocation_replacesIt() throws {
        let fixture = try HandlerFixture()
        try fixture.put(lat: 52, lng: -1, at: fixture.clock.now.addingTimeInterval(-60))
        #expect(try fixture.put(lat: 53, lng: -2).stored)
        let location = try fixture.get()
        #expect(location.lat == 53 && location.lng == -2 && location.at == fixture.clock.now)
    }

    @Test func get_whenNothingStored_isNotFound() throws {
        let fixture = try HandlerFixture()
        #expect(fixture.code { try fixture.get("nobody") } == .notFound)
    }

    @Test func get_whenUserIdInvalid_isBadRequest() throws {
        let fixture = try HandlerFixture()
        #expect(fixture.code { try fixture.get("") } == .badRequest)
    }

    @Test func get_whenOtherUsersStored_returnsOnlyOwnLocation() throws {
        let fixture = try HandlerFixture()
        try fixture.put("a", lat: 10, lng: 20)
        try fixture.put("b", lat: -10, lng: -20)
        #expect(try fixture.get("a").lat == 10)
        #expect(try fixture.get("b").lng == -20)
    }
}
