/// The contract's error codes (v1). The raw value is what travels on the wire.
public enum ErrorCode: String, Codable, Sendable, CaseIterable, Hashable {
    /// Not JSON, wrong shape, out-of-range value.
    case badRequest = "bad_request"
    case unknownType = "unknown_type"
    case notFound = "not_found"
    case tooLarge = "too_large"
    /// A dependency is down.
    case unavailable
    case timeout
    case unauthorized
    case conflict
    case `internal`
}

/// An error as it travels on the wire: a code and a human sentence.
///
/// Handlers throw it; the reply server turns it into `{"ok": false, "error": {...}}`.
public struct ServiceError: Error, Codable, Sendable, Hashable, CustomStringConvertible {
    public var code: ErrorCode
    public var message: String

    public init(_ code: ErrorCode, _ message: String) {
        self.code = code
        self.message = message
    }

    public var description: String { "\(code.rawValue): \(message)" }

    public static func badRequest(_ message: String) -> ServiceError { .init(.badRequest, message) }
    public static func notFound(_ message: String) -> ServiceError { .init(.notFound, message) }
    public static func unavailable(_ message: String) -> ServiceError { .init(.unavailable, message) }
}
