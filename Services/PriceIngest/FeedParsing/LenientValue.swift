import Foundation
import Messages

/// A JSON value read without trusting its type: the feed decides, the rules interpret.
enum LenientValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array
    case object

    /// The value as a number: JSON numbers as they are, numeric strings parsed (`"51.607075"`).
    var number: Double? {
        switch self {
        case .number(let value): return value.isFinite ? value : nil
        case .string(let text): return Self.parseNumber(text)
        default: return nil
        }
    }

    /// A short description for messages (`a boolean`, `the string "N/A"`).
    var described: String {
        switch self {
        case .null: "null"
        case .bool(let value): "the boolean \(value)"
        case .number(let value): value.isFinite ? "the number \(TextClip.number(value))" : "an out-of-range number"
        case .string(let text): "the string \"\(TextClip.clip(text, to: 24))\""
        case .array: "a list"
        case .object: "an object"
        }
    }

    /// Parses a decimal number written as text, trimmed; nil for anything else (including `nan`, `inf`).
    static func parseNumber(_ text: String) -> Double? {
        let trimmed = text.trimmingWhitespace
        guard !trimmed.isEmpty, trimmed.count <= 40,
              trimmed.unicodeScalars.allSatisfy({ "0123456789.-+eE".unicodeScalars.contains($0) }),
              let value = Double(trimmed), value.isFinite else { return nil }
        return value
    }

    /// Reads any value, trying `first` first (so the expected type costs no failed attempt).
    static func read(from decoder: any Decoder, preferNumber: Bool) -> LenientValue {
        guard let container = try? decoder.singleValueContainer() else { return .object }
        if container.decodeNil() { return .null }
        if preferNumber {
            if let value = try? container.decode(Double.self) { return .number(value) }
            if let text = try? container.decode(String.self) { return .string(text) }
        } else {
            if let text = try? container.decode(String.self) { return .string(text) }
            if let value = try? container.decode(Double.self) { return .number(value) }
        }
        if let value = try? container.decode(Bool.self) { return .bool(value) }
        if (try? decoder.unkeyedContainer()) != nil { return .array }
        if (try? decoder.container(keyedBy: AnyKey.self)) != nil { return .object }
        // Only a number too large for a Double (`1e400`) is left.
        return .number(.infinity)
    }

    /// Describes what a decoder holds, for values that were expected to be objects or lists.
    static func describe(_ decoder: any Decoder) -> String {
        read(from: decoder, preferNumber: false).described
    }
}

/// A field expected to hold text.
struct LenientText: Decodable, Sendable {
    let value: LenientValue
    init(from decoder: any Decoder) { value = LenientValue.read(from: decoder, preferNumber: false) }
}

/// A field expected to hold a number (or a numeric string).
struct LenientNumber: Decodable, Sendable {
    let value: LenientValue
    init(from decoder: any Decoder) { value = LenientValue.read(from: decoder, preferNumber: true) }
}

/// A coding key for any name, so objects are read by key name whatever their order.
struct AnyKey: CodingKey, Hashable {
    let stringValue: String
    var intValue: Int? { nil }

    init(_ name: String) { stringValue = name }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}
