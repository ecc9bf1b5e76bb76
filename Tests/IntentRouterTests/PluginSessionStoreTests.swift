@testable import IntentRouter
import Messages
import Testing

/// Plug-in sessions are bounded as the built-in questions are: a few per user (one user could
/// fill the whole store before, leaving other users without theirs) and the soonest to expire
/// making room in a full store.
struct PluginSessionStoreTests {
    let clock = TestClock()

    func store(maxSessions: Int = 100, maxPerUser: Int = 4) -> PluginSessionStore {
        let clock = clock
        return PluginSessionStore(timeToLive: .seconds(30), maxSessions: maxSessions, maxPerUser: maxPerUser,
                                  now: { clock.now })
    }

    func open(_ sessions: PluginSessionStore, user: String) -> PluginSession {
        sessions.open(user: user, intent: "Timer", parameters: [:], awaiting: .value("minutes"), location: nil) { id in
            AssistantReply(code: .needsValue, dialog: "How long?", session: id)
        }
    }

    @Test func open_whenAUserHoldsTooMany_closesTheirOldestOnly() {
        let sessions = store(maxPerUser: 2)
        let other = open(sessions, user: "u2")
        let first = open(sessions, user: "u1")
        clock.advance(by: .seconds(1))
        let second = open(sessions, user: "u1")
        let third = open(sessions, user: "u1")
        #expect(sessions.find(first.id, user: "u1") == nil)
        #expect(sessions.find(second.id, user: "u1") != nil && sessions.find(third.id, user: "u1") != nil)
        #expect(sessions.find(other.id, user: "u2") != nil)
        #expect(sessions.count == 3)
    }

    @Test func open_whenFull_dropsTheSoonestToExpire() {
        let sessions = store(maxSessions: 3)
        let users = ["a", "b", "c"].map { user in
            defer { clock.advance(by: .seconds(1)) }
            return open(sessions, user: user)
        }
        sessions.keep(users[0])  // renewed: now the last to expire
        let newest = open(sessions, user: "d")
        #expect(sessions.count == 3)
        #expect(sessions.find(users[1].id, user: "b") == nil)
        #expect(sessions.find(users[0].id, user: "a") != nil)
        #expect(sessions.find(newest.id, user: "d") != nil)
    }

    @Test func find_whenExpiredOrAnotherUsers_isNil() {
        let sessions = store()
        let session = open(sessions, user: "u1")
        #expect(sessions.find(session.id, user: "u2") == nil)
        clock.advance(by: .seconds(30))
        #expect(sessions.find(session.id, user: "u1") == nil)
        #expect(sessions.count == 0)
    }
}
