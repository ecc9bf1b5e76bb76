import Foundation
import Messages

/// Hand-made stations for the edge-case tests.
enum TestStations {
    static func make(id: String, location: Coordinate?, prices: FuelPrices = [.e10: Price(tenths: 1399)],
                     brand: String = "Esso", retailer: String = "asda",
                     updated: Date = StationFixtures.now) -> Station {
        Station(id: id, retailer: retailer, siteId: id, brand: brand, name: "Test \(id)", address: "1 Road",
                postcode: "AB1 2CD", location: location, reportedLatitude: location?.lat,
                reportedLongitude: location?.lng, prices: prices, updated: updated)
    }
}
