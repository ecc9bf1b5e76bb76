import FuelLookup
import Messages
import Testing

/// The id order the index uses for ties and for `station(id:)` must be String's own order.
struct PriceIndexOrderingTests {
    static let forecourt = Coordinate(lat: 51.4545, lng: -2.5879)

    private func idsNearestFirst(_ ids: [String]) -> [String] {
        let index = PriceIndex(stations: ids.map { TestStations.make(id: $0, location: Self.forecourt) })
        return index.nearest(fuel: nil, at: Self.forecourt, radiusMiles: 1, limit: 100).map(\.station.id)
    }

    @Test func ties_whenASCIIIDsShareLongPrefixes_followStringOrder() {
        let ids = ["applegreen-forecourts/000002", "applegreen-forecourts/0000010", "applegreen-forecourts/000001",
                   "asda/9", "asda/10", "ASDA/1", "asda/1\u{0}", "asda/1", "zeta/1", "a"]
        #expect(idsNearestFirst(ids) == ids.sorted())
    }

    @Test func ties_whenIDsAreNotASCII_followStringOrder() {
        let ids = ["zeta/1", "\u{C4}/2", "a\u{308}/3", "ärger/1", "applegreen-forecourts/000002",
                   "applegreen-forecourts/000001", "asda/10", "asda/9", "日本/1", "e/1"]
        #expect(idsNearestFirst(ids) == ids.sorted())
    }

    @Test func station_whenIDsAreCanonicallyEquivalent_treatsThemAsOne() {
        let precomposed = TestStations.make(id: "caf\u{E9}/1", location: Self.forecourt)
        let decomposed = TestStations.make(id: "cafe\u{301}/1", location: Self.forecourt,
                                           prices: [.b7: Price(tenths: 1450)])
        let index = PriceIndex(stations: [precomposed, decomposed])
        #expect(index.count == 1)
        #expect(index.station(id: "caf\u{E9}/1") == decomposed)
    }

    @Test func init_whenInputIsAlreadyInIDOrder_answersAsForShuffledInput() {
        let fixtures = StationFixtures(count: 1500, unlocatedShare: 0, seed: 51)
        let shuffled = fixtures.stations()
        let sorted = shuffled.sorted { $0.id < $1.id }
        let fromShuffled = PriceIndex(stations: shuffled), fromSorted = PriceIndex(stations: sorted)
        var differences = 0, answered = 0
        for point in fixtures.queryPoints(500, near: shuffled, seed: 52) {
            let answer = fromShuffled.cheapest(fuel: .e10, at: point, radiusMiles: 5, limit: 3)
            if answer != fromSorted.cheapest(fuel: .e10, at: point, radiusMiles: 5, limit: 3) { differences += 1 }
            if !answer.isEmpty { answered += 1 }
        }
        #expect(differences == 0)
        #expect(answered > 200)
        #expect(sorted.allSatisfy { fromSorted.station(id: $0.id) == $0 })
    }
}
