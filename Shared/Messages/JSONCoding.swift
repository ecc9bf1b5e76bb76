import Foundation

/// The one JSON configuration of the whole project: sorted keys, ISO-8601 dates with offset,
/// camelCase field names as declared.
public enum JSONCoding {
    public static func makeEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }

    public static func makeDecoder() -> JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            guard let date = parseISO8601(text) else {
                throw DecodingError.dataCorruptedError(in: container,
                    debugDescription: "expected an ISO-8601 time with offset, got \(text.prefix(40))")
            }
            return date
        }
        return decoder
    }

    /// Parses ISO-8601 with an offset, with or without fractional seconds.
    public static func parseISO8601(_ text: String) -> Date? {
        if let date = try? Date(text, strategy: .iso8601) { return date }
        let fractional = Date.ISO8601FormatStyle(includingFractionalSeconds: true)
        return try? fractional.parse(text)
    }

    /// Formats a time as ISO-8601 with offset (UTC, `Z`).
    public static func formatISO8601(_ date: Date) -> String {
        date.formatted(.iso8601)
    }

    /// Encodes with the shared configuration (a fresh encoder per call: encoders are not
    /// shared across threads).
    public static func encode<T: Encodable>(_ value: T) throws -> Data {
        try makeEncoder().encode(value)
    }

    public static func decode<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        try makeDecoder().decode(type, from: data)
    }
}
