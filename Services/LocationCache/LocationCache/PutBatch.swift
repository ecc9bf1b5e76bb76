import Foundation
import Messages
import ServiceKit

/// Group commit for `location.put`: the puts of one batch of requests (all that were queued when
/// the loop looked) are written in one transaction, and their replies wait for its commit. A put
/// is acknowledged only once committed, as before, but a busy service writes the WAL and takes
/// the file lock once per batch instead of once per put.
///
/// Anything else (a get, forget, preferences, the purge timer) first commits the open batch, so
/// it sees and orders after every put acknowledged before it.
final class PutBatch {
    private let store: LocationStore
    private let log: EventLog
    private var waiting: [(Responder, LocationPutReply)] = []
    private let replyText = PutReplyText()
    /// Batches committed and puts acknowledged through them, since start.
    private(set) var commits = 0
    private(set) var puts = 0

    init(store: LocationStore, log: EventLog) {
        self.store = store
        self.log = log
    }

    /// Makes sure the batch's transaction is open before a put writes.
    func join() throws(ServiceError) {
        guard !store.isInTransaction else { return }
        failLost()
        do {
            try store.beginBatch()
        } catch {
            log.record(.error, "store failed", failure: error)
            throw ServiceError(.internal, "the location store failed; nothing was changed")
        }
    }

    /// Fails the puts still waiting when no transaction is open: SQLite ended the batch's
    /// transaction by itself (it rolls back on some errors: I/O, a full disk, no memory), so
    /// nothing of them was stored.
    private func failLost() {
        guard !waiting.isEmpty else { return }
        let lost = waiting
        waiting.removeAll(keepingCapacity: true)
        log.record(.error, "store failed: the batch was rolled back", counts: ["puts": lost.count])
        let failure = ServiceError(.internal, "the location store failed; nothing was changed")
        for (responder, _) in lost { responder.fail(failure) }
    }

    /// Holds a put's reply until the batch commits.
    func wait(_ responder: Responder, _ reply: LocationPutReply) {
        waiting.append((responder, reply))
    }

    /// Commits the open batch, then answers its puts: with their replies, or every one with an
    /// error when the commit failed (it was rolled back: nothing of the batch was stored).
    func commit() {
        guard store.isInTransaction else { return failLost() }
        let answered = waiting
        waiting.removeAll(keepingCapacity: true)
        do {
            try store.commitBatch()
            commits += 1
            puts += answered.count
            for (responder, reply) in answered {
                if let written = replyText.written(reply) { responder.reply(written) } else { responder.reply(reply) }
            }
        } catch {
            log.record(.error, "store failed", counts: ["puts": answered.count], failure: error)
            let failure = ServiceError(.internal, "the location store failed; nothing was changed")
            for (responder, _) in answered { responder.fail(failure) }
        }
    }
}
