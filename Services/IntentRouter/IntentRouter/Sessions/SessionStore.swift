import Messages

/// Open sessions in memory, keyed by a random id, bounded in number and age.
///
/// A session belongs to one user: another user's id is not found. An expired session is gone:
/// an answer to it is treated as a fresh utterance. The clock is injectable so tests need no
/// sleeping.
///
/// Questions live in a `SessionTable` (O(1) amortised, a few per user). Follow-ups of an answer,
/// one opened for every station search, are cheaper still: one per user, replaced by the next, in
/// a table by user (an ask's follow-up session cost intent-router 5 µs of CPU in the other tables,
/// 15% of an ask, at load-test rates).
public final class SessionStore {
    public let timeToLive: Duration
    public var maxSessions: Int { questions.maxSessions }
    public var maxPerUser: Int { questions.maxPerUser }
    private let now: () -> ContinuousClock.Instant
    private var questions: SessionTable<Session>
    private let ids = SessionIDs()
    /// Each user's follow-up session (`Awaiting.followUp`), at most one.
    private var followUps: [String: Session] = [:]

    public init(timeToLive: Duration = .seconds(30), maxSessions: Int = 100_000, maxPerUser: Int = 4,
                now: @escaping () -> ContinuousClock.Instant = { ContinuousClock.now }) {
        self.timeToLive = timeToLive
        questions = SessionTable(maxSessions: maxSessions, maxPerUser: maxPerUser)
        self.now = now
    }

    /// Sessions held, expired ones included until the next purge.
    public var count: Int { questions.count + followUps.count }

    /// Open questions dropped, still live, to make room in a full table (`maxSessions`).
    public var questionsEndedEarly: UInt64 { questions.endedEarly }

    /// Opens a session for `user`; the user's oldest is closed when they hold too many, and the
    /// store's oldest when it is full.
    @discardableResult
    public func open(user: String, awaiting: Awaiting, location: Coordinate?) -> Session {
        if case .followUp = awaiting { return openFollowUp(user: user, awaiting: awaiting, location: location) }
        let current = now()
        let session = Session(id: newID(), user: user, awaiting: awaiting, location: location,
                              misunderstandings: 0, expiresAt: current + timeToLive)
        questions.insert(session, now: current)
        return session
    }

    /// Replaces the user's follow-up session. When the table is full of live ones, another user's
    /// goes (any one: a load test's thousands of users must not leave real users without theirs).
    private func openFollowUp(user: String, awaiting: Awaiting, location: Coordinate?) -> Session {
        let session = Session(id: newID(), user: user, awaiting: awaiting, location: location, misunderstandings: 0,
                              expiresAt: now() + timeToLive)
        if followUps.count >= maxSessions, followUps[user] == nil {
            dropExpiredFollowUps(at: now())
            if followUps.count >= maxSessions { followUps.remove(at: followUps.startIndex) }
        }
        followUps[user] = session
        return session
    }

    /// Puts `session`, a follow-up, back as its user's in place of the follow-up `replacing` (a
    /// search refused when handled puts back the conversation it came from), with a fresh time to
    /// live. False, and nothing changed, when the user's follow-up is another by now.
    @discardableResult
    public func reinstate(_ session: Session, replacing id: String) -> Bool {
        guard case .followUp = session.awaiting, followUps[session.user]?.id == id else { return false }
        var renewed = session
        renewed.expiresAt = now() + timeToLive
        followUps[session.user] = renewed
        return true
    }

    /// Keeps the station a station search's answer named on that answer's follow-up session.
    public func remember(_ answered: RenderRequest, session id: String, user: String) {
        guard followUps[user]?.id == id else { return }
        followUps[user]?.answered = answered
    }

    /// The live session `id` of `user`, or nil (unknown, another user's, or expired).
    public func find(_ id: String, user: String) -> Session? {
        if let followUp = followUps[user], followUp.id == id {
            guard followUp.expiresAt > now() else {
                followUps[user] = nil
                return nil
            }
            return followUp
        }
        return questions.find(id, user: user, now: now())
    }

    /// Stores a changed session, a question or a follow-up still held, and gives it a fresh time to live.
    public func keep(_ session: Session) {
        if case .followUp = session.awaiting {
            guard followUps[session.user]?.id == session.id else { return }
            var renewed = session
            renewed.expiresAt = now() + timeToLive
            followUps[session.user] = renewed
            return
        }
        questions.keep(session, until: now() + timeToLive)
    }

    /// Closes `session`, a question or a follow-up.
    public func close(_ session: Session) {
        if case .followUp = session.awaiting {
            if followUps[session.user]?.id == session.id { followUps[session.user] = nil }
            return
        }
        close(session.id)
    }

    public func close(_ id: String) {
        questions.remove(id)
    }

    /// Drops every expired session; returns how many.
    @discardableResult
    public func purgeExpired() -> Int {
        let current = now()
        return dropExpiredFollowUps(at: current) + questions.purgeExpired(now: current)
    }

    /// Removes the expired follow-ups where they are; returns how many. (A filter built a new table
    /// of every live one at each purge: 5,000 users took the router's loop ~1,100 instructions
    /// each, once a second.)
    @discardableResult
    private func dropExpiredFollowUps(at current: ContinuousClock.Instant) -> Int {
        var expired: [String] = []
        for index in followUps.indices where followUps.values[index].expiresAt <= current {
            expired.append(followUps.keys[index])
        }
        for user in expired { followUps[user] = nil }
        return expired.count
    }

    /// A new session id (128 random bits as 32 hex digits).
    func newID() -> String { ids.next() }
}

extension Session: ExpiringSession {}
