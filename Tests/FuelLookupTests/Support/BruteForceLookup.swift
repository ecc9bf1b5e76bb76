import Foundation
import FuelLookup
import Messages

/// The reference answer: measure every station, sort, take the first `limit`.
struct BruteForceLookup {
    let stations: [Station]
    /// The lower median of each retailer's prices of each fuel, where it has at least three.
    private let medians: [String: [FuelCode: Int32]]

    init(stations: [Station]) {
        self.stations = stations
        var prices: [String: [FuelCode: [Int32]]] = [:]
        for station in stations {
            for (fuel, price) in station.prices { prices[station.retailer, default: [:]][fuel, default: []].append(price.tenths) }
        }
        medians = prices.mapValues { byFuel in
            byFuel.compactMapValues { values in
                let sorted = values.sorted()
                return sorted.count >= 3 ? sorted[(sorted.count - 1) / 2] : nil
            }
        }
    }

    func cheapest(fuel: FuelCode, at point: Coordinate, radiusMiles: Double, limit: Int,
                  filter: LookupFilter = .none) -> [Match] {
        let matches = candidates(point, radiusMiles, filter).compactMap { station, distance -> Match? in
            guard let price = station.prices[fuel] else { return nil }
            return Match(station: station, price: price, distanceMiles: distance,
                         priceOutlier: outlier(price, of: fuel, from: station.retailer))
        }
        return Array(matches.sorted { a, b in
            if a.price != b.price { return (a.price ?? Price(tenths: 0)) < (b.price ?? Price(tenths: 0)) }
            if a.distanceMiles != b.distanceMiles { return a.distanceMiles < b.distanceMiles }
            return a.station.id < b.station.id
        }.prefix(limit))
    }

    func nearest(fuel: FuelCode?, at point: Coordinate, radiusMiles: Double, limit: Int,
                 filter: LookupFilter = .none) -> [Match] {
        let matches = candidates(point, radiusMiles, filter).compactMap { station, distance -> Match? in
            guard let fuel else { return Match(station: station, price: nil, distanceMiles: distance) }
            guard let price = station.prices[fuel] else { return nil }
            return Match(station: station, price: price, distanceMiles: distance,
                         priceOutlier: outlier(price, of: fuel, from: station.retailer))
        }
        return Array(matches.sorted { a, b in
            if a.distanceMiles != b.distanceMiles { return a.distanceMiles < b.distanceMiles }
            return a.station.id < b.station.id
        }.prefix(limit))
    }

    /// The rule of `PriceOutlier`, measured from scratch: more than 30.0p under or 35.0p over the
    /// retailer's median.
    private func outlier(_ price: Price, of fuel: FuelCode, from retailer: String) -> PriceOutlier? {
        guard let median = medians[retailer]?[fuel] else { return nil }
        if price.tenths < median - 300 { return .low }
        if price.tenths > median + 350 { return .high }
        return nil
    }

    private func candidates(_ point: Coordinate, _ radiusMiles: Double,
                            _ filter: LookupFilter) -> [(Station, Double)] {
        stations.compactMap { station in
            guard let location = station.location, admits(station, filter) else { return nil }
            let distance = point.distanceMiles(to: location)
            return distance <= radiusMiles ? (station, distance) : nil
        }
    }

    private func admits(_ station: Station, _ filter: LookupFilter) -> Bool {
        if let maxAge = filter.maxAge, station.updated < filter.now.addingTimeInterval(-maxAge) { return false }
        if let brand = filter.brand, brand.lowercased() != station.brand.lowercased() { return false }
        if let retailer = filter.retailer, retailer.lowercased() != station.retailer.lowercased() { return false }
        return true
    }
}
