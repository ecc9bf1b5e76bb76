import FuelLookup
import Messages
import Testing

struct PriceIndexNearestTests {
    private func check(_ fixtures: StationFixtures, fuel: FuelCode?, limit: Int, queries: Int) -> AgreementCheck {
        let stations = fixtures.stations()
        let index = PriceIndex(stations: stations)
        let brute = BruteForceLookup(stations: stations)
        var check = AgreementCheck(points: fixtures.queryPoints(queries, near: stations, seed: fixtures.seed + 200))
        check.run({ index.nearest(fuel: fuel, at: $0, radiusMiles: $1, limit: limit) },
                  { brute.nearest(fuel: fuel, at: $0, radiusMiles: $1, limit: limit) })
        return check
    }

    @Test(arguments: [1, 5])
    func nearest_withAFuel_agreesWithBruteForce(limit: Int) {
        let result = check(StationFixtures(count: 2000, seed: 21), fuel: .e5, limit: limit, queries: 1000)
        #expect(result.disagreement == nil, Comment(rawValue: result.disagreement ?? ""))
        #expect(result.answered > 300)
    }

    @Test(arguments: [1, 5])
    func nearest_withoutAFuel_agreesWithBruteForce(limit: Int) {
        let result = check(StationFixtures(count: 2000, seed: 22), fuel: nil, limit: limit, queries: 1000)
        #expect(result.disagreement == nil, Comment(rawValue: result.disagreement ?? ""))
        #expect(result.answered > 300)
    }

    @Test func nearest_whenManyStationsShareALocation_ordersThemByID() {
        let fixtures = StationFixtures(count: 2000, sharedLocationShare: 0.5, seed: 23)
        let result = check(fixtures, fuel: nil, limit: 8, queries: 800)
        #expect(result.disagreement == nil, Comment(rawValue: result.disagreement ?? ""))
    }

    @Test func nearest_withoutAFuel_returnsStationsThatSellNothing() throws {
        let location = Coordinate(lat: 53.8, lng: -1.55)
        let bare = TestStations.make(id: "mfg/1", location: location, prices: [:])
        let index = PriceIndex(stations: [bare])
        let match = try #require(index.nearest(fuel: nil, at: location, radiusMiles: 1).first)
        #expect(match.station == bare)
        #expect(match.price == nil)
        #expect(index.nearest(fuel: .e10, at: location, radiusMiles: 1).isEmpty)
    }

    @Test func nearest_withAFuel_carriesThatFuelsPrice() throws {
        let location = Coordinate(lat: 51.5, lng: -0.12)
        let station = TestStations.make(id: "asda/7", location: location,
                                        prices: [.e10: Price(tenths: 1329), .b7: Price(tenths: 1419)])
        let index = PriceIndex(stations: [station])
        let match = try #require(index.nearest(fuel: .b7, at: location, radiusMiles: 1).first)
        #expect(match.price == Price(tenths: 1419))
    }

    @Test func nearest_whenRadiusEqualsAStationsExactDistance_includesIt() {
        let stations = StationFixtures(count: 800, unlocatedShare: 0, seed: 24).stations()
        let index = PriceIndex(stations: stations)
        var rng = SeededGenerator(seed: 25)
        var missing: [String] = []
        for _ in 0 ..< 300 {
            guard let station = stations.randomElement(using: &rng), let location = station.location else { continue }
            let query = StationFixtures.jittered(location, spreadDegrees: 0.05, using: &rng)
            let radius = query.distanceMiles(to: location)
            let ids = index.nearest(fuel: nil, at: query, radiusMiles: radius, limit: 10_000).map(\.station.id)
            if !ids.contains(station.id) { missing.append(station.id) }
        }
        #expect(missing.isEmpty)
    }
}
