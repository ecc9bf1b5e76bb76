import Foundation
import FeedParsing
import Messages

/// Small inline CMA feeds for unit tests.
enum FeedFixtures {
    /// A fetch time in October 2025 (BST), a few hours after the default `last_updated`.
    static let fetchedAt = Date(timeIntervalSince1970: 1_760_018_400) // 2025-10-09T14:00:00Z
    /// `09/10/2025 11:00:00` in London (BST) as an instant.
    static let defaultUpdated = Date(timeIntervalSince1970: 1_760_004_000) // 2025-10-09T10:00:00Z

    /// One station object as JSON text; each argument is raw JSON (pass `nil` to leave the key out).
    static func station(siteId: String? = "\"gcqfn1wd5k4j\"", brand: String? = "\"Asda\"",
                        address: String? = "\"Abbey Park - North London Road, Coventry\"",
                        postcode: String? = "\"CV3 4AR\"",
                        location: String? = #"{"latitude": 52.3914, "longitude": -1.4868}"#,
                        prices: String? = #"{"E10": 132.7, "B7": 137.7}"#) -> String {
        let fields: [(String, String?)] = [("site_id", siteId), ("brand", brand), ("address", address),
                                           ("postcode", postcode), ("location", location), ("prices", prices)]
        return "{" + fields.compactMap { key, value in value.map { "\"\(key)\": \($0)" } }
            .joined(separator: ", ") + "}"
    }

    /// A whole feed as JSON text (pass `nil` to leave `last_updated` out).
    static func feed(_ stations: [String], lastUpdated: String? = "\"09/10/2025 11:00:00\"") -> String {
        var text = "{"
        if let lastUpdated { text += "\"last_updated\": \(lastUpdated), " }
        return text + "\"stations\": [" + stations.joined(separator: ", ") + "]}"
    }

    /// Parses JSON text with the default parser.
    static func parse(_ json: String, retailer: String = "asda", fetchedAt: Date = fetchedAt,
                      parser: FeedParser = FeedParser()) throws(FeedError) -> ParsedFeed {
        try parser.parse(Data(json.utf8), retailer: retailer, fetchedAt: fetchedAt)
    }

    /// Parses a feed of one station built from `station(...)` arguments, returning the feed and the station.
    static func parseOne(_ station: String, retailer: String = "asda") throws -> (ParsedFeed, Station) {
        let feed = try parse(feed([station]), retailer: retailer)
        guard let only = feed.stations.first, feed.stations.count == 1 else {
            throw FixtureError.expectedOneStation(feed.stations.count)
        }
        return (feed, only)
    }

    enum FixtureError: Error { case expectedOneStation(Int) }
}
