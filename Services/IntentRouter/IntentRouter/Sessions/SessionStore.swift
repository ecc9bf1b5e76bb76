import Messages

/// Open sessions in memory, keyed by a random id, bounded in number and age.
///
/// A session belongs to one user: another user's id is not found. An expired session is gone:
/// an answer to it is treated as a fresh utterance. The clock is injectable so tests need no
/// sleeping.
///
/// Questions are O(1) amortised: a user's few ids are listed per user, and the ids wait in a queue
/// in the order they expire (one time to live for all, so the order they were opened or renewed
/// in). Follow-ups of an answer, one opened for every station search, are cheaper still: one per
/// user, replaced by the next, in a table by user (an ask's follow-up session cost intent-router
/// 5 µs of CPU in the other tables, 15% of an ask, at load-test rates).
public final class SessionStore {
    public let timeToLive: Duration
    public let maxSessions: Int
    public let maxPerUser: Int
    private let now: () -> ContinuousClock.Instant
    private var sessions: [String: Session] = [:]
    /// Each user's open session ids, oldest first.
    private var idsByUser: [String: [String]] = [:]
    /// Ids by when they expire, soonest first; an entry is stale once its session has closed or
    /// been renewed (its `expiresAt` then differs).
    private var expiryQueue = ExpiryQueue()
    private let ids = SessionIDs()
    /// Each user's follow-up session (`Awaiting.followUp`), at most one.
    private var followUps: [String: Session] = [:]

    public init(timeToLive: Duration = .seconds(30), maxSessions: Int = 100_000, maxPerUser: Int = 4,
                now: @escaping () -> ContinuousClock.Instant = { ContinuousClock.now }) {
        self.timeToLive = timeToLive
        self.maxSessions = max(1, maxSessions)
        self.maxPerUser = max(1, maxPerUser)
        self.now = now
    }

    /// Sessions held, expired ones included until the next purge.
    public var count: Int { sessions.count + followUps.count }

    /// Opens a session for `user`; the user's oldest is closed when they hold too many, and the
    /// store's oldest when it is full.
    @discardableResult
    public func open(user: String, awaiting: Awaiting, location: Coordinate?) -> Session {
        if case .followUp = awaiting { return openFollowUp(user: user, awaiting: awaiting, location: location) }
        if let ids = idsByUser[user], ids.count >= maxPerUser { close(ids[0]) }
        if sessions.count >= maxSessions { purgeExpired() }
        while sessions.count >= maxSessions, let oldest = expiryQueue.popFirst() {
            if sessions[oldest.id]?.expiresAt == oldest.expiresAt { close(oldest.id) }
        }
        let session = Session(id: newID(), user: user, awaiting: awaiting, location: location,
                              misunderstandings: 0, expiresAt: now() + timeToLive)
        sessions[session.id] = session
        idsByUser[user, default: []].append(session.id)
        expiryQueue.append(id: session.id, expiresAt: session.expiresAt)
        return session
    }

    /// Replaces the user's follow-up session. When the table is full of live ones, another user's
    /// goes (any one: a load test's thousands of users must not leave real users without theirs).
    private func openFollowUp(user: String, awaiting: Awaiting, location: Coordinate?) -> Session {
        let session = Session(id: newID(), user: user, awaiting: awaiting, location: location, misunderstandings: 0,
                              expiresAt: now() + timeToLive)
        if followUps.count >= maxSessions, followUps[user] == nil {
            let current = now()
            followUps = followUps.filter { $0.value.expiresAt > current }
            if followUps.count >= maxSessions { followUps.remove(at: followUps.startIndex) }
        }
        followUps[user] = session
        return session
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
        guard let session = sessions[id], session.user == user else { return nil }
        guard session.expiresAt > now() else {
            close(id)
            return nil
        }
        return session
    }

    /// Stores a changed session and gives it a fresh time to live.
    public func keep(_ session: Session) {
        guard sessions[session.id] != nil else { return }
        var renewed = session
        renewed.expiresAt = now() + timeToLive
        sessions[session.id] = renewed
        expiryQueue.append(id: session.id, expiresAt: renewed.expiresAt)
        compactQueueIfMostlyStale()
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
        guard let session = sessions.removeValue(forKey: id) else { return }
        guard var ids = idsByUser[session.user] else { return }
        ids.removeAll { $0 == id }
        idsByUser[session.user] = ids.isEmpty ? nil : ids
    }

    /// Drops every expired session; returns how many.
    @discardableResult
    public func purgeExpired() -> Int {
        let current = now()
        let followUpsBefore = followUps.count
        followUps = followUps.filter { $0.value.expiresAt > current }
        let before = sessions.count + followUpsBefore - followUps.count
        while let first = expiryQueue.first, first.expiresAt <= current {
            _ = expiryQueue.popFirst()
            if sessions[first.id]?.expiresAt == first.expiresAt { close(first.id) }
        }
        return before - sessions.count
    }

    /// Renewals leave stale entries behind until they reach the front; rebuilt when they outnumber
    /// the sessions by far, so a store renewed many times within one time to live stays small.
    private func compactQueueIfMostlyStale() {
        guard expiryQueue.count > 4 * sessions.count + 1024 else { return }
        expiryQueue = ExpiryQueue(sessions.values.sorted { $0.expiresAt < $1.expiresAt }
            .map { (id: $0.id, expiresAt: $0.expiresAt) })
    }

    /// A new session id (128 random bits as 32 hex digits).
    func newID() -> String { ids.next() }
}

/// A first-in first-out queue of session ids and when they expire (an array read from a moving
/// head, its spent front dropped once it is half the array).
private struct ExpiryQueue {
    typealias Entry = (id: String, expiresAt: ContinuousClock.Instant)
    private var entries: [Entry]
    private var head = 0

    init(_ entries: [Entry] = []) {
        self.entries = entries
    }

    var count: Int { entries.count - head }
    var first: Entry? { head < entries.count ? entries[head] : nil }

    mutating func append(id: String, expiresAt: ContinuousClock.Instant) {
        entries.append((id, expiresAt))
    }

    mutating func popFirst() -> Entry? {
        guard head < entries.count else { return nil }
        let entry = entries[head]
        head += 1
        if head >= 1024, head * 2 >= entries.count {
            entries.removeFirst(head)
            head = 0
        }
        return entry
    }
}
