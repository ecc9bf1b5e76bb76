import FuelLookup
import Messages
import Testing

/// Stations a few metres apart: their true distances differ by less than the index's coarse
/// (Float, chord) bounds can tell, so only the exact haversine may decide their order.
struct PriceIndexCloseStationsTests {
    /// Forty sites, each with thirty stations scattered within about 5 m, on two price levels.
    private static func stations(seed: UInt64) -> [Station] {
        var rng = SeededGenerator(seed: seed)
        var result: [Station] = []
        for site in 0 ..< 40 {
            let centre = StationFixtures.uniformPoint(using: &rng)
            for number in 0 ..< 30 {
                let location = StationFixtures.jittered(centre, spreadDegrees: 0.00003, using: &rng)
                let price = Price(tenths: 1400 + Int32.random(in: 0 ... 1, using: &rng))
                result.append(TestStations.make(id: "mfg/\(site)-\(number)", location: location,
                                                prices: [.e10: price]))
            }
        }
        return result
    }

    private func check(seed: UInt64, ask: (PriceIndex, BruteForceLookup, Coordinate, Double) -> ([Match], [Match]))
        -> (disagreement: String?, answered: Int) {
        let stations = Self.stations(seed: seed)
        let index = PriceIndex(stations: stations), brute = BruteForceLookup(stations: stations)
        var rng = SeededGenerator(seed: seed + 1)
        var answered = 0
        for number in 0 ..< 800 {
            guard let anchor = stations.randomElement(using: &rng)?.location else { continue }
            let point = StationFixtures.jittered(anchor, spreadDegrees: 0.00005, using: &rng)
            let radius = [0.002, 0.01, 1][number % 3]
            let (actual, expected) = ask(index, brute, point, radius)
            if !expected.isEmpty { answered += 1 }
            if actual != expected {
                return ("query \(number) r=\(radius): index \(AgreementCheck.describe(actual)) brute force "
                    + AgreementCheck.describe(expected), answered)
            }
        }
        return (nil, answered)
    }

    @Test func nearest_whenStationsAreMetresApart_ordersThemByExactDistance() {
        let result = check(seed: 61) { index, brute, point, radius in
            (index.nearest(fuel: nil, at: point, radiusMiles: radius, limit: 12),
             brute.nearest(fuel: nil, at: point, radiusMiles: radius, limit: 12))
        }
        #expect(result.disagreement == nil, Comment(rawValue: result.disagreement ?? ""))
        #expect(result.answered > 500)
    }

    @Test func cheapest_whenStationsAreMetresApart_ordersEqualPricesByExactDistance() {
        let result = check(seed: 62) { index, brute, point, radius in
            (index.cheapest(fuel: .e10, at: point, radiusMiles: radius, limit: 8),
             brute.cheapest(fuel: .e10, at: point, radiusMiles: radius, limit: 8))
        }
        #expect(result.disagreement == nil, Comment(rawValue: result.disagreement ?? ""))
        #expect(result.answered > 500)
    }
}
