import Foundation
import Messages
import ZeroMQ

/// Sending replies: at once, or held and sent in groups within a turn of the loop.
extension ReplyServer {
    /// Sends the reply to a request just handled: the turn's first `replyGroup` at once, later
    /// ones in groups (and what is left when the turn ends).
    ///
    /// A reply sent while ZeroMQ's I/O thread sleeps wakes it (and the client's, as it arrives);
    /// replies written back to back share those wake-ups. A turn of a few requests is answered
    /// without delay; a long one (many queued: the server is behind and its clients have
    /// requests outstanding) sends its replies a group at a time. Replies leave in the order
    /// they were made: behind held ones, a reply is held too.
    func send(route: [Data], _ reply: [UInt8]) {
        repliesThisTurn += 1
        guard repliesThisTurn > Self.replyGroup || !heldReplies.isEmpty else { return sendNow(route: route, reply) }
        hold(route: route, reply)
    }

    /// Holds a reply to send with others: deferred replies complete in groups (a backend's batch
    /// answered, a group commit made), and a group goes out together, at the latest when the
    /// turn ends.
    func hold(route: [Data], _ reply: [UInt8]) {
        heldReplies.append((route, reply))
        if heldReplies.count >= Self.replyGroup { sendHeldReplies() }
    }

    func sendNow(route: [Data], _ reply: [UInt8]) {
        do {
            try socket.send(route, then: reply)
        } catch {
            // A client gone with requests in flight (a load test that ended) leaves one per request.
            guard undeliveredLines.admit(logging: logger, now: Self.monotonicNanoseconds()) else {
                flushLogCountsLater()
                return
            }
            // The usual cause: the client left before its answer (its connection is gone).
            logger.warning("reply not delivered", metadata: [
                "svc.request.id": Self.envelopeID(of: reply), "error": "\(error)",
            ])
        }
    }

    func sendHeldReplies() {
        for held in heldReplies { sendNow(route: held.route, held.reply) }
        heldReplies.removeAll(keepingCapacity: true)
    }

    /// Ends a turn: its held replies go out, then `afterTurn` runs (the router's calls to its
    /// backends), then any reply that made; the next turn's first replies go at once again.
    func endTurn() {
        sendHeldReplies()
        afterTurn?()
        sendHeldReplies()
        repliesThisTurn = 0
    }
}
