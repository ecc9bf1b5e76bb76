import Foundation

/// `plugin.register` frames waiting their turn. Taking a registration in (reading it, compiling
/// its phrases, checking them against every other) runs on the router's one loop and can take a
/// tenth of a second; a peer sending big ones in a loop (refused, or not) held every ask back for
/// minutes in a QA pass. So registrations get at most a tenth of the loop's time while asks wait
/// on it, and each peer has one waiting at most: a newer frame from it replaces the one not taken
/// yet. While no ask is in flight the loop's time is theirs: a small registration behind a large one
/// waited 13 to 18 s for the tenth to pay the large one back, with nothing else to do (plug-in QA).
struct RegistrationQueue {
    /// The time registrations may take: refilled at `share` of the time that passes (all of it
    /// while the loop is idle), up to `burst`.
    static let share = 0.1
    static let burst: Duration = .milliseconds(100)

    private var waiting: [Data: Data] = [:]
    private var order: [Data] = []
    private var credit: Duration = burst
    private var refilledAt: ContinuousClock.Instant
    /// Frames replaced by a newer one from the same peer before they were taken.
    private(set) var superseded: UInt64 = 0

    init(now: ContinuousClock.Instant = .now) { refilledAt = now }

    var count: Int { waiting.count }

    /// Holds `payload` from `routingID`, replacing one it sent before that is still waiting.
    mutating func hold(_ payload: Data, from routingID: Data) {
        if waiting.updateValue(payload, forKey: routingID) != nil {
            superseded &+= 1
        } else {
            order.append(routingID)
        }
    }

    /// Takes each waiting registration in turn to `take` while the credit lasts, charging what
    /// each took. `busy`: asks are in flight, so the credit comes back at `share` of the time.
    mutating func takeTurns(now: ContinuousClock.Instant, busy: Bool = true, _ take: (Data, Data) -> Void) {
        let elapsed = now - refilledAt
        refilledAt = now
        credit = min(Self.burst, credit + (busy ? elapsed * Self.share : elapsed))
        while credit > .zero, !order.isEmpty {
            let routingID = order.removeFirst()
            guard let payload = waiting.removeValue(forKey: routingID) else { continue }
            let started = ContinuousClock.now
            take(routingID, payload)
            credit -= ContinuousClock.now - started
        }
    }
}
