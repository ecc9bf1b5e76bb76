import Foundation
import Messages

/// `sys.batch`: several requests in one frame, answered in one frame.
///
/// Request body `{"requests": [<request>, ...]}`, each element a whole request as it would be sent
/// alone; reply body `{"replies": [<reply>, ...]}`, in the same order, each exactly the reply that
/// request would have had alone (its own id, its own error). A caller with many requests for one
/// service (the router under load) pays ZeroMQ's per-message costs once for all of them. Each
/// request counts and logs under its own type; a request that answers later (a group commit)
/// holds the batch's reply until it has answered.
extension ReplyServer {
    /// Requests one batch may hold.
    public static let maxBatchRequests = 1000

    func handleBatch(_ request: IncomingRequest) -> Outcome {
        let elements: [Range<Int>]
        do {
            elements = try Self.batchElements(of: request)
        } catch {
            return request.reply(error: error)
        }
        let batch = PendingBatch(outer: request, count: elements.count)
        batch.isDispatching = true
        defer { batch.isDispatching = false }
        var nextMember = 0  // the frame's members are in order: each request's follow the last one's
        for (index, range) in elements.enumerated() {
            let start = Self.monotonicNanoseconds()
            let first = request.payload.startIndex
            // A slice of the batch's frame (shared, not copied), counted from its own first byte.
            var inner = IncomingRequest(route: request.route,
                                        payload: request.payload[(first + range.lowerBound)..<(first + range.upperBound)],
                                        server: self)
            inner.batch = batch
            inner.batchIndex = index
            inner.membersAreIndex = request.membersAreIndex
            switch dispatchInBatch(&inner, element: range, of: request.members, from: &nextMember,
                                   checksAlone: request.checksItemsAlone) {
            case .reply(let data, let error):
                let now = Self.monotonicNanoseconds()
                record(inner, nanoseconds: now &- start, error: error, now: now)
                batch.fill(index, data)
            case .deferred:
                noteDeferred(inner, start: start)
            }
        }
        return batch.isComplete ? batch.reply() : .deferred
    }

    /// Where each request of a batch's `requests` array is in the frame (the walk stops at the
    /// first request past the limit, so a frame of millions of tiny elements costs no more).
    private static func batchElements(of request: IncomingRequest) throws(ServiceError) -> [Range<Int>] {
        var elements: [Range<Int>] = [], isArray = false, isObject = false
        do throws(TooManyRequests) {
            isObject = try request.forEachBodyMember { bytes, key, value throws(TooManyRequests) in
                guard key.matches("requests") else { return }
                elements.removeAll()
                isArray = try JSONObjectReader.forEachElement(bytes, in: value) { range throws(TooManyRequests) in
                    guard elements.count < maxBatchRequests else { throw TooManyRequests() }
                    elements.append(range)
                }
            }
        } catch {
            throw ServiceError(.tooLarge, "a batch holds at most \(maxBatchRequests) requests")
        }
        guard isObject, isArray else {
            throw .badRequest(#"sys.batch body must be {"requests": [request, ...]}"#)
        }
        return elements
    }

    /// Dispatches one request of a batch as the server does a request of its own, with the
    /// member storage kept for batches (the request's own is lent to the batch itself). The
    /// request's members are those the batch frame's check found in `element` (depths 4 and 5
    /// there are its envelope and body, and deeper ones its body's objects), taken from `members`
    /// at `next` on and counted from the element's first byte; the request is not checked again.
    /// With `checksAlone` (a name given twice in one of the batch's requests), it is checked again
    /// alone, as if sent alone: the request holding the name is refused, the others answered.
    private func dispatchInBatch(_ request: inout IncomingRequest, element: Range<Int>,
                                 of members: [StrictJSON.Member], from next: inout Int, checksAlone: Bool) -> Outcome {
        swap(&request.members, &batchMemberStorage)
        defer {
            swap(&request.members, &batchMemberStorage)
            if batchMemberStorage.capacity > 1024 { batchMemberStorage = [] }
        }
        request.members.removeAll(keepingCapacity: true)
        let shift = element.lowerBound
        while next < members.count, members[next].value.upperBound <= element.upperBound {
            let member = members[next]
            next += 1
            guard member.depth >= 4, member.value.lowerBound >= element.lowerBound else { continue }
            request.members.append(StrictJSON.Member(
                depth: member.depth - 3, key: (member.key.lowerBound - shift)..<(member.key.upperBound - shift),
                keyHasEscape: member.keyHasEscape,
                value: (member.value.lowerBound - shift)..<(member.value.upperBound - shift),
                object: member.object - shift))
        }
        request.isChecked = !checksAlone
        return dispatch(&request)
    }
}

/// A batch whose replies are being collected: sent, in order, when the last one is in.
final class PendingBatch {
    let outer: IncomingRequest
    private var replies: [[UInt8]?]
    private var missing: Int

    init(outer: IncomingRequest, count: Int) {
        self.outer = outer
        replies = Array(repeating: nil, count: count)
        missing = count
    }

    /// True while the batch's requests are being handed to their handlers: the batch is
    /// answered by its own handler then, not by a request that answers at once through a `Responder`.
    var isDispatching = false

    var isComplete: Bool { missing == 0 }

    /// All replies are in and nobody else will send them: the one who completes the batch does.
    var isReadyToSend: Bool { missing == 0 && !isDispatching }

    /// Takes the reply of request `index`; false when it already had one (a responder that
    /// answered twice), which then changes nothing.
    @discardableResult
    func fill(_ index: Int, _ reply: [UInt8]) -> Bool {
        guard replies[index] == nil else { return false }
        replies[index] = reply
        missing -= 1
        return true
    }

    /// The outer request's reply: `{"replies": [...]}`.
    func reply() -> ReplyServer.Outcome {
        let size = replies.reduce(16) { $0 + ($1?.count ?? 0) + 1 }
        return outer.reply(capacity: size) { out in
            out.raw(#"{"replies":["#)
            for (index, reply) in replies.enumerated() {
                if index > 0 { out.raw(",") }
                out.raw(reply ?? [])
            }
            out.raw("]}")
        }
    }
}

/// A batch's `requests` went past `ReplyServer.maxBatchRequests`.
private struct TooManyRequests: Error {}
