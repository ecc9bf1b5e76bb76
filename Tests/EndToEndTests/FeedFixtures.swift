import Foundation

/// Small CMA feeds written by the tests themselves.
enum FeedFixtures {
    struct Site {
        var id: String
        var lat: Any
        var lng: Any
        var prices: [String: Any]
        var brand: String = "TESCO"
        var address: String = "Doncaster Road, Selby"
        var postcode: String = "YO8 9EG"
    }

    /// Selby-area sites: B7 cheapest at "cheap" (1.4 mi away), a sentinel at "sentinel", an unusable
    /// location at "nowhere" (cheapest of all, must never be answered).
    static var selby: [Site] { [
        Site(id: "cheap", lat: 53.768681, lng: -1.089549, prices: ["B7": 139.9, "E10": 131.9]),
        Site(id: "dear", lat: 53.7742, lng: -1.06494, prices: ["B7": 145.9, "E10": 135.9], brand: "JET"),
        Site(id: "sentinel", lat: 53.7840, lng: -1.0660, prices: ["B7": 0, "E10": 999.9], brand: "Asda"),
        Site(id: "nowhere", lat: 0, lng: 0, prices: ["B7": 99.9], brand: "BP"),
    ] }

    static let selbyPoint = (lat: 53.7838, lng: -1.0664)

    /// Selby-area sites of one retailer whose B7 median is 190.9p: "stuck" at 119.9p is a low
    /// outlier (a price left behind), "motorway" at 239.9p a high one; the rest are not.
    static var outliers: [Site] { [
        Site(id: "stuck", lat: 53.7800, lng: -1.0700, prices: ["B7": 119.9, "E10": 171.9]),
        Site(id: "a", lat: 53.7700, lng: -1.0800, prices: ["B7": 189.9, "E10": 170.9]),
        Site(id: "b", lat: 53.7900, lng: -1.0600, prices: ["B7": 190.9, "E10": 172.9]),
        Site(id: "c", lat: 53.7950, lng: -1.0500, prices: ["B7": 191.9, "E10": 173.9]),
        Site(id: "motorway", lat: 53.7600, lng: -1.1000, prices: ["B7": 239.9, "E10": 199.9]),
    ] }

    static func feed(_ sites: [Site], lastUpdated: String = "29/11/2026 06:30:00") -> Data {
        let stations = sites.map { site -> [String: Any] in
            ["site_id": site.id, "brand": site.brand, "address": site.address, "postcode": site.postcode,
             "location": ["latitude": site.lat, "longitude": site.lng], "prices": site.prices]
        }
        let document: [String: Any] = ["last_updated": lastUpdated, "stations": stations]
        return (try? JSONSerialization.data(withJSONObject: document, options: [.sortedKeys])) ?? Data()
    }

    /// Writes a feed as `<name>-<uuid>.json` in `directory` (created if missing), which the test
    /// removes when it is done: a stack's fixtures directory, or a directory of the test's own.
    static func write(_ data: Data, name: String, in directory: URL) throws -> URL {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let url = directory.appendingPathComponent("\(name)-\(UUID().uuidString).json")
        try data.write(to: url)
        return url
    }
}
