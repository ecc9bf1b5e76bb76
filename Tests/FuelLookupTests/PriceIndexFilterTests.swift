import Foundation
import FuelLookup
import Messages
import Testing

struct PriceIndexFilterTests {
    static let filters: [LookupFilter] = [
        LookupFilter(maxAge: 86_400, now: StationFixtures.now),
        LookupFilter(maxAge: 3_600, now: StationFixtures.now),
        LookupFilter(now: StationFixtures.now, brand: "esso"),
        LookupFilter(now: StationFixtures.now, brand: "SHELL"),
        LookupFilter(now: StationFixtures.now, retailer: "Tesco"),
        LookupFilter(maxAge: 2 * 86_400, now: StationFixtures.now, brand: "bp", retailer: "asda"),
    ]

    private func check(filter: LookupFilter, seed: UInt64,
                       ask: (PriceIndex, BruteForceLookup) -> ((Coordinate, Double) -> [Match],
                                                               (Coordinate, Double) -> [Match])) -> AgreementCheck {
        let fixtures = StationFixtures(count: 2000, priceLevels: 20, seed: seed)
        let stations = fixtures.stations()
        let (index, reference) = ask(PriceIndex(stations: stations), BruteForceLookup(stations: stations))
        var check = AgreementCheck(points: fixtures.queryPoints(600, near: stations, seed: seed + 1))
        check.run(index, reference)
        return check
    }

    @Test(arguments: filters)
    func cheapest_withAFilter_agreesWithBruteForce(filter: LookupFilter) {
        let result = check(filter: filter, seed: 31) { index, brute in
            ({ index.cheapest(fuel: .e10, at: $0, radiusMiles: $1, limit: 3, filter: filter) },
             { brute.cheapest(fuel: .e10, at: $0, radiusMiles: $1, limit: 3, filter: filter) })
        }
        #expect(result.disagreement == nil, Comment(rawValue: result.disagreement ?? ""))
        #expect(result.answered > 50)
    }

    @Test(arguments: filters)
    func nearest_withAFilter_agreesWithBruteForce(filter: LookupFilter) {
        let result = check(filter: filter, seed: 32) { index, brute in
            ({ index.nearest(fuel: nil, at: $0, radiusMiles: $1, limit: 2, filter: filter) },
             { brute.nearest(fuel: nil, at: $0, radiusMiles: $1, limit: 2, filter: filter) })
        }
        #expect(result.disagreement == nil, Comment(rawValue: result.disagreement ?? ""))
        #expect(result.answered > 50)
    }

    @Test func filter_whenStationIsExactlyMaxAgeOld_admitsIt() {
        let location = Coordinate(lat: 52.2, lng: 0.12)
        let now = StationFixtures.now
        let onTheLine = TestStations.make(id: "asda/1", location: location, updated: now.addingTimeInterval(-600))
        let tooOld = TestStations.make(id: "asda/2", location: location, updated: now.addingTimeInterval(-601))
        let index = PriceIndex(stations: [onTheLine, tooOld])
        let matches = index.cheapest(fuel: .e10, at: location, radiusMiles: 1, limit: 5,
                                     filter: LookupFilter(maxAge: 600, now: now))
        #expect(matches.map(\.station.id) == ["asda/1"])
    }

    @Test func filter_whenBrandIsUnknown_returnsNothing() {
        let location = Coordinate(lat: 52.2, lng: 0.12)
        let index = PriceIndex(stations: [TestStations.make(id: "asda/1", location: location, brand: "Esso")])
        let filter = LookupFilter(brand: "Gulf")
        #expect(index.cheapest(fuel: .e10, at: location, radiusMiles: 5, filter: filter).isEmpty)
        #expect(index.nearest(fuel: nil, at: location, radiusMiles: 5, filter: filter).isEmpty)
    }

    @Test func filter_whenBrandDiffersOnlyInCase_matches() {
        let location = Coordinate(lat: 52.2, lng: 0.12)
        let index = PriceIndex(stations: [
            TestStations.make(id: "asda/1", location: location, brand: "Esso"),
            TestStations.make(id: "asda/2", location: location, brand: "ESSO"),
            TestStations.make(id: "asda/3", location: location, brand: "Shell"),
        ])
        let matches = index.nearest(fuel: nil, at: location, radiusMiles: 1, limit: 5,
                                    filter: LookupFilter(brand: "eSsO"))
        #expect(matches.map(\.station.id) == ["asda/1", "asda/2"])
    }

    @Test func filter_whenMaxAgeIsNaN_returnsNothing() {
        let location = Coordinate(lat: 52.2, lng: 0.12)
        let index = PriceIndex(stations: [TestStations.make(id: "asda/1", location: location)])
        #expect(index.nearest(fuel: nil, at: location, radiusMiles: 1, filter: LookupFilter(maxAge: .nan)).isEmpty)
    }
}
