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

    /// Sends one reply. A client whose queue is full gets its reply if it reads within the
    /// socket's send wait (100 ms); one that did not is noted as not reading, and for at least a
    /// second its replies are offered without waiting (dropped while its queue is full), until one
    /// is taken: a client that never reads costs the others one wait a second, not one per reply.
    func sendNow(route: [Data], _ reply: [UInt8]) {
        // The route's first frame is the client's routing id.
        let notedAt = clientsNotReading.isEmpty ? nil : route.first.flatMap { clientsNotReading[$0] }
        do {
            if reply.count >= Self.countedReplyBytes {
                try sendCounted(route: route, reply, dontWait: notedAt != nil)
            } else {
                try socket.send(route, then: reply, dontWait: notedAt != nil)
            }
            if let notedAt, Self.monotonicNanoseconds() &- notedAt >= Self.notReadingNoteNanoseconds {
                clientsNotReading[route[0]] = nil  // noted: not empty
                logger.info("client reading again", metadata: ["clients.notReading": "\(clientsNotReading.count)"])
            }
        } catch {
            repliesNotDelivered &+= 1
            if notedAt == nil, error.isTimeout, let client = route.first { noteNotReading(client) }
            if notedAt != nil, !error.isTimeout { clientsNotReading[route[0]] = nil }  // gone
            // Still not reading: the note's time is the last sign of it (`forgetQuietNotes`).
            if notedAt != nil, error.isTimeout { clientsNotReading[route[0]] = Self.monotonicNanoseconds() }
            // A client gone with requests in flight (a load test that ended) leaves one per request.
            guard undeliveredLines.admit(logging: logger, now: Self.monotonicNanoseconds()) else {
                flushLogCountsLater()
                return
            }
            // The usual cause, the client left before its answer (its connection is gone: a load
            // test that ended), is an everyday event (a notice); a client not reading is not.
            let id = Self.envelopeID(of: reply)
            if error.isTimeout {
                logger.warning("reply not delivered", metadata: [
                    "svc.request.id": id, "error": "the client's queue is full: it is not reading its replies"])
            } else {
                logger.notice("reply not delivered", metadata: [
                    "svc.request.id": id, "error": "\(error)", "why": "the client left before its answer"])
            }
        }
    }

    /// Forgets the clients noted as not reading that nothing was offered to for a minute: one that
    /// left after its last reply found its queue full stayed "not reading" for good (QA: 13 minutes
    /// and counting in `sys.stats`), as no later reply told that it had gone.
    func forgetQuietNotes() {
        guard !clientsNotReading.isEmpty else { return }
        let now = Self.monotonicNanoseconds()
        let before = clientsNotReading.count
        let limit = notReadingForgottenAfter.wholeNanoseconds
        clientsNotReading = clientsNotReading.filter { now &- $0.value < limit }
        if clientsNotReading.count < before {
            logger.info("clients not reading forgotten", metadata: [
                "forgotten": "\(before - clientsNotReading.count)",
                "why": "nothing offered to them for \(ServiceMain.secondsText(notReadingForgottenAfter))",
                "clients.notReading": "\(clientsNotReading.count)"])
        }
    }

    /// Notes a client whose reply waited the whole send wait. Past `maxClientsNotReading` notes
    /// (clients gone while noted) all are forgotten, which costs each of them one more wait at most.
    private func noteNotReading(_ client: Data) {
        if clientsNotReading.count >= Self.maxClientsNotReading { clientsNotReading.removeAll() }
        clientsNotReading[client] = Self.monotonicNanoseconds()
        logger.warning("client not reading its replies: its replies are dropped while its queue is full",
                       metadata: ["clients.notReading": "\(clientsNotReading.count)"])
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
