import Foundation
import LocationCache
import Messages
import Testing

struct StatsTests {
    @Test func statsDetails_reportUsersStoredAndExpiredPurged() throws {
        let fixture = try HandlerFixture(ttl: .seconds(60))
        try fixture.put("a")
        try fixture.put("b")
        try fixture.setPreferences("c", unit: .set(.km))
        fixture.clock.advance(by: 30)
        try fixture.put("b")
        fixture.clock.advance(by: 31)
        fixture.handler.purgeExpired()
        try fixture.forget("c")
        let details = fixture.handler.statsDetails()
        #expect(details["usersStored"] == .number(1))
        #expect(details["locationsStored"] == .number(1))
        #expect(details["preferencesStored"] == .number(0))
        #expect(details["expiredPurged"] == .number(1))
        #expect(details["usersForgotten"] == .number(1))
        #expect(details["ttlSeconds"] == .number(60))
    }
}
