import Foundation
import ZeroMQ

/// Which replica a frame goes to. The replicas take turns; one that answered `unavailable` (a
/// replica still loading its prices), or left a call unanswered for half its time (a hung one), is
/// passed over for `passOverTime`, then tried again, and a retry goes to a replica other than the
/// one that had the call. With a single shared DEALER
/// socket ZeroMQ chose the replica, and under load a retry reached the replica that had refused
/// it about half the time: a quarter of all asks failed while one of two replicas restarted.
extension BackendChannel {
    /// How long a replica that answered `unavailable`, or did not answer in time, is passed over.
    static let passOverTime: Duration = .seconds(1)

    /// Sends `frame` to the next replica in turn whose socket takes it, passing over those that
    /// answered `unavailable` lately and `avoiding`; when none of the others takes it, to any
    /// (a replica still loading answers at once, better than no answer). Returns the replica,
    /// nil when no socket takes it (no connection is up, or every queue is full).
    func sendToReplica(_ frame: Data, avoiding: Int? = nil) -> Int? {
        let count = sockets.count
        if count == 1 { return (try? sockets[0].send([Data(), frame], dontWait: true)) != nil ? 0 : nil }
        let now = ContinuousClock.now
        for choosy in [true, false] {
            for step in 0..<count {
                let replica = (nextReplica + step) % count
                if choosy, replica == avoiding || isPassedOver(replica, now: now) { continue }
                if (try? sockets[replica].send([Data(), frame], dontWait: true)) != nil {
                    nextReplica = (replica + 1) % count
                    return replica
                }
            }
        }
        return nil
    }

    /// Passes `replica` over for a while (it answered `unavailable`).
    func passOver(_ replica: Int) {
        guard sockets.count > 1, passedOverUntil.indices.contains(replica) else { return }
        passedOverUntil[replica] = ContinuousClock.now + Self.passOverTime
    }

    private func isPassedOver(_ replica: Int, now: ContinuousClock.Instant) -> Bool {
        guard let until = passedOverUntil[replica] else { return false }
        if until > now { return true }
        passedOverUntil[replica] = nil
        return false
    }
}
