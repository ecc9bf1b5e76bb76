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
        guard let range = request.bodyRange else { return nil }
        var scratch = TextScratch(capacity: Self.scratchCapacity)
        let body: WireReplyBody? = request.payload.withUnsafeBytes { raw in
            guard let wire = WireRenderRequest(bytes: raw.bindMemory(to: UInt8.self), body: range) else { return nil }
            return renderWire(wire, now: { Date() }, into: &scratch)
        }
        guard let body else { return nil }
        // The envelope around the body takes 31 bytes besides the id.
        return request.reply(capacity: body.json.count + 32) { out in body.write(to: &out, from: scratch) }
    }

    /// The reply body's JSON for the request body at `range` of checked JSON `bytes`, rendered
    /// from the wire at `now` (when the request has no time of its own); nil when declined.
    func wireReplyJSON(_ bytes: UnsafeBufferPointer<UInt8>, body range: Range<Int>, now: Date) -> [UInt8]? {
        guard let wire = WireRenderRequest(bytes: bytes, body: range) else { return nil }
        var scratch = TextScratch(capacity: Self.scratchCapacity)
        guard let body = renderWire(wire, now: { now }, into: &scratch) else { return nil }
        var out = JSONWriter(capacity: body.json.count)
        body.write(to: &out, from: scratch)
        return out.bytes
    }

    /// Enough for a render with a long station name (a longer one makes the scratch grow).
    static let scratchCapacity = 2048
}
