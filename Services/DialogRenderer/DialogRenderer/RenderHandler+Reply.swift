import Foundation
import Messages
import ServiceKit

/// Answering `dialog.render` requests, the common ones straight from their bytes.
extension RenderHandler {
    /// The reply to a request: rendered from the wire when `renderWire` takes it, else read into
    /// a `RenderRequest` and rendered by `render(_:now:)` (as `ReplyServer.on(_:_:_:)` would).
    public func reply(to request: IncomingRequest) -> ReplyServer.Outcome {
        if let reply = wireReply(to: request) { return reply }
        do {
            let body = try request.decodeBody(RenderRequest.self)
            return request.reply(try render(body))
        } catch {
            return request.reply(error: ServiceError.from(error))
        }
    }

    /// The reply rendered from the wire, or nil when `renderWire` declines the request.
    func wireReply(to request: IncomingRequest) -> ReplyServer.Outcome? {
        var scratch = TextScratch(capacity: Self.scratchCapacity)
        guard let body = renderWire(request, now: { Date() }, into: &scratch) else { return nil }
        // The envelope around the body takes 31 bytes besides the id.
        return request.reply(capacity: body.json.count + 32) { out in body.write(to: &out, from: scratch) }
    }

    /// The reply body's JSON for `request`, rendered from the wire at `now` (when the request has
    /// no time of its own); nil when declined.
    func wireReplyJSON(to request: IncomingRequest, now: Date) -> [UInt8]? {
        var scratch = TextScratch(capacity: Self.scratchCapacity)
        guard let body = renderWire(request, now: { now }, into: &scratch) else { return nil }
        var out = JSONWriter(capacity: body.json.count)
        body.write(to: &out, from: scratch)
        return out.bytes
    }

    /// The body of `request` read from the members its check found and rendered; nil when declined.
    private func renderWire(_ request: IncomingRequest, now: () -> Date,
                            into scratch: inout TextScratch) -> WireReplyBody? {
        guard let wire = WireRenderRequest(request) else { return nil }
        return request.payload.withUnsafeBytes { raw in
            renderWire(wire, bytes: raw.bindMemory(to: UInt8.self), now: now, into: &scratch)
        }
    }

    /// Enough for a render with a long station name (a longer one makes the scratch grow).
    static let scratchCapacity = 2048
}
