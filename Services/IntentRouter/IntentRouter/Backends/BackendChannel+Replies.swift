import Foundation
import Messages
import ServiceKit
import ZeroMQ

/// The reply side of a `BackendChannel`: matching what the socket brings to the calls waiting for it.
extension BackendChannel {
    /// One message read from replica `replica`'s socket: completes the call it answers, or each
    /// call of a batch.
    func received(_ frames: [Data], from replica: Int) {
        guard let payload = frames.last, let reply = ReplyEnvelope(payload) else {
            lateReplies += 1
            return
        }
        guard let id = reply.id.flatMap(callIDs.number) else {
            if reply.id != probeID { lateReplies += 1 }  // a probe's pong is no late reply
            return
        }
        if id.isBatch {
            guard let ids = batches.removeValue(forKey: id.number) else {
                lateReplies += 1
                return
            }
            return receivedBatch(reply, carrying: ids, from: replica)
        }
        deliver(reply, id: id.number, from: replica)
    }

    /// A batch's reply: each call gets its own. When the backend refuses the batch as a whole
    /// (before running any of it: one that does not know `sys.batch`, or finds it too large),
    /// its calls are sent one by one; one that does not know it gets single calls for a while.
    /// A success whose replies cannot be read fails its calls: they may have run, so none is
    /// sent again.
    private func receivedBatch(_ reply: ReplyEnvelope, carrying ids: [UInt64], from replica: Int) {
        guard let replies = reply.batchReplies else {
            if reply.ok {
                let error = ServiceError(.internal, "unreadable batch reply from \(name)")
                for id in ids { pending.removeValue(forKey: id)?.complete(.failure(error)) }
                return
            }
            if reply.serviceError?.code == .unknownType { batchesRefusedAt = .now }
            for id in ids where pending[id] != nil { sendAlone(id) }
            return
        }
        for inner in replies {
            guard let id = inner.id.flatMap(callIDs.number), !id.isBatch else { continue }
            deliver(inner, id: id.number, from: replica)
        }
    }

    /// Completes the call `reply` answers (a late or unknown reply is only counted). A replica
    /// that answers `unavailable` is passed over for a while, and a retryable call goes to another.
    private func deliver(_ reply: ReplyEnvelope, id: UInt64, from replica: Int) {
        guard let call = pending.removeValue(forKey: id) else {
            lateReplies += 1
            return
        }
        consecutiveTimeouts = 0
        if let error = reply.serviceError {
            if error.code == .unavailable {
                passOver(replica)
                if call.retriesLeft > 0, resend(id, call) { return }
            } else if error.code != .notFound {
                onRefused?(call.type, "\(callIDs.prefix)-\(id)", error)
            }
        }
        call.complete(.success(reply))
    }

    /// Sends a call's frame again (same id: whichever answer comes first completes it). False
    /// when the socket refuses it.
    func resend(_ id: UInt64, _ call: Pending) -> Bool {
        guard let replica = sendToReplica(call.payload, avoiding: call.replica) else { return false }
        var again = call
        again.replica = replica
        again.retriesLeft -= 1
        again.retryAt = call.deadline
        pending[id] = again
        retries += 1
        return true
    }
}
