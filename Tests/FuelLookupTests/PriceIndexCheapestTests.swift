import FuelLookup
import Messages
import Testing

struct PriceIndexCheapestTests {
    private func check(_ fixtures: StationFixtures, fuel: FuelCode, limit: Int, queries: Int) -> AgreementCheck {
        let stations = fixtures.stations()
        let index = PriceIndex(stations: stations)
        let brute = BruteForceLookup(stations: stations)
        var check = AgreementCheck(points: fixtures.queryPoints(queries, near: stations, seed: fixtures.seed + 100))
        check.run({ index.cheapest(fuel: fuel, at: $0, radiusMiles: $1, limit: limit) },
                  { brute.cheapest(fuel: fuel, at: $0, radiusMiles: $1, limit: limit) })
        return check
    }

    @Test(arguments: FuelCode.allCases)
    func cheapest_whenLimitIsOne_agreesWithBruteForce(fuel: FuelCode) {
        let result = check(StationFixtures(count: 2000, seed: 11), fuel: fuel, limit: 1, queries: 800)
        #expect(result.disagreement == nil, Comment(rawValue: result.disagreement ?? ""))
        #expect(result.answered > 250)
    }

    @Test func cheapest_whenLimitIsFive_agreesWithBruteForce() {
        let result = check(StationFixtures(count: 2000, seed: 12), fuel: .b7, limit: 5, queries: 1200)
        #expect(result.disagreement == nil, Comment(rawValue: result.disagreement ?? ""))
        #expect(result.answered > 400)
    }

    @Test(arguments: [1, 5, 12])
    func cheapest_whenPricesTieHeavily_ordersTiesByDistanceThenID(limit: Int) {
        // Three price levels and many stations sharing a forecourt location: ties everywhere.
        let fixtures = StationFixtures(count: 2000, priceLevels: 3, sharedLocationShare: 0.3, seed: 13)
        let result = check(fixtures, fuel: .e10, limit: limit, queries: 1000)
        #expect(result.disagreement == nil, Comment(rawValue: result.disagreement ?? ""))
        #expect(result.answered > 300)
    }

    @Test func cheapest_whenEveryPriceIsEqual_returnsTheNearest() {
        let fixtures = StationFixtures(count: 2000, priceLevels: 1, seed: 14)
        let result = check(fixtures, fuel: .b7, limit: 3, queries: 800)
        #expect(result.disagreement == nil, Comment(rawValue: result.disagreement ?? ""))
    }

    @Test func cheapest_whenRadiusCoversTheWholeEarth_returnsEveryStationInPriceOrder() {
        let fixtures = StationFixtures(count: 600, seed: 15)
        let stations = fixtures.stations()
        let index = PriceIndex(stations: stations)
        let brute = BruteForceLookup(stations: stations)
        let antipode = Coordinate(lat: -54, lng: 178)
        let actual = index.cheapest(fuel: .e10, at: antipode, radiusMiles: 13_000, limit: 10_000)
        let expected = brute.cheapest(fuel: .e10, at: antipode, radiusMiles: 13_000, limit: 10_000)
        #expect(actual.count > 400)
        #expect(actual == expected)
    }

    @Test func cheapest_whenStationsSellOtherFuelsOnly_neverReturnsThem() throws {
        let stations = StationFixtures(count: 1500, seed: 16).stations()
        let index = PriceIndex(stations: stations)
        let centre = try #require(stations.compactMap(\.location).first)
        let matches = index.cheapest(fuel: .sdv, at: centre, radiusMiles: 1000, limit: 5000)
        let sellers = stations.filter { $0.location != nil && $0.prices[.sdv] != nil }
        #expect(matches.count == sellers.count)
        #expect(matches.allSatisfy { $0.station.prices[.sdv] == $0.price && $0.price != nil })
    }
}
