/// What `SessionTable` needs of a session: whose it is and until when it lives.
protocol ExpiringSession {
    var id: String { get }
    var user: String { get }
    var expiresAt: ContinuousClock.Instant { get set }
}

/// Open sessions bounded in number, per user and in age: the built-in questions' and the plug-ins'.
///
/// O(1) amortised: a user's few ids are listed per user, and the ids wait in a queue in the order
/// they expire (one time to live for all, so the order they were opened or renewed in). A user
/// holding `maxPerUser` loses their oldest to a new one; a full table first drops the expired,
/// then the soonest to expire.
struct SessionTable<Entry: ExpiringSession> {
    let maxSessions: Int
    let maxPerUser: Int
    private var sessions: [String: Entry] = [:]
    /// Each user's open session ids, oldest first.
    private var idsByUser: [String: [String]] = [:]
    /// Ids by when they expire, soonest first; an entry is stale once its session has closed or
    /// been renewed (its `expiresAt` then differs).
    private var expiryQueue = ExpiryQueue()
    /// Live sessions dropped to make room in a full table: conversations ended before their time.
    private(set) var endedEarly: UInt64 = 0

    init(maxSessions: Int, maxPerUser: Int) {
        self.maxSessions = max(1, maxSessions)
        self.maxPerUser = max(1, maxPerUser)
    }

    /// Sessions held, expired ones included until they are found or purged.
    var count: Int { sessions.count }

    /// Adds a new session, making room for it first.
    mutating func insert(_ session: Entry, now: ContinuousClock.Instant) {
        if let ids = idsByUser[session.user], ids.count >= maxPerUser { remove(ids[0]) }
        if sessions.count >= maxSessions { purgeExpired(now: now) }
        while sessions.count >= maxSessions, let oldest = expiryQueue.popFirst() {
            if sessions[oldest.id]?.expiresAt == oldest.expiresAt {
                remove(oldest.id)
                endedEarly += 1
            }
        }
        sessions[session.id] = session
        idsByUser[session.user, default: []].append(session.id)
        expiryQueue.append(id: session.id, expiresAt: session.expiresAt)
    }

    /// The live session `id` of `user`, or nil (unknown, another user's, or expired: then removed).
    mutating func find(_ id: String, user: String, now: ContinuousClock.Instant) -> Entry? {
        guard let session = sessions[id], session.user == user else { return nil }
        guard session.expiresAt > now else {
            remove(id)
            return nil
        }
        return session
    }

    /// Stores a changed session that is still held, to live until `expiresAt`.
    mutating func keep(_ session: Entry, until expiresAt: ContinuousClock.Instant) {
        guard sessions[session.id] != nil else { return }
        var renewed = session
        renewed.expiresAt = expiresAt
        sessions[session.id] = renewed
        expiryQueue.append(id: session.id, expiresAt: expiresAt)
        compactQueueIfMostlyStale()
    }

    mutating func remove(_ id: String) {
        guard let session = sessions.removeValue(forKey: id) else { return }
        guard var ids = idsByUser[session.user] else { return }
        ids.removeAll { $0 == id }
        idsByUser[session.user] = ids.isEmpty ? nil : ids
    }

    /// Drops every expired session; returns how many.
    @discardableResult
    mutating func purgeExpired(now: ContinuousClock.Instant) -> Int {
        let before = sessions.count
        while let first = expiryQueue.first, first.expiresAt <= now {
            _ = expiryQueue.popFirst()
            if sessions[first.id]?.expiresAt == first.expiresAt { remove(first.id) }
        }
        return before - sessions.count
    }

    /// Renewals leave stale entries behind until they reach the front; rebuilt when they outnumber
    /// the sessions by far, so a table renewed many times within one time to live stays small.
    private mutating func compactQueueIfMostlyStale() {
        guard expiryQueue.count > 4 * sessions.count + 1024 else { return }
        expiryQueue = ExpiryQueue(sessions.values.sorted { $0.expiresAt < $1.expiresAt }
            .map { (id: $0.id, expiresAt: $0.expiresAt) })
    }
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
