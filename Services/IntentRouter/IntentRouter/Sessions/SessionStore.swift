import Messages

/// Open sessions in memory, keyed by a random id, bounded in number and age.
///
/// A session belongs to one user: another user's id is not found. An expired session is gone:
/// an answer to it is treated as a fresh utterance. The clock is injectable so tests need no
/// sleeping.
public final class SessionStore {
    public let timeToLive: Duration
    public let maxSessions: Int
    public let maxPerUser: Int
    private let now: () -> ContinuousClock.Instant
    private var sessions: [String: Session] = [:]

    public init(timeToLive: Duration = .seconds(30), maxSessions: Int = 100_000, maxPerUser: Int = 4,
                now: @escaping () -> ContinuousClock.Instant = { ContinuousClock.now }) {
        self.timeToLive = timeToLive
        self.maxSessions = max(1, maxSessions)
        self.maxPerUser = max(1, maxPerUser)
        self.now = now
    }

    /// Sessions held, expired ones included until the next purge.
    public var count: Int { sessions.count }

    /// Opens a session for `user`; the user's oldest is closed when they hold too many.
    @discardableResult
    public func open(user: String, awaiting: Awaiting, location: Coordinate?) -> Session {
        let userSessions = sessions.values.filter { $0.user == user }
        if userSessions.count >= maxPerUser, let oldest = userSessions.min(by: { $0.expiresAt < $1.expiresAt }) {
            sessions[oldest.id] = nil
        }
        if sessions.count >= maxSessions { purgeExpired() }
        if sessions.count >= maxSessions, let oldest = sessions.values.min(by: { $0.expiresAt < $1.expiresAt }) {
            sessions[oldest.id] = nil
        }
        let session = Session(id: Self.newID(), user: user, awaiting: awaiting, location: location,
                              misunderstandings: 0, expiresAt: now() + timeToLive)
        sessions[session.id] = session
        return session
    }

    /// The live session `id` of `user`, or nil (unknown, another user's, or expired).
    public func find(_ id: String, user: String) -> Session? {
        guard let session = sessions[id], session.user == user else { return nil }
        guard session.expiresAt > now() else {
            sessions[id] = nil
            return nil
        }
        return session
    }

    /// Stores a changed session and gives it a fresh time to live.
    public func keep(_ session: Session) {
        var renewed = session
        renewed.expiresAt = now() + timeToLive
        sessions[session.id] = renewed
    }

    public func close(_ id: String) {
        sessions[id] = nil
    }

    /// Drops every expired session; returns how many.
    @discardableResult
    public func purgeExpired() -> Int {
        let current = now()
        let before = sessions.count
        sessions = sessions.filter { $0.value.expiresAt > current }
        return before - sessions.count
    }

    /// 128 random bits as 32 hex digits.
    static func newID() -> String {
        var generator = SystemRandomNumberGenerator()
        func hex(_ value: UInt64) -> String {
            let digits = String(value, radix: 16)
            return String(repeating: "0", count: 16 - digits.count) + digits
        }
        return hex(generator.next()) + hex(generator.next())
    }
}
