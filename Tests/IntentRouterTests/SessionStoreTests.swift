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

    /// Live questions dropped for room are counted (sys.stats, a log line): a flood of made-up users
    /// ends real users' conversations, and the operator sees it. Expired ones dropped are not.
    @Test func open_whenStoreFullOfLiveQuestions_countsThoseEndedEarly() {
        let sessions = store(maxSessions: 3)
        for index in 0 ..< 3 { sessions.open(user: "u\(index)", awaiting: .radius, location: nil) }
        #expect(sessions.questionsEndedEarly == 0)
        for index in 3 ..< 5 { sessions.open(user: "u\(index)", awaiting: .radius, location: nil) }
        #expect(sessions.questionsEndedEarly == 2)
        clock.advance(by: .seconds(31))
        for index in 5 ..< 8 { sessions.open(user: "u\(index)", awaiting: .radius, location: nil) }
        #expect(sessions.questionsEndedEarly == 2, "expired ones made the room")
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

    @Test func purgeExpired_dropsOnlyExpiredFollowUps() {
        let sessions = store()
        let followUp = Awaiting.followUp(search: .cheapestFuel, fuel: .b7, within: nil)
        for index in 0 ..< 3 { sessions.open(user: "old\(index)", awaiting: followUp, location: nil) }
        clock.advance(by: .seconds(20))
        let young = sessions.open(user: "young", awaiting: followUp, location: nil)
        let kept = sessions.open(user: "old0", awaiting: followUp, location: nil)
        clock.advance(by: .seconds(15))
        #expect(sessions.purgeExpired() == 2, "old1 and old2; old0's was replaced by a younger one")
        #expect(sessions.count == 2)
        #expect(sessions.find(young.id, user: "young") != nil)
        #expect(sessions.find(kept.id, user: "old0") != nil)
        clock.advance(by: .seconds(20))
        #expect(sessions.purgeExpired() == 2)
        #expect(sessions.count == 0)
    }

    @Test func ids_areRandomAndLong() {
        let sessions = store(maxSessions: 1000)
        // Past one pool of random bits (256 ids): the refill gives new ones too.
        let ids = (0 ..< 600).map { sessions.open(user: "u\($0)", awaiting: .radius, location: nil).id }
        #expect(Set(ids).count == 600)
        #expect(ids.allSatisfy { $0.count == 32 && $0.allSatisfy(\.isHexDigit) })
        let nibbles = ids.joined()
        #expect(Set(nibbles).count == 16, "every hex digit appears")
    }

    @Test func open_whenStoreFull_closesTheOldest_notARenewedOne() {
        let sessions = store(maxSessions: 3)
        let first = sessions.open(user: "u1", awaiting: .radius, location: nil)
        clock.advance(by: .seconds(1))
        let second = sessions.open(user: "u2", awaiting: .radius, location: nil)
        clock.advance(by: .seconds(1))
        sessions.open(user: "u3", awaiting: .radius, location: nil)
        clock.advance(by: .seconds(1))
        sessions.keep(first)
        sessions.open(user: "u4", awaiting: .radius, location: nil)
        #expect(sessions.find(first.id, user: "u1") != nil, "renewed: now the youngest but one")
        #expect(sessions.find(second.id, user: "u2") == nil, "the oldest left")
        #expect(sessions.count == 3)
    }

    @Test func close_freesTheUsersPlace() {
        let sessions = store(maxPerUser: 2)
        let first = sessions.open(user: "u1", awaiting: .radius, location: nil)
        let second = sessions.open(user: "u1", awaiting: .unit, location: nil)
        sessions.close(second.id)
        sessions.open(user: "u1", awaiting: .confirmForget, location: nil)
        #expect(sessions.find(first.id, user: "u1") != nil, "two open again: nobody closed")
        #expect(sessions.count == 2)
    }

    /// Every station search opens a session: a load test's thousands of users stay within the
    /// bounds, each user with at most their share.
    @Test func manyUsersSearchingMuch_stayWithinBothBounds() {
        let sessions = store(maxSessions: 1000, maxPerUser: 4)
        var last: [String: String] = [:]
        for index in 0 ..< 20_000 {
            let user = "load-\(index % 5000)"
            last[user] = sessions.open(user: user, awaiting: .radius, location: nil).id
            if index % 1000 == 0 { clock.advance(by: .seconds(1)) }
        }
        #expect(sessions.count == 1000)
        let newest = (19_000 ..< 20_000).map { "load-\($0 % 5000)" }
        #expect(newest.allSatisfy { sessions.find(last[$0]!, user: $0) != nil }, "the newest thousand are open")
        clock.advance(by: .seconds(31))
        #expect(sessions.purgeExpired() == 1000)
        #expect(sessions.count == 0)
    }

    @Test func keptManyTimes_expiresOnlyAfterItsLastRenewal() {
        let sessions = store()
        let session = sessions.open(user: "u1", awaiting: .radius, location: nil)
        for _ in 0 ..< 3000 {
            clock.advance(by: .milliseconds(10))
            sessions.keep(session)
        }
        clock.advance(by: .seconds(29))
        #expect(sessions.purgeExpired() == 0)
        #expect(sessions.find(session.id, user: "u1") != nil)
        clock.advance(by: .seconds(1))
        #expect(sessions.purgeExpired() == 1)
    }

    /// A user's follow-up session is replaced by their next; questions are kept apart from it.
    @Test func followUps_oneAUser_replacedByTheNext_andApartFromQuestions() {
        let sessions = store(maxSessions: 100, maxPerUser: 4)
        let followUp = Awaiting.followUp(search: .cheapestFuel, fuel: .b7, within: nil)
        let question = sessions.open(user: "u1", awaiting: .radius, location: nil)
        let first = sessions.open(user: "u1", awaiting: followUp, location: nil)
        let second = sessions.open(user: "u1", awaiting: followUp, location: nil)
        #expect(sessions.find(first.id, user: "u1") == nil, "replaced")
        #expect(sessions.find(second.id, user: "u1") != nil)
        #expect(sessions.find(second.id, user: "u2") == nil, "another user's")
        #expect(sessions.find(question.id, user: "u1") != nil)
        #expect(sessions.count == 2)
        sessions.close(second)
        #expect(sessions.find(second.id, user: "u1") == nil)
        let third = sessions.open(user: "u1", awaiting: followUp, location: nil)
        clock.advance(by: .seconds(30))
        #expect(sessions.find(third.id, user: "u1") == nil, "expired")
    }

    /// A full table of live follow-ups makes room by letting another user's go: a load test with
    /// generated users filled it and then every real user's "take me there" was "ended" (re-check).
    @Test func followUps_whenTheTableIsFullOfLiveOnes_theNewestIsKept() {
        let sessions = store(maxSessions: 3)
        let followUp = Awaiting.followUp(search: .nearestFuel, fuel: .e10, within: nil)
        for user in ["a", "b", "c"] { sessions.open(user: user, awaiting: followUp, location: nil) }
        let newest = sessions.open(user: "d", awaiting: followUp, location: nil)
        #expect(sessions.find(newest.id, user: "d") != nil)
        #expect(sessions.count == 3)
        clock.advance(by: .seconds(31))
        let kept = sessions.open(user: "e", awaiting: followUp, location: nil)
        #expect(sessions.find(kept.id, user: "e") != nil)
        #expect(sessions.count == 1, "expired ones went first")
    }
}
