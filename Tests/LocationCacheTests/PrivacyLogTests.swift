import Foundation
import LocationCache
import Messages
import ServiceKit
import Testing

/// No log line and no error sentence carries a position; users appear only as pseudonyms.
struct PrivacyLogTests {
    private func carriesPersonalData(_ text: String) -> Bool {
        text.contains(Canary.user) || Canary.coordinateDigits.contains { text.contains($0) }
    }

    @Test func pseudonym_isStableForOneKeyAndHidesTheUserId() {
        let pseudonym = UserPseudonym(key: (1, 2))
        #expect(pseudonym(Canary.user) == pseudonym(Canary.user))
        #expect(pseudonym(Canary.user) != pseudonym("someone-else"))
        #expect(!pseudonym(Canary.user).contains("canary"))
        #expect(pseudonym(Canary.user).count == 10)
    }

    @Test func pseudonym_differsBetweenKeys() {
        #expect(UserPseudonym(key: (1, 2))(Canary.user) != UserPseudonym(key: (3, 4))(Canary.user))
    }

    @Test func logs_forEveryKindOfEvent_carryRequestIdsButNoPositionOrUserId() throws {
        let fixture = try HandlerFixture(ttl: .seconds(600))
        try fixture.put()
        _ = try fixture.get()
        try fixture.setPreferences(radius: .set(10), unit: .set(.km))
        _ = try fixture.preferences()
        try fixture.put("second-user", lat: -33.8567844, lng: 151.2152967)
        fixture.clock.advance(by: 601)
        fixture.handler.purgeExpired()
        _ = fixture.code { try fixture.get() }
        try fixture.forget()
        let entries = fixture.logs.entries
        #expect(entries.count >= 8)
        for entry in entries {
            #expect(!carriesPersonalData(entry.rendered), "log line: \(entry.rendered)")
            #expect(!entry.rendered.contains("33.856") && !entry.rendered.contains("151.215"))
        }
        let perRequest = entries.filter { $0.metadata["svc.request.id"] != nil }
        #expect(perRequest.count == 7)
        #expect(perRequest.allSatisfy { $0.metadata["user"]?.hasPrefix("u-") == true })
        #expect(entries.contains { $0.message == "user forgotten" && $0.level == .notice })
        #expect(entries.contains { $0.message == "expired locations purged" && $0.metadata["count"] == "2" })
    }

    @Test func errorSentences_forRefusedPuts_carryNoPositionOrUserId() throws {
        let fixture = try HandlerFixture()
        let refused: [() throws -> LocationPutReply] = [
            { try fixture.put(lat: Canary.lat + 90, lng: Canary.lng) },
            { try fixture.put(lat: Canary.lat, lng: Canary.lng + 360) },
            { try fixture.put(at: fixture.clock.now.addingTimeInterval(-2 * 86_400)) },
            { try fixture.put(at: fixture.clock.now.addingTimeInterval(86_400)) },
            { try fixture.put(Canary.user + String(repeating: "!", count: 200)) },
        ]
        for call in refused {
            let error = try #require(fixture.error(call))
            #expect(error.code == .badRequest)
            #expect(!carriesPersonalData(error.message), "error sentence: \(error.message)")
        }
        #expect(fixture.code { try fixture.get() } == .notFound)
        let notFound = try #require(fixture.error { try fixture.get() })
        #expect(!carriesPersonalData(notFound.message))
    }

    @Test func entry_whenBuilt_hashesTheUserAndKeepsOnlyCounts() {
        let log = EventLog(pseudonym: UserPseudonym(key: (5, 6))) { _ in }
        let entry = log.entry(.info, "location stored", requestID: "r1", user: Canary.user, counts: ["rows": 2])
        #expect(entry.message == "location stored")
        #expect(entry.metadata == ["svc.request.id": "r1", "user": UserPseudonym(key: (5, 6))(Canary.user),
                                   "rows": "2"])
    }
}
