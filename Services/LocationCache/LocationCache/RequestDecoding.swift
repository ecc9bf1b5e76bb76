import Foundation
import Messages

/// Decodes request bodies with error sentences that name the field and what it must be, but never
/// repeat the value sent. Foundation's own descriptions can quote input ("Number 1e999 is not
/// representable"), and `bad_request` messages end up in replies and log lines, where a user's
/// position must never appear.
public enum RequestDecoding {
    /// What each known field must be, for error sentences.
    static let expectations: [String: String] = [
        "user": "a string of 1 to 128 characters",
        "lat": "a number of degrees between -90 and 90",
        "lng": "a number of degrees between -180 and 180",
        "at": "an ISO-8601 time with offset",
        "radiusMiles": #"{"set": <miles from 1 to 50>} or {"clear": true}"#,
        "radiusMiles.set": "a number of miles from 1 to 50",
        "unit": #"{"set": "miles" | "km"} or {"clear": true}"#,
        "unit.set": #""miles" or "km""#,
    ]

    /// The request's `body` decoded as `Body`; any failure is `bad_request`.
    public static func body<Body: Decodable & Sendable>(_ type: Body.Type, from payload: Data,
                                                       requestType: MessageType) throws(ServiceError) -> Body {
        do {
            return try JSONCoding.makeDecoder().decode(RequestBody<Body>.self, from: payload).body
        } catch {
            throw .badRequest("bad body for \(requestType.rawValue): \(describe(error))")
        }
    }

    /// A value-free description of a decoding error.
    static func describe(_ error: any Error) -> String {
        guard let error = error as? DecodingError else { return "the request is not valid JSON" }
        switch error {
        case .keyNotFound(let key, let context):
            let path = fieldPath(context.codingPath + [key])
            return path.isEmpty ? "the request has no body" : "missing field \"\(path)\""
        case .dataCorrupted(let context) where context.codingPath.isEmpty:
            // The parser's own failure (bad syntax, a number beyond Double): no field is known.
            return "the request is not valid JSON (or holds a number too large to read)"
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .dataCorrupted(let context):
            let path = fieldPath(context.codingPath)
            guard !path.isEmpty else {
                return context.codingPath.isEmpty ? "the request is not a JSON object" : "body must be a JSON object"
            }
            return "\"\(path)\" must be \(expectations[path] ?? "a valid value")"
        @unknown default:
            return "the body could not be read"
        }
    }

    /// The dotted path inside `body` (the leading `body` key dropped).
    private static func fieldPath(_ keys: [any CodingKey]) -> String {
        let names = keys.map { $0.intValue.map { "[\($0)]" } ?? $0.stringValue }
        return (names.first == "body" ? names.dropFirst() : names[...]).joined(separator: ".")
    }
}
