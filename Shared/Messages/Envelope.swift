import Foundation

/// The wire protocol's version; every request and reply carries it as `v`.
public let wireVersion = 1

/// The head of a request: enough to route it before its body is decoded.
public struct RequestHead: Decodable, Sendable {
    public var v: Int?
    public var id: JSONValue?
    public var type: String?
}

/// A request: `{"v": 1, "id": "...", "type": "lookup.cheapest", "body": {...}}`.
public struct Request<Body: Codable & Sendable>: Codable, Sendable {
    public var v: Int
    public var id: JSONValue
    public var type: String
    public var body: Body

    public init(id: String, type: String, body: Body) {
        self.v = wireVersion
        self.id = .string(id)
        self.type = type
        self.body = body
    }
}

/// Decodes only the body of a request, once its type is known.
public struct RequestBody<Body: Decodable & Sendable>: Decodable, Sendable {
    public var body: Body
}

/// A reply: `{"v": 1, "id": ..., "ok": true, "body": {...}}` or `{"ok": false, "error": {...}}`.
public struct Reply<Body: Codable & Sendable>: Codable, Sendable {
    public var v: Int
    public var id: JSONValue
    public var ok: Bool
    public var body: Body?
    public var error: ServiceError?

    public init(id: JSONValue, body: Body) {
        self.v = wireVersion
        self.id = id
        self.ok = true
        self.body = body
        self.error = nil
    }

    public init(id: JSONValue, error: ServiceError) {
        self.v = wireVersion
        self.id = id
        self.ok = false
        self.body = nil
        self.error = error
    }

    /// The body, or the wire error thrown.
    public func result() throws(ServiceError) -> Body {
        if ok, let body { return body }
        throw error ?? ServiceError(.internal, "reply had neither body nor error")
    }
}

/// An empty body, for requests like `sys.ping` that carry none.
public struct EmptyBody: Codable, Sendable, Hashable {
    public init() {}

    /// Any object, its members ignored; anything else (`[]`, `5`) is refused, as every other body
    /// that is not an object is (the synthesized decoder read nothing, so took any JSON at all).
    public init(from decoder: any Decoder) throws {
        _ = try decoder.container(keyedBy: AnyMember.self)
    }

    private struct AnyMember: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
}
