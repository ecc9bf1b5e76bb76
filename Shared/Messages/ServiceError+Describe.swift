import Foundation

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
        case .typeMismatch(let type, let context):
            // A decoder's own words when it gave some; Foundation's ("Expected to decode
            // Dictionary<String, Any>...") name Swift types, so the JSON kind is said instead.
            let own = context.debugDescription.hasPrefix("Expected to decode") ? nil : context.debugDescription
            return "wrong type\(path(context)): " + (own ?? "expected \(expected(type))")
        case .valueNotFound(_, let context): return "missing value\(path(context))"
        case .dataCorrupted(let context):
            // The decoders' and our own words (why the value is refused) after the place.
            if context.codingPath.isEmpty { return context.debugDescription }
            return "invalid value\(path(context))" + (context.debugDescription.isEmpty ? "" : ": " + context.debugDescription)
        @unknown default: return "undecodable"
        }
    }

    /// A JSON kind for a Swift type a decoder wanted ("an object", not `Dictionary<String, Any>`).
    static func expected(_ type: Any.Type) -> String {
        let name = String(describing: type)
        if name.hasPrefix("Dictionary") { return "an object" }
        if name.hasPrefix("Array") { return "an array" }
        if type == String.self || type == Substring.self { return "a string" }
        if type == Bool.self { return "true or false" }
        if type is any Numeric.Type { return "a number" }
        return "a value of another type"
    }
}
