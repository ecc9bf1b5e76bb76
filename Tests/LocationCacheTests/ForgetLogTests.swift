@testable import LocationCache
import Messages
import Testing

/// How forgets are logged: a lone one as its own event, a batch committed together in one line
/// (a load test's 5,000 users forgotten wrote 5,000 lines, 2 MB of log after four runs).
struct ForgetLogTests {
    @Test func aLoneForget_isOneLineWithItsRequestAndPseudonym() throws {
        let fixture = try HandlerFixture()
        try fixture.put()
        let before = fixture.logs.entries.count
        #expect(try fixture.forget().forgotten)
        let lines = fixture.logs.entries.dropFirst(before).filter { $0.message.hasPrefix("user") && $0.level >= .info }
        #expect(lines.count == 1)
        #expect(lines.first?.message == "user forgotten" && lines.first?.metadata["rows"] == "1")
        #expect(lines.first?.metadata["svc.request.id"] != nil && lines.first?.metadata["user"]?.hasPrefix("u-") == true)
    }

    @Test func forgetsCommittedTogether_areOneLineCountingThem() throws {
        let fixture = try HandlerFixture()
        for index in 0..<5 { try fixture.put("user-\(index)") }
        let before = fixture.logs.entries.count
        let erasures = try (0..<7).map { index in
            try fixture.handler.eraseInBatch(UserRequest(user: "user-\(index)"), requestID: fixture.nextID())
        }
        let replies = fixture.handler.erasuresCommitted(erasures)
        #expect(replies.map(\.forgotten) == [true, true, true, true, true, false, false])
        let lines = fixture.logs.entries.dropFirst(before).filter { $0.message.hasPrefix("user") && $0.level >= .info }
        #expect(lines.map(\.message) == ["users forgotten"])
        // Each erasure's request stays traceable at debug level.
        let traced = fixture.logs.entries.dropFirst(before).filter { $0.message == "user forgotten" && $0.level == .debug }
        #expect(traced.count == 7 && traced.allSatisfy { $0.metadata["svc.request.id"] != nil })
        #expect(lines.first?.metadata == ["forgets": "7", "forgotten": "5", "rows": "5"])
        #expect(fixture.handler.usersForgotten == 5)
    }
}
