import Foundation
import LocationCache
import Messages
import Testing

struct ForgetTests {
    @Test func forget_whenLocationAndPreferencesHeld_removesBoth() throws {
        let fixture = try HandlerFixture()
        try fixture.put()
        try fixture.setPreferences(radius: .set(10), unit: .set(.km))
        #expect(try fixture.forget().forgotten)
        #expect(fixture.code { try fixture.get() } == .notFound)
        #expect(try fixture.preferences() == .default)
        #expect(try fixture.store.counts() == LocationStore.Counts(users: 0, locations: 0, preferences: 0))
    }

    @Test func forget_whenNothingHeld_repliesNotForgotten() throws {
        let fixture = try HandlerFixture()
        #expect(try fixture.forget("stranger").forgotten == false)
    }

    @Test func forget_whenRepeated_secondTimeNotForgotten() throws {
        let fixture = try HandlerFixture()
        try fixture.put()
        #expect(try fixture.forget().forgotten)
        #expect(try fixture.forget().forgotten == false)
        #expect(fixture.handler.usersForgotten == 1)
    }

    @Test func forget_whenOnlyPreferencesHeld_removesThem() throws {
        let fixture = try HandlerFixture()
        try fixture.setPreferences(unit: .set(.km))
        #expect(try fixture.forget().forgotten)
        #expect(try fixture.store.preferences(user: Canary.user).isEmpty)
    }

    @Test func forget_whenOtherUsersHeld_leavesThemUntouched() throws {
        let fixture = try HandlerFixture()
        try fixture.put()
        try fixture.put("neighbour", lat: 50, lng: 1)
        try fixture.setPreferences("neighbour", radius: .set(15))
        try fixture.forget()
        #expect(try fixture.get("neighbour").lat == 50)
        #expect(try fixture.preferences("neighbour").radiusMiles == 15)
    }

    @Test func forget_whenUserIdInvalid_isBadRequest() throws {
        let fixture = try HandlerFixture()
        #expect(fixture.code { try fixture.forget(String(repeating: "z", count: 200)) } == .badRequest)
    }
}
