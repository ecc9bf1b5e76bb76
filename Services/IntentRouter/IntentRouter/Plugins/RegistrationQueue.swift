import Foundation

/// `plugin.register` frames waiting their turn. Taking a registration in (reading it, compiling
/// its phrases, checking them against every other) runs on the router's one loop and can take a
/// tenth of a second; a peer sending big ones in a loop (refused, or not) held every ask back for
/// minutes in a QA pass. So registrations get about a tenth of the loop's time, and each peer has
/// one waiting at most: a newer frame from it replaces the one not taken yet. One registration
/// longer than `burst` owes only `burst`: a small registration behind a large one (0.7 s) waited
/// 13 to 18 s for the tenth to pay the large one back (plug-in QA); it now waits a second or two.
struct RegistrationQueue {
    /// The time registrations may take: refilled at `share` of the time that passes, up to `burst`,
    /// and owed down to `-burst` at most.
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
    /// each took.
    mutating func takeTurns(now: ContinuousClock.Instant, _ take: (Data, Data) -> Void) {
        let elapsed = now - refilledAt
        refilledAt = now
        credit = min(Self.burst, credit + elapsed * Self.share)
        while credit > .zero, !order.isEmpty {
            let routingID = order.removeFirst()
            guard let payload = waiting.removeValue(forKey: routingID) else { continue }
            let started = ContinuousClock.now
            take(routingID, payload)
            credit = max(credit - (ContinuousClock.now - started), .zero - Self.burst)
        }
    }
}
