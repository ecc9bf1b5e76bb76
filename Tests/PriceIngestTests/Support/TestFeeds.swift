import Foundation

/// Small CMA feed documents written by the tests (JSON built by `JSONSerialization`, so brands and
/// addresses with `&` or quotes need no escaping by hand).
enum TestFeeds {
    /// One station record of a feed.
    struct Site {
        var id: String
        var brand: String = "ASDA"
        var address: String = "Doncaster Road, Selby"
        var postcode: String = "YO8 9EG"
        var lat: Double = 53.7687
        var lng: Double = -1.0895
        var diesel: Double = 139.9
    }

    /// Three Selby stations whose diesel costs `diesel`, `diesel + 1`, `diesel + 2` pence.
    static func selby(diesel: Double) -> [Site] {
        (0..<3).map { Site(id: "site\($0)", lat: 53.7687 + Double($0) * 0.01, diesel: diesel + Double($0)) }
    }

    /// `{"last_updated": ..., "stations": [...]}`; no `last_updated` member when `lastUpdated` is nil.
    static func document(lastUpdated: String?, sites: [Site]) -> Data {
        let stations: [[String: Any]] = sites.map { site in
            ["site_id": site.id, "brand": site.brand, "address": site.address, "postcode": site.postcode,
             "location": ["latitude": site.lat, "longitude": site.lng], "prices": ["B7": site.diesel]]
        }
        var document: [String: Any] = ["stations": stations]
        if let lastUpdated { document["last_updated"] = lastUpdated }
        return (try? JSONSerialization.data(withJSONObject: document, options: [.sortedKeys])) ?? Data()
    }

    /// The ingest.feed body for `feed`.
    static func ingestBody(retailer: String, feed: Data) -> Data {
        var body = Data(#"{"retailer":"\#(retailer)","feed":"#.utf8)
        body.append(feed)
        body.append(Data("}".utf8))
        return body
    }
}
