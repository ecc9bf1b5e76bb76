import Foundation
import LocationCache
import Messages
import Testing

struct PreferencesTests {
    @Test func preferences_whenNoneStored_areTheDefaults() throws {
        let fixture = try HandlerFixture()
        #expect(try fixture.preferences() == Preferences(radiusMiles: 5, unit: .miles))
    }

    @Test(arguments: [1.0, 5, 10, 15, 22.5, 50])
    func set_whenRadiusWithinOneToFifty_returnsIt(miles: Double) throws {
        let fixture = try HandlerFixture()
        #expect(try fixture.setPreferences(radius: .set(miles)) == Preferences(radiusMiles: miles, unit: .miles))
        #expect(try fixture.preferences().radiusMiles == miles)
    }

    @Test(arguments: [0.0, 0.99, 50.01, 51, -5, .nan, .infinity])
    func set_whenRadiusOutsideOneToFifty_isBadRequestAndChangesNothing(miles: Double) throws {
        let fixture = try HandlerFixture()
        try fixture.setPreferences(radius: .set(10))
        #expect(fixture.code { try fixture.setPreferences(radius: .set(miles), unit: .set(.km)) } == .badRequest)
        #expect(try fixture.preferences() == Preferences(radiusMiles: 10, unit: .miles))
    }

    @Test func set_whenUnitSet_keepsTheRadius() throws {
        let fixture = try HandlerFixture()
        try fixture.setPreferences(radius: .set(15))
        #expect(try fixture.setPreferences(unit: .set(.km)) == Preferences(radiusMiles: 15, unit: .km))
    }

    @Test func set_whenNothingMentioned_changesNothing() throws {
        let fixture = try HandlerFixture()
        try fixture.setPreferences(radius: .set(10), unit: .set(.km))
        #expect(try fixture.setPreferences() == Preferences(radiusMiles: 10, unit: .km))
    }

    @Test func set_whenRadiusCleared_returnsItToTheDefaultAndKeepsUnit() throws {
        let fixture = try HandlerFixture()
        try fixture.setPreferences(radius: .set(10), unit: .set(.km))
        #expect(try fixture.setPreferences(radius: .clear) == Preferences(radiusMiles: 5, unit: .km))
        #expect(try fixture.preferences() == Preferences(radiusMiles: 5, unit: .km))
    }

    @Test func set_whenUnitCleared_returnsItToMiles() throws {
        let fixture = try HandlerFixture()
        try fixture.setPreferences(radius: .set(10), unit: .set(.km))
        #expect(try fixture.setPreferences(unit: .clear) == Preferences(radiusMiles: 10, unit: .miles))
    }

    @Test func set_whenEverythingCleared_keepsNoRow() throws {
        let fixture = try HandlerFixture()
        try fixture.setPreferences(radius: .set(10), unit: .set(.km))
        #expect(try fixture.setPreferences(radius: .clear, unit: .clear) == .default)
        #expect(try fixture.store.counts().preferences == 0)
    }

    @Test func set_whenUserIdInvalid_isBadRequest() throws {
        let fixture = try HandlerFixture()
        #expect(fixture.code { try fixture.setPreferences("", radius: .set(10)) } == .badRequest)
        #expect(fixture.code { try fixture.preferences("") } == .badRequest)
    }

    @Test func preferences_whenStoreReopened_areKept() throws {
        let fixture = try HandlerFixture()
        try fixture.setPreferences(radius: .set(15), unit: .set(.km))
        try fixture.reopen()
        #expect(try fixture.preferences() == Preferences(radiusMiles: 15, unit: .km))
    }

    @Test func preferences_whenLocationExpires_areKept() throws {
        let fixture = try HandlerFixture(ttl: .seconds(60))
        try fixture.put()
        try fixture.setPreferences(radius: .set(10))
        fixture.clock.advance(by: 120)
        fixture.handler.purgeExpired()
        #expect(try fixture.preferences().radiusMiles == 10)
    }
}
