import Foundation
import Messages
import ServiceKit

/// Group commit for `location.put` and `location.forget`: the writes of one batch of requests (all
/// that were queued when the loop looked) go in one transaction, and their replies wait for its
/// commit. A put is acknowledged only once committed, and a forget only once committed and the
/// WAL emptied, as before; but a busy service writes the WAL and takes the file lock once per
/// batch instead of once per write, and empties the WAL once per batch of forgets.
///
/// Anything else (a get, preferences, the purge timer) first commits the open batch, so it sees
/// and orders after every write acknowledged before it.
final class WriteBatch {
    private let handler: LocationCacheHandler
    private var store: LocationStore { handler.store }
    private let log: EventLog
    private var puts: [(Responder, LocationPutReply)] = []
    private var erasures: [(Responder, LocationCacheHandler.Erasure)] = []
    private let replyText = PutReplyText()
    /// Batches committed, and puts and forgets acknowledged through them, since start.
    private(set) var commits = 0
    private(set) var putsCommitted = 0
    private(set) var forgetsCommitted = 0

    init(handler: LocationCacheHandler, log: EventLog) {
        self.handler = handler
        self.log = log
    }

    /// Makes sure the batch's transaction is open before a write.
    func join() throws(ServiceError) {
        guard !store.isInTransaction else { return }
        failLost()
        do {
            try store.beginBatch()
        } catch {
            log.record(.error, "store failed", failure: error)
            if case .fileGone? = error as? LocationStoreError {
                throw ServiceError(.internal, "\(error); nothing was changed")
            }
            throw ServiceError(.internal, "the location store failed; nothing was changed")
        }
    }

    /// Fails the writes still waiting when no transaction is open: SQLite ended the batch's
    /// transaction by itself (it rolls back on some errors: I/O, a full disk, no memory), so
    /// nothing of them was stored or erased.
    private func failLost() {
        guard !puts.isEmpty || !erasures.isEmpty else { return }
        log.record(.error, "store failed: the batch was rolled back",
                   counts: ["puts": puts.count, "forgets": erasures.count])
        failWaiting()
    }

    private func failWaiting() {
        let failure = ServiceError(.internal, "the location store failed; nothing was changed")
        for (responder, _) in puts { responder.fail(failure) }
        for (responder, _) in erasures { responder.fail(failure) }
        puts.removeAll(keepingCapacity: true)
        erasures.removeAll(keepingCapacity: true)
    }

    /// Holds a put's reply until the batch commits.
    func wait(_ responder: Responder, _ reply: LocationPutReply) {
        puts.append((responder, reply))
    }

    /// Holds a forget's reply until the batch commits and the WAL is emptied.
    func wait(_ responder: Responder, _ erasure: LocationCacheHandler.Erasure) {
        erasures.append((responder, erasure))
    }

    /// Commits the open batch, then answers its writes: with their replies, or every one with an
    /// error when the commit failed (it was rolled back: nothing of the batch was stored).
    func commit() {
        guard store.isInTransaction else { return failLost() }
        do {
            try store.commitBatch()
        } catch {
            log.record(.error, "store failed", counts: ["puts": puts.count, "forgets": erasures.count], failure: error)
            return failWaiting()
        }
        commits += 1
        putsCommitted += puts.count
        forgetsCommitted += erasures.count
        for (responder, reply) in puts {
            if let written = replyText.written(reply) { responder.reply(written) } else { responder.reply(reply) }
        }
        puts.removeAll(keepingCapacity: true)
        guard !erasures.isEmpty else { return }
        let replies = handler.erasuresCommitted(erasures.map(\.1))
        for ((responder, _), reply) in zip(erasures, replies) { responder.reply(reply) }
        erasures.removeAll(keepingCapacity: true)
    }
}
