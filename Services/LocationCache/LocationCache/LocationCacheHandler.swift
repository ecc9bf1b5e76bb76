import Foundation
import Messages
import ServiceKit

/// The request logic of location-cache, free of ZeroMQ: validates each request, applies it to the
/// store and logs one line per event (without positions). Owned by the service's loop thread.
public final class LocationCacheHandler {
    public let store: LocationStore
    /// How long a location lives after its observation time, in seconds.
    public let ttl: TimeInterval
    private let now: @Sendable () -> Date
    private let log: EventLog
    /// Locations deleted by the purge since start.
    public private(set) var expiredPurged = 0
    /// `location.forget` requests that removed something, since start.
    public private(set) var usersForgotten = 0
    /// Set when emptying the WAL failed after an erasure; the next purge retries it.
    public private(set) var checkpointPending = false

    public init(store: LocationStore, ttl: Duration, now: @escaping @Sendable () -> Date, log: EventLog) {
        self.store = store
        self.ttl = ttl.inSeconds
        self.now = now
        self.log = log
    }

    private var window: LiveWindow { LiveWindow(now: now(), ttl: ttl) }

    // MARK: - Locations

    /// Stores a location and answers with what is held and the user's preferences. `requestID`
    /// is only evaluated for a log line.
    public func put(_ request: LocationPutRequest, requestID: @autoclosure () -> String)
        throws(ServiceError) -> LocationPutReply
    {
        try LocationRules.checkUser(request.user)
        try LocationRules.checkCoordinate(lat: request.lat, lng: request.lng)
        let window = self.window
        let sent = request.at ?? window.now
        try LocationRules.checkObservationTime(sent, now: window.now, ttl: ttl)
        // A clock a little ahead (allowed for) says no more than "now": taken as given, its
        // location outlived the TTL and hid the user's next ones as older (QA: 5 minutes).
        let at = min(sent, window.now)
        let location = StoredLocation(lat: request.lat, lng: request.lng, observedAt: at,
                                      expiresAt: at.addingTimeInterval(ttl))
        // Preferences first: a put that fails must have changed nothing.
        let (stored, held, preferences) = try storage(requestID()) {
            let preferences = try store.preferences(user: request.user)
            let (stored, held) = try store.put(location, user: request.user, window: window)
            return (stored, held, preferences)
        }
        log.record(.debug, stored ? "location stored" : "older location ignored", requestID: requestID(),
                   user: request.user)
        return LocationPutReply(stored: stored, at: held.observedAt, expiresAt: held.expiresAt,
                                preferences: preferences.resolved)
    }

    public func get(_ request: UserRequest, requestID: String) throws(ServiceError) -> LocationReply {
        try LocationRules.checkUser(request.user)
        let window = self.window
        guard let held = try storage(requestID, { try store.location(user: request.user, window: window) }) else {
            log.record(.debug, "no live location", requestID: requestID, user: request.user)
            throw .notFound("no location is held for this user (none stored, expired or forgotten)")
        }
        log.record(.debug, "location read", requestID: requestID, user: request.user)
        let age = max(0, window.now.timeIntervalSince(held.observedAt))
        return LocationReply(lat: held.lat, lng: held.lng, at: held.observedAt, ageSeconds: (age * 10).rounded() / 10)
    }

    /// Erases the user's location and preferences from the database file and its WAL, alone (the
    /// service erases in its batch of writes: `eraseInBatch`, then `erasuresCommitted`).
    public func forget(_ request: UserRequest, requestID: String) throws(ServiceError) -> ForgetReply {
        try LocationRules.checkUser(request.user)
        let rows = try storage(requestID) { try store.erase(user: request.user) }
        return erasuresCommitted([Erasure(user: request.user, requestID: requestID, rows: rows)])[0]
    }

    /// One user's rows erased in a batch of writes, until the batch commits.
    struct Erasure {
        let user: String
        let requestID: String
        let rows: Int
    }

    /// Erases the user's rows in the open batch of writes (`WriteBatch`), which commits, empties the
    /// WAL once for every erasure in it (`erasuresCommitted`), and only then answers. A forget alone
    /// took a commit and a checkpoint of its own: 0.7 ms, 3.4 s for a load test's 5,000 users.
    func eraseInBatch(_ request: UserRequest, requestID: String) throws(ServiceError) -> Erasure {
        try LocationRules.checkUser(request.user)
        let rows = try storage(requestID, failure: "the location store failed; the erasure may be incomplete: ask again") {
            try store.eraseRows(user: request.user)
        }
        return Erasure(user: request.user, requestID: requestID, rows: rows)
    }

    /// After the batch holding `erasures` committed: empties the WAL once for them all, counts them,
    /// logs them (a lone one with its request and user pseudonym, a batch of them in one line: a
    /// load test's 5,000 users wrote 5,000 lines) and gives each its reply.
    func erasuresCommitted(_ erasures: [Erasure]) -> [ForgetReply] {
        do {
            try store.checkpoint()
        } catch {
            // One line for the batch: its request when alone, how many forgets otherwise.
            checkpointPending = true
            log.record(.warning, "rows erased but the WAL could not be emptied; retrying at the next purge",
                       requestID: erasures.count == 1 ? erasures[0].requestID : nil,
                       counts: erasures.count == 1 ? [:] : ["forgets": erasures.count], failure: error)
        }
        let forgotten = erasures.count { $0.rows > 0 }
        usersForgotten += forgotten
        if erasures.count == 1, let erasure = erasures.first {
            log.record(.notice, "user forgotten", requestID: erasure.requestID, user: erasure.user,
                       counts: ["rows": erasure.rows])
        } else if !erasures.isEmpty {
            // Each one's request at debug, for tracing one erasure; the batch's notice below.
            for erasure in erasures {
                log.record(.debug, "user forgotten", requestID: erasure.requestID, user: erasure.user,
                           counts: ["rows": erasure.rows])
            }
            log.record(.notice, "users forgotten", counts: ["forgets": erasures.count, "forgotten": forgotten,
                                                             "rows": erasures.reduce(0) { $0 + $1.rows }])
        }
        return erasures.map { ForgetReply(forgotten: $0.rows > 0) }
    }


    // MARK: - Preferences

    public func preferences(_ request: UserRequest, requestID: String) throws(ServiceError) -> Preferences {
        try LocationRules.checkUser(request.user)
        let stored = try storage(requestID) { try store.preferences(user: request.user) }
        log.record(.debug, "preferences read", requestID: requestID, user: request.user)
        return stored.resolved
    }

    /// Applies each mentioned setting (set or cleared to its default); unmentioned ones stay.
    public func setPreferences(_ request: PreferencesUpdate, requestID: String) throws(ServiceError) -> Preferences {
        try LocationRules.checkUser(request.user)
        if case .set(let miles) = request.radiusMiles { try LocationRules.checkRadius(miles) }
        let updated = try storage(requestID) {
            var stored = try store.preferences(user: request.user)
            switch request.radiusMiles {
            case .set(let miles): stored.radiusMiles = miles
            case .clear: stored.radiusMiles = nil
            case nil: break
            }
            switch request.unit {
            case .set(let unit): stored.unit = unit
            case .clear: stored.unit = nil
            case nil: break
            }
            try store.setPreferences(stored, user: request.user)
            return stored
        }
        log.record(.info, "preferences set", requestID: requestID, user: request.user)
        return updated.resolved
    }

    // MARK: - Expiry and figures

    /// Deletes expired locations from disk and empties the WAL. Returns how many were deleted.
    @discardableResult
    public func purgeExpired() -> Int {
        do {
            let removed = try store.purgeExpired(window: window)
            expiredPurged += removed
            checkpointPending = false
            if removed > 0 { log.record(.info, "expired locations purged", counts: ["count": removed]) }
            return removed
        } catch {
            log.record(.error, "purge of expired locations failed", failure: error)
            return 0
        }
    }

    /// `sys.stats` details: stored users and rows, purge and erasure counts, the TTL.
    public func statsDetails() -> [String: JSONValue] {
        var details: [String: JSONValue] = [
            "ttlSeconds": .number(ttl),
            "expiredPurged": .number(Double(expiredPurged)),
            "usersForgotten": .number(Double(usersForgotten)),
            "checkpointPending": .bool(checkpointPending),
            // Deleted or replaced while running: writes are refused until a restart.
            "storeFileGone": .bool(!store.isStillItsFile),
        ]
        do {
            let counts = try store.counts()
            details["usersStored"] = .number(Double(counts.users))
            details["locationsStored"] = .number(Double(counts.locations))
            details["preferencesStored"] = .number(Double(counts.preferences))
        } catch {
            details["storeError"] = .string("counts unavailable")
            log.record(.error, "store counts failed", failure: error)
        }
        return details
    }

    /// Runs a store call; a storage failure is logged and becomes `internal` with `failure` as its
    /// sentence (nothing half-done: each store call is one statement or one transaction, but an
    /// erasure in a batch, whose sentence says it may be incomplete).
    private func storage<Result>(_ requestID: @autoclosure () -> String,
                                 failure: String = "the location store failed; nothing was changed",
                                 _ body: () throws -> Result) throws(ServiceError) -> Result
    {
        do {
            return try body()
        } catch {
            log.record(.error, "store failed", requestID: requestID(), failure: error)
            if case .fileGone? = error as? LocationStoreError { throw ServiceError(.internal, "\(error); nothing was changed") }
            throw ServiceError(.internal, failure)
        }
    }
}
