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

    /// Encodes with the shared configuration: by hand for a `JSONWritable` type, else with a
    /// fresh encoder (encoders are not shared across threads).
    public static func encode<T: Encodable>(_ value: T) throws -> Data {
        if let writable = value as? any JSONWritable {
            var writer = JSONWriter(capacity: 256)
            writable.writeJSON(to: &writer)
            // A number that is not finite: the encoder's error, as before.
            if !writer.wroteNonFinite { return writer.data }
        }
        return try makeEncoder().encode(value)
    }

    /// Decodes with the shared configuration: a `JSONReadable` type reads itself from the bytes
    /// once they pass `StrictJSON`; anything else, or a shape its reader does not take, goes
    /// through a fresh decoder. A document that names a member twice in one object is refused
    /// (`StrictJSON.RepeatedName`, saying which), as requests are, unless `allowingRepeatedNames`
    /// (a first look at a message whose whole reading will refuse it). Documents past
    /// `repeatedNameCheckLimit` are not checked for repeats: listing the members of a replica's
    /// snapshot of a million stations (price-ingest's own output; what clients and plug-ins send
    /// is far smaller) raised its peak memory (871 MiB against 832 without, one run each).
    public static func decode<T: Decodable>(_ type: T.Type, from data: Data,
                                            allowingRepeatedNames: Bool = false) throws -> T {
        let checksRepeats = !allowingRepeatedNames && data.count <= repeatedNameCheckLimit
        var members: [StrictJSON.Member] = []
        var listedAll = false
        let checked = data.withUnsafeBytes { raw -> (strict: Bool, repeated: StrictJSON.RepeatedName?) in
            let bytes = raw.bindMemory(to: UInt8.self)
            guard !bytes.isEmpty else { return (false, nil) }
            guard checksRepeats else { return (StrictJSON.check(bytes) == nil, nil) }
            guard StrictJSON.check(bytes, members: &members, listedAll: &listedAll) == nil else {
                return (false, nil)
            }
            let repeated = members.withUnsafeBufferPointer { StrictJSON.repeatedName(among: $0, in: bytes) }
            return (true, repeated.map { StrictJSON.RepeatedName($0, in: bytes, of: "the message") })
        }
        if let repeated = checked.repeated { throw repeated }
        if checked.strict, let readable = T.self as? any JSONReadable.Type {
            let value = data.withUnsafeBytes { raw -> T? in
                let bytes = raw.bindMemory(to: UInt8.self)
                return (try? readable.init(json: JSONSlice(bytes: bytes, range: 0..<bytes.count))) as? T
            }
            if let value { return value }
        }
        return checked.strict ? try decodeChecked(type, from: data) : try makeDecoder().decode(type, from: data)
    }

    /// Decodes `data` the strict check already took: a document the decoder still refuses as a
    /// whole ("The given data was not valid JSON.") holds a value it cannot read (`unreadableValue`).
    public static func decodeChecked<T: Decodable>(_ type: T.Type, from data: Data) throws -> T {
        do {
            return try makeDecoder().decode(type, from: data)
        } catch DecodingError.dataCorrupted(let context) where context.codingPath.isEmpty {
            throw DecodingError.dataCorrupted(DecodingError.Context(codingPath: [], debugDescription: unreadableValue))
        }
    }

    /// The largest document `decode` checks for repeated names.
    public static let repeatedNameCheckLimit = 1 << 20

    /// Why valid JSON cannot be read: what the decoder refuses in a document the strict check took.
    public static let unreadableValue = "a value cannot be read (a number a double cannot hold: beyond ±1.8e308, "
        + "or nearer 0 than 5e-324 but not 0; or a string with a lone surrogate escape)"
}
