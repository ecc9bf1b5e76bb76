import Foundation
import Messages

/// Stations built for the store tests: varied enough to catch a column mix-up.
enum StoreFixtures {
    /// A time with a fractional part, to prove dates round-trip bit for bit.
    static let feedTime = Date(timeIntervalSinceReferenceDate: 781_234_567.123_456_7)

    /// Station number `index` of `retailer`: every 5th has no usable location, every 7th no prices.
    static func station(_ retailer: String, _ index: Int) -> Station {
        let siteId = "S\(index)"
        let hasLocation = index % 5 != 0
        let lat = 51.0 + Double(index) * 0.000_123_456_789
        let lng = -1.0 - Double(index) * 0.000_987_654_321
        var prices: FuelPrices = [:]
        if index % 7 != 0 {
            prices[.e10] = Price(tenths: Int32(1_300 + index % 100))
            prices[.b7] = Price(tenths: Int32(1_400 + index % 100))
            if index % 2 == 0 { prices[.e5] = Price(tenths: 1_559) }
            if index % 3 == 0 { prices[.sdv] = Price(tenths: 1_689) }
        }
        return Station(
            id: "\(retailer)/\(siteId)", retailer: retailer, siteId: siteId, brand: "Brand \(index % 4)",
            name: "Forecourt \(index) – Sainsbury’s Café", address: "\(index) High Street, Selby",
            postcode: "YO8 \(index % 10)AA",
            location: hasLocation ? Coordinate(lat: lat, lng: lng) : nil,
            reportedLatitude: hasLocation ? lat : (index % 2 == 0 ? 0 : nil),
            reportedLongitude: hasLocation ? lng : (index % 2 == 0 ? 0 : nil),
            prices: prices,
            updated: feedTime.addingTimeInterval(Double(index) * 0.25))
    }

    /// Stations 0..<count of `retailer`, in feed order (not sorted by id).
    static func stations(_ retailer: String, count: Int) -> [Station] {
        (0..<count).reversed().map { station(retailer, $0) }
    }

    /// How the store returns a list: sorted by id.
    static func sortedByID(_ stations: [Station]) -> [Station] {
        stations.sorted { $0.id < $1.id }
    }
}
