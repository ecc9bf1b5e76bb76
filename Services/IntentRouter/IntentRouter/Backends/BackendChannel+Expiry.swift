import Foundation
import Messages
import ServiceKit
import ZeroMQ

/// The clock side of a `BackendChannel`: retries, deadlines, calls that could not be sent, reconnection.
extension BackendChannel {
    /// Sends again the retryable calls that have waited half their time, and completes every
    /// call whose deadline has passed with `timeout`.
    func expire(now: ContinuousClock.Instant) {
        flush()
        failUnsendable(now: now)
        probeIfDown(now: now)
        for (id, call) in pending where call.retriesLeft > 0 && call.retryAt <= now && call.deadline > now
            && !unsent.contains(where: { $0.id == id }) {
            // No answer by half its time: the replica may hang with its connection up (ZeroMQ's
            // heartbeats close only a connection gone silent), so it is passed over as one still
            // loading is, and new calls stop queueing behind it.
            if let replica = call.replica { passOver(replica) }
            _ = resend(id, call)
        }
        let expired = pending.filter { $0.value.deadline <= now }
        // A batch whose calls have all ended (answered on their own, or expiring now) is forgotten.
        batches = batches.filter { $0.value.contains { pending[$0] != nil && expired[$0] == nil } }
        guard !expired.isEmpty else { return }
        for id in expired.keys { pending[id] = nil }
        timeouts += UInt64(expired.count)
        consecutiveTimeouts += expired.count
        if consecutiveTimeouts >= Self.reconnectAfterTimeouts { reconnect() }
        for call in expired.values {
            call.complete(.failure(ServiceError(.timeout, "\(name) did not answer \(call.type) in time")))
        }
    }

    /// Fails calls that could not be sent within their grace: the backend is down.
    private func failUnsendable(now: ContinuousClock.Instant) {
        let overdue = unsent.filter { $0.giveUpAt <= now }
        guard !overdue.isEmpty else { return }
        unsent.removeAll { $0.giveUpAt <= now }
        isDown = true
        for call in overdue {
            guard let waiting = pending.removeValue(forKey: call.id) else { continue }
            unavailable += 1
            waiting.complete(.failure(.unavailable("\(name) is not reachable")))
        }
    }

    /// While down, a `sys.ping` a second: the socket takes it only on a live connection, so a
    /// backend back is seen within a second, not at the next ask (an idle router's stats said
    /// BACKEND DOWN for good: operator QA). Its reply is dropped unread (`probeID`).
    private func probeIfDown(now: ContinuousClock.Instant) {
        guard isDown, unsent.isEmpty, now >= nextProbeAt else { return }
        nextProbeAt = now + Self.probeInterval
        guard let frame = try? RequestFrame.make(id: probeID, type: MessageType.sysPing.rawValue, body: EmptyBody())
        else { return }
        if sendToReplica(frame) != nil { isDown = false }
    }

    /// Drops the connection (and anything queued on it) and connects afresh.
    private func reconnect() {
        for (socket, replica) in zip(sockets, replicaEndpoints) {
            try? socket.disconnect(replica)
            try? socket.connect(replica)
        }
        reconnects += 1
        consecutiveTimeouts = 0
    }
}
