import IntentRouter
import Testing

struct SessionStoreTests {
    let clock = TestClock()

    func store(maxSessions: Int = 100, maxPerUser: Int = 4) -> SessionStore {
        let clock = clock
        return SessionStore(timeToLive: .seconds(30), maxSessions: maxSessions, maxPerUser: maxPerUser,
                            now: { clock.now })
    }

    @Test func find_whenExpired_isGone() {
        let sessions = store()
        let session = sessions.open(user: "u1", awaiting: .radius, location: nil)
        clock.advance(by: .seconds(30))
        #expect(sessions.find(session.id, user: "u1") == nil)
    }

    @Test func keep_givesAFreshTimeToLive() {
        let sessions = store()
        let session = sessions.open(user: "u1", awaiting: .radius, location: nil)
        clock.advance(by: .seconds(20))
        sessions.keep(session)
        clock.advance(by: .seconds(20))
        #expect(sessions.find(session.id, user: "u1") != nil)
    }

    @Test func open_whenUserHoldsTooMany_closesTheirOldest() {
        let sessions = store(maxPerUser: 2)
        let first = sessions.open(user: "u1", awaiting: .radius, location: nil)
        clock.advance(by: .seconds(1))
        sessions.open(user: "u1", awaiting: .unit, location: nil)
        sessions.open(user: "u1", awaiting: .confirmForget, location: nil)
        #expect(sessions.find(first.id, user: "u1") == nil)
        #expect(sessions.count == 2)
    }

    @Test func open_whenStoreFull_staysBounded() {
        let sessions = store(maxSessions: 3)
        for index in 0 ..< 10 { sessions.open(user: "u\(index)", awaiting: .radius, location: nil) }
        #expect(sessions.count == 3)
    }

    @Test func purgeExpired_dropsOnlyExpired() {
        let sessions = store()
        sessions.open(user: "u1", awaiting: .radius, location: nil)
        clock.advance(by: .seconds(20))
        let young = sessions.open(user: "u2", awaiting: .radius, location: nil)
        clock.advance(by: .seconds(15))
        #expect(sessions.purgeExpired() == 1)
        #expect(sessions.find(young.id, user: "u2") != nil)
    }

    @Test func ids_areRandomAndLong() {
        let sessions = store()
        let ids = Set((0 ..< 50).map { sessions.open(user: "u\($0)", awaiting: .radius, location: nil).id })
        #expect(ids.count == 50)
        #expect(ids.allSatisfy { $0.count == 32 })
    }
}
