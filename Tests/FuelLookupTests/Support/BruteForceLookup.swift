import Foundation
import FuelLookup
import Messages

/// The reference answer: measure every station, sort, take the first `limit`.
struct BruteForceLookup {
    let stations: [Station]

    func cheapest(fuel: FuelCode, at point: Coordinate, radiusMiles: Double, limit: Int,
                  filter: LookupFilter = .none) -> [Match] {
        let matches = candidates(point, radiusMiles, filter).compactMap { station, distance -> Match? in
            guard let price = station.prices[fuel] else { return nil }
            return Match(station: station, price: price, distanceMiles: distance)
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
            return Match(station: station, price: price, distanceMiles: distance)
        }
        return Array(matches.sorted { a, b in
            if a.distanceMiles != b.distanceMiles { return a.distanceMiles < b.distanceMiles }
            return a.station.id < b.station.id
        }.prefix(limit))
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
