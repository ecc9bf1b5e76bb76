import Foundation

/// The CMA document as read from JSON, before any rule is applied.
///
/// Decoding throws `FeedError` for the envelope (not an object, no `stations` list, too many records);
/// inside a record nothing throws: every oddity is kept as a `LenientValue` for the rules to judge.
struct RawFeed: Decodable {
    /// `last_updated`, or nil when absent.
    let lastUpdated: LenientValue?
    let records: [RawRecord]

    /// The `userInfo` key carrying the largest accepted station count (an `Int`).
    static let maxStationsKey = CodingUserInfoKey(rawValue: "FeedParsing.maxStations")!

    init(from decoder: any Decoder) throws {
        guard let container = try? decoder.container(keyedBy: AnyKey.self) else {
            throw FeedError.notAnObject(found: LenientValue.describe(decoder))
        }
        let stationsKey = AnyKey("stations")
        guard container.contains(stationsKey) else { throw FeedError.missingStations }
        guard var list = try? container.nestedUnkeyedContainer(forKey: stationsKey) else {
            let found = (try? container.decode(LenientText.self, forKey: stationsKey))?.value.described ?? "null"
            throw FeedError.stationsNotAList(found: found)
        }
        let limit = decoder.userInfo[Self.maxStationsKey] as? Int ?? Int.max
        let count = list.count ?? 0
        guard count <= limit else { throw FeedError.tooManyStations(count: count, limit: limit) }

        var records: [RawRecord] = []
        records.reserveCapacity(count)
        while !list.isAtEnd {
            guard let record = try? list.decode(RawRecord.self) else { break }
            records.append(record)
        }
        self.records = records
        lastUpdated = try? container.decodeIfPresent(LenientText.self, forKey: AnyKey("last_updated"))?.value
    }
}

/// One item of the `stations` list.
enum RawRecord: Decodable {
    case station(RawStation)
    /// Not an object; the text says what it was.
    case notAnObject(String)

    init(from decoder: any Decoder) {
        if let container = try? decoder.container(keyedBy: RawStation.Key.self) {
            self = .station(RawStation(container))
        } else {
            self = .notAnObject(LenientValue.describe(decoder))
        }
    }
}

/// A station object's fields, each nil when the key is absent.
struct RawStation {
    enum Key: String, CodingKey {
        case siteId = "site_id", brand, address, postcode, location, prices
    }

    let siteId: LenientValue?
    let brand: LenientValue?
    let address: LenientValue?
    let postcode: LenientValue?
    let location: RawLocation?
    let prices: RawPrices?

    init(_ container: KeyedDecodingContainer<Key>) {
        siteId = Self.text(container, .siteId)
        brand = Self.text(container, .brand)
        address = Self.text(container, .address)
        postcode = Self.text(container, .postcode)
        location = try? container.decodeIfPresent(RawLocation.self, forKey: .location)
        prices = try? container.decodeIfPresent(RawPrices.self, forKey: .prices)
    }

    private static func text(_ container: KeyedDecodingContainer<Key>, _ key: Key) -> LenientValue? {
        guard container.contains(key) else { return nil }
        if let text = try? container.decode(String.self, forKey: key) { return .string(text) }
        return (try? container.decode(LenientText.self, forKey: key))?.value ?? .null
    }
}

/// `location`: an object with `latitude` and `longitude` in any order, or something else.
enum RawLocation: Decodable {
    case coordinates(latitude: LenientValue?, longitude: LenientValue?)
    case notAnObject(LenientValue)

    private enum Key: String, CodingKey { case latitude, longitude }

    init(from decoder: any Decoder) {
        guard let container = try? decoder.container(keyedBy: Key.self) else {
            self = .notAnObject(LenientValue.read(from: decoder, preferNumber: false))
            return
        }
        self = .coordinates(latitude: Self.number(container, .latitude), longitude: Self.number(container, .longitude))
    }

    private static func number(_ container: KeyedDecodingContainer<Key>, _ key: Key) -> LenientValue? {
        guard container.contains(key) else { return nil }
        return RawPrices.number(container, key)
    }
}

/// `prices`: fuel key to value, or something that is not an object.
enum RawPrices: Decodable {
    case entries([(key: String, value: LenientValue)])
    case notAnObject(LenientValue)

    init(from decoder: any Decoder) {
        guard let container = try? decoder.container(keyedBy: AnyKey.self) else {
            self = .notAnObject(LenientValue.read(from: decoder, preferNumber: false))
            return
        }
        var entries: [(key: String, value: LenientValue)] = []
        for key in container.allKeys {
            entries.append((key.stringValue, Self.number(container, key)))
        }
        self = .entries(entries)
    }

    /// A value expected to be a number: the plain `Double` path first, the lenient reading if that fails.
    static func number<K: CodingKey>(_ container: KeyedDecodingContainer<K>, _ key: K) -> LenientValue {
        if let value = try? container.decode(Double.self, forKey: key) { return .number(value) }
        return (try? container.decode(LenientNumber.self, forKey: key))?.value ?? .null
    }
}
