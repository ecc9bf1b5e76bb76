import Foundation
import SampleFeeds

/// Generated feeds shared by several tests (generated once per test run).
enum FeedFixtures {
    /// The README demo: 3,000 stations with quirks.
    static let demo: [GeneratedFeed] = generate(.demo())
    /// The same stations without quirks.
    static let demoClean: [GeneratedFeed] = generate(.init(stations: 3_000, seed: 2025, quirks: false))
    /// 100,000 clean stations, for the size cap and the population weighting.
    static let large: [GeneratedFeed] = generate(.scale(stations: 100_000, seed: 7))

    /// The large fixture parsed once (immutable after first use, so sharing it across tests is safe).
    nonisolated(unsafe) static let largeStations: [ParsedStation] = (try? FeedReader.stations(large)) ?? []

    static func generate(_ options: SampleFeedOptions) -> [GeneratedFeed] {
        (try? SampleFeedGenerator(options: options).feeds()) ?? []
    }
}

/// One station of a feed as `JSONSerialization` reads it.
struct ParsedStation {
    let retailer: String
    let object: [String: Any]

    var siteId: String? { object["site_id"] as? String }
    var brand: String? { object["brand"] as? String }
    var address: String? { object["address"] as? String }
    var postcode: String? { object["postcode"] as? String }
    var location: [String: Any]? { object["location"] as? [String: Any] }
    var prices: [String: Double] {
        (object["prices"] as? [String: Any] ?? [:]).compactMapValues { ($0 as? NSNumber)?.doubleValue }
    }

    /// Latitude and longitude when both are JSON numbers.
    var numericCoordinate: (latitude: Double, longitude: Double)? {
        guard let latitude = location?["latitude"] as? NSNumber, let longitude = location?["longitude"] as? NSNumber,
              !(location?["latitude"] is String) else { return nil }
        return (latitude.doubleValue, longitude.doubleValue)
    }
}

/// Parses feeds with Foundation's JSON parser, as an outside consumer would.
enum FeedReader {
    struct ShapeError: Error, CustomStringConvertible {
        let description: String
    }

    static func envelope(_ feed: GeneratedFeed) throws -> [String: Any] {
        guard let object = try JSONSerialization.jsonObject(with: feed.json) as? [String: Any] else {
            throw ShapeError(description: "\(feed.retailer): top level is not an object")
        }
        return object
    }

    static func stations(_ feed: GeneratedFeed) throws -> [ParsedStation] {
        guard let list = try envelope(feed)["stations"] as? [[String: Any]] else {
            throw ShapeError(description: "\(feed.retailer): no stations list")
        }
        return list.map { ParsedStation(retailer: feed.retailer, object: $0) }
    }

    static func stations(_ feeds: [GeneratedFeed]) throws -> [ParsedStation] {
        try feeds.flatMap { try stations($0) }
    }

    /// The feed's station lines (one station per line between the envelope lines).
    static func stationLines(_ feed: GeneratedFeed) -> [Substring] {
        let text = String(decoding: feed.json, as: UTF8.self)
        return text.split(separator: "\n").filter { $0.hasPrefix("{\"site_id\"") || $0.hasPrefix("{\"location\"") }
    }
}
