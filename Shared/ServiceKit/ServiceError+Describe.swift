import Foundation
import Messages

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
