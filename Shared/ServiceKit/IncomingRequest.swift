import Foundation
import Messages

/// One request as a handler sees it: its id and type, the raw JSON, and ways to reply.
public struct IncomingRequest {
    let route: [Data]
    /// The whole request JSON.
    public let payload: Data
    unowned let server: ReplyServer
    /// The client's id, echoed in the reply (`null` when the request was not readable).
    public private(set) var id: JSONValue = .null
    public private(set) var type: String = ""
    var deferredID: UInt64 = 0

    init(route: [Data], payload: Data, server: ReplyServer) {
        self.route = route
        self.payload = payload
        self.server = server
    }

    /// The id as it goes into a log line (bounded, no spaces).
    public var logID: String {
        switch id {
        case .string(let text): String(text.prefix(64))
        case .number(let number): "\(number)"
        default: "-"
        }
    }

    var logType: String { String(type.prefix(60)) }

    mutating func decodeHead() throws(ServiceError) {
        if let failure = StrictJSON.check(payload) {
            throw .badRequest("request is not JSON: \(failure)")
        }
        let head: RequestHead
        do {
            head = try JSONCoding.makeDecoder().decode(RequestHead.self, from: payload)
        } catch {
            throw .badRequest("request is not a JSON object: \(ServiceError.describe(error))")
        }
        id = head.id ?? .null
        guard let type = head.type, !type.isEmpty else { throw .badRequest("request has no \"type\"") }
        self.type = type
        if let version = head.v, version != wireVersion {
            throw .badRequest("unsupported protocol version \(version) (this service speaks v\(wireVersion))")
        }
    }

    /// Decodes the request's `body` as `Body`; a missing or ill-shaped body is `bad_request`.
    public func decodeBody<Body: Decodable & Sendable>(_ type: Body.Type) throws(ServiceError) -> Body {
        do {
            return try JSONCoding.makeDecoder().decode(RequestBody<Body>.self, from: payload).body
        } catch {
            throw .badRequest("bad body for \(self.type): \(ServiceError.describe(error))")
        }
    }

    /// A success reply carrying `body`.
    public func reply<Out: Encodable>(_ body: Out) -> ReplyServer.Outcome {
        do {
            return .reply(try JSONCoding.encode(EncodableReply(v: wireVersion, id: id, ok: true, body: body)), nil)
        } catch {
            return reply(error: ServiceError(.internal, "reply could not be encoded"))
        }
    }

    /// An error reply.
    public func reply(error: ServiceError) -> ReplyServer.Outcome {
        let reply = Reply<EmptyBody>(id: id, error: error)
        let fallback = #"{"v":1,"id":null,"ok":false,"error":{"code":"internal","message":"encoding failed"}}"#
        return .reply((try? JSONCoding.encode(reply)) ?? Data(fallback.utf8), error)
    }

    /// Keeps this request open to answer later from the loop thread.
    public func deferReply() -> (ReplyServer.Outcome, Responder) {
        (.deferred, Responder(request: self))
    }
}

/// Answers a deferred request later, on the server's loop thread.
public struct Responder {
    let request: IncomingRequest

    public func reply<Out: Encodable>(_ body: Out) {
        request.server.complete(request, outcome: request.reply(body))
    }

    public func fail(_ error: ServiceError) {
        request.server.complete(request, outcome: request.reply(error: error))
    }
}

/// A reply with any encodable body.
struct EncodableReply<Body: Encodable>: Encodable {
    let v: Int
    let id: JSONValue
    let ok: Bool
    let body: Body
}

extension ServiceError {
    /// Any error as a wire error: a `ServiceError` as is, anything else `internal`.
    public static func from(_ error: any Error) -> ServiceError {
        if let error = error as? ServiceError { return error }
        return ServiceError(.internal, "internal error")
    }

    /// A short human description of a decoding error (which field, what was wrong).
    public static func describe(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return "\(error)".prefix(200).description }
        func path(_ context: DecodingError.Context) -> String {
            let keys = context.codingPath.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }
            return keys.isEmpty ? "" : " at \(keys.joined(separator: "."))"
        }
        switch error {
        case .keyNotFound(let key, let context): return "missing field \"\(key.stringValue)\"\(path(context))"
        case .typeMismatch(_, let context): return "wrong type\(path(context)): \(context.debugDescription)"
        case .valueNotFound(_, let context): return "missing value\(path(context))"
        case .dataCorrupted(let context):
            return context.codingPath.isEmpty ? context.debugDescription : "invalid value\(path(context))"
        @unknown default: return "undecodable"
        }
    }
}
