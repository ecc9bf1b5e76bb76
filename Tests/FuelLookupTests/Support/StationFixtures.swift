import Foundation
import Messages

/// Random, clustered, UK-like station sets and query points for agreement tests.
struct StationFixtures {
    /// The UK's rough bounding box.
    static let latitudes = 50.0 ... 58.6
    static let longitudes = -5.7 ... 1.7
    /// The moment every fixture's `updated` counts back from.
    static let now = Date(timeIntervalSinceReferenceDate: 780_000_000)
    static let brands = ["Esso", "ESSO", "Shell", "BP", "Texaco", "Jet", "Tesco", "Asda"]
    static let retailers = ["asda", "tesco", "sainsburys", "morrisons", "applegreen", "mfg"]

    var count = 2000
    /// Distinct price values per fuel: a small number makes many ties.
    var priceLevels = 200
    /// Share of stations whose coordinates were unusable.
    var unlocatedShare = 0.05
    /// Share of stations placed exactly on another station's location.
    var sharedLocationShare = 0.05
    /// Share of prices set far from the rest (half 50p lower, half 50p higher): outliers.
    var outlierShare = 0.03
    var seed: UInt64 = 1

    func stations() -> [Station] {
        var rng = SeededGenerator(seed: seed)
        let towns = (0 ..< 30).map { _ in Self.uniformPoint(using: &rng) }
        var result: [Station] = []
        result.reserveCapacity(count)
        for index in 0 ..< count {
            var location: Coordinate?
            if let previous = result.last?.location, Double.random(in: 0 ..< 1, using: &rng) < sharedLocationShare {
                location = previous
            } else if Double.random(in: 0 ..< 1, using: &rng) < 0.15 {
                location = Self.uniformPoint(using: &rng)
            } else {
                // Zipf-like weights: a few big towns, many small ones.
                let town = towns[Int(Double(towns.count) * pow(Double.random(in: 0 ..< 1, using: &rng), 2.5))]
                location = Self.jittered(town, spreadDegrees: 0.08, using: &rng)
            }
            if Double.random(in: 0 ..< 1, using: &rng) < unlocatedShare { location = nil }
            result.append(station(index, location, using: &rng))
        }
        return result.shuffled(using: &rng)
    }

    private func station(_ index: Int, _ location: Coordinate?, using rng: inout SeededGenerator) -> Station {
        let fuelChances: [(FuelCode, Double)] = [(.e10, 0.9), (.b7, 0.92), (.e5, 0.5), (.sdv, 0.25)]
        var prices: FuelPrices = [:]
        for (fuel, chance) in fuelChances where Double.random(in: 0 ..< 1, using: &rng) < chance {
            var tenths = 1300 + Int32.random(in: 0 ..< Int32(priceLevels), using: &rng)
            if Double.random(in: 0 ..< 1, using: &rng) < outlierShare {
                tenths += Bool.random(using: &rng) ? 500 : -500
            }
            prices[fuel] = Price(tenths: tenths)
        }
        let retailer = Self.retailers.randomElement(using: &rng) ?? "asda"
        let ageSeconds = Double(Int.random(in: 0 ... 3 * 86_400, using: &rng))
        return Station(id: "\(retailer)/\(index)", retailer: retailer, siteId: "\(index)",
                       brand: Self.brands.randomElement(using: &rng) ?? "BP", name: "Station \(index)",
                       address: "\(index) High Street", postcode: "AB1 2CD", location: location,
                       reportedLatitude: location?.lat, reportedLongitude: location?.lng, prices: prices,
                       updated: Self.now.addingTimeInterval(-ageSeconds))
    }

    /// Query points: a third near stations, a third exactly at stations, a third anywhere in the UK box.
    func queryPoints(_ count: Int, near stations: [Station], seed: UInt64) -> [Coordinate] {
        var rng = SeededGenerator(seed: seed)
        let located = stations.compactMap(\.location)
        return (0 ..< count).map { index in
            guard let anchor = located.randomElement(using: &rng) else { return Self.uniformPoint(using: &rng) }
            switch index % 3 {
            case 0: return Self.jittered(anchor, spreadDegrees: 0.03, using: &rng)
            case 1: return anchor
            default: return Self.uniformPoint(using: &rng)
            }
        }
    }

    static func uniformPoint(using rng: inout SeededGenerator) -> Coordinate {
        Coordinate(lat: Double.random(in: latitudes, using: &rng), lng: Double.random(in: longitudes, using: &rng))
    }

    static func jittered(_ centre: Coordinate, spreadDegrees: Double, using rng: inout SeededGenerator) -> Coordinate {
        Coordinate(lat: centre.lat + rng.gaussian() * spreadDegrees,
                   lng: centre.lng + rng.gaussian() * spreadDegrees * 1.6)
    }
}
