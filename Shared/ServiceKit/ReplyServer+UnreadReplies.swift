import Foundation
import Messages
import ZeroMQ

/// Large replies are counted in bytes until their client's connection takes them, and refused
/// past a bound.
///
/// libzmq holds replies for a client up to a number of them (`queuedPerClient`), whatever their
/// size. One `sys.batch` of 480 lookups of 50 stations each is a 64 KB request and a 7 MB reply: a
/// client that sent those without reading took fuel-lookup to 6 GB in 20 s (QA). A reply of
/// `countedReplyBytes` or more is counted (`HeldBytes`) while libzmq holds it; once its client holds
/// `unreadBytesPerClient`, or all clients together `unreadBytesInAll`, a large reply is answered
/// with a short `unavailable` error instead, which says why. Small replies are never refused.
extension ReplyServer {
    /// Replies this large or larger are counted (a lookup of one station is about 300 bytes, of 50
    /// about 15 KB; the router's batch to a backend at 50 asks in flight about 17 KB).
    static let countedReplyBytes = 8 << 10
    /// At most this many per client (64 MiB: a replica's snapshot of a large retailer, read at once).
    public static let defaultUnreadBytesPerClient = 64 << 20
    /// At most this many for every client together.
    public static let defaultUnreadBytesInAll = 512 << 20
    /// Clients counted before those holding nothing are forgotten.
    private static let maxClientsCounted = 256

    /// Sends a large reply counted against its client, or the refusal that replaces it.
    func sendCounted(route: [Data], _ reply: [UInt8], dontWait: Bool) throws(ZMQError) {
        let client = unreadCount(of: route[0])
        let refusal: String?
        if client.bytes >= unreadBytesPerClient {
            refusal = "this client has not read \(ByteText.mebibytes(client.bytes)) of its replies (at most "
                + "\(ByteText.mebibytes(unreadBytesPerClient))): this reply (\(ByteText.mebibytes(reply.count))) was not "
                + "sent, though its request was handled; read the replies, then ask again"
        } else if unreadReplies.bytes >= unreadBytesInAll {
            refusal = "\(name) holds \(ByteText.mebibytes(unreadReplies.bytes)) of replies its clients have not read "
                + "(at most \(ByteText.mebibytes(unreadBytesInAll))): this reply (\(ByteText.mebibytes(reply.count))) was "
                + "not sent, though its request was handled; ask again shortly"
        } else {
            refusal = nil
        }
        guard let refusal else { return try socket.send(route, then: reply, dontWait: dontWait, heldIn: client) }
        largeRepliesRefused &+= 1
        if refusedLines.admit(logging: logger, now: Self.monotonicNanoseconds()) {
            logger.warning("large reply refused", metadata: [
                "svc.request.id": Self.envelopeID(of: reply), "bytes": "\(reply.count)",
                "unread.client": "\(client.bytes)", "unread.all": "\(unreadReplies.bytes)",
                "why": "clients not reading their replies"])
        } else {
            flushLogCountsLater()
        }
        try socket.send(route, then: Self.unavailableReply(replacing: reply, message: refusal), dontWait: dontWait)
    }

    /// The count of a client's replies (made at its first large reply). Past `maxClientsCounted`,
    /// those holding nothing are forgotten: clients gone, or reading.
    private func unreadCount(of client: Data) -> HeldBytes {
        if let count = unreadRepliesByClient[client] { return count }
        if unreadRepliesByClient.count >= Self.maxClientsCounted {
            unreadRepliesByClient = unreadRepliesByClient.filter { $0.value.bytes > 0 }
        }
        let count = HeldBytes(total: unreadReplies)
        unreadRepliesByClient[client] = count
        return count
    }

    /// An `unavailable` error reply with the id of `reply` (a reply this server wrote: its envelope
    /// ends `,"id":<id>,"ok":...,"v":1}`, and the id's JSON text is taken as it is).
    static func unavailableReply(replacing reply: [UInt8], message: String) -> [UInt8] {
        var id: ArraySlice<UInt8> = ArraySlice("null".utf8)
        if let marker = lastRange(of: #","id":"#, in: reply[...]),
           let end = lastRange(of: #","ok":"#, in: reply[marker.upperBound...]) {
            id = reply[marker.upperBound..<end.lowerBound]
        }
        var out = Array(#"{"error":"#.utf8)
        out.append(contentsOf: (try? JSONCoding.encode(ServiceError(.unavailable, message)))
                   ?? Data(#"{"code":"unavailable","message":"not sent"}"#.utf8))
        out.append(contentsOf: #","id":"#.utf8)
        out.append(contentsOf: id)
        out.append(contentsOf: #","ok":false,"v":1}"#.utf8)
        return out
    }

    private static func lastRange(of marker: String, in bytes: ArraySlice<UInt8>) -> Range<Int>? {
        let marker = Array(marker.utf8)
        guard bytes.count >= marker.count else { return nil }
        let start = stride(from: bytes.endIndex - marker.count, through: bytes.startIndex, by: -1).first {
            bytes[$0..<$0 + marker.count].elementsEqual(marker)
        }
        return start.map { $0..<$0 + marker.count }
    }
}
