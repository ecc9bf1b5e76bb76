import Foundation
import FuelLookup
import Messages
import Testing

struct PriceIndexEdgeCaseTests {
    static let leeds = Coordinate(lat: 53.7997, lng: -1.5492)

    @Test func lookups_whenIndexIsEmpty_returnNothing() {
        let index = PriceIndex(stations: [])
        #expect(index.count == 0)
        #expect(index.cheapest(fuel: .e10, at: Self.leeds, radiusMiles: 100).isEmpty)
        #expect(index.nearest(fuel: nil, at: Self.leeds, radiusMiles: 100).isEmpty)
        #expect(index.station(id: "asda/1") == nil)
    }

    @Test func lookups_whenStationIsExactlyAtTheQueryPoint_returnItAtDistanceZero() throws {
        let index = PriceIndex(stations: [TestStations.make(id: "asda/1", location: Self.leeds)])
        let cheapest = try #require(index.cheapest(fuel: .e10, at: Self.leeds, radiusMiles: 0).first)
        #expect(cheapest.distanceMiles == 0)
        #expect(index.nearest(fuel: nil, at: Self.leeds, radiusMiles: 0).map(\.station.id) == ["asda/1"])
    }

    @Test func lookups_whenRadiusIsTiny_returnOnlyStationsWithinIt() {
        let near = Coordinate(lat: Self.leeds.lat + 0.00001, lng: Self.leeds.lng)  // about 0.0007 miles
        let index = PriceIndex(stations: [TestStations.make(id: "asda/1", location: near),
                                          TestStations.make(id: "asda/2", location: Self.leeds)])
        #expect(index.nearest(fuel: nil, at: Self.leeds, radiusMiles: 0.0001, limit: 5).map(\.station.id)
            == ["asda/2"])
        #expect(index.nearest(fuel: nil, at: Self.leeds, radiusMiles: 0.001, limit: 5).map(\.station.id)
            == ["asda/2", "asda/1"])
    }

    @Test func lookups_whenNoStationIsInRange_returnNothing() {
        let york = Coordinate(lat: 53.959, lng: -1.0815)  // about 22 miles from Leeds
        let index = PriceIndex(stations: [TestStations.make(id: "asda/1", location: york)])
        #expect(index.cheapest(fuel: .e10, at: Self.leeds, radiusMiles: 5).isEmpty)
        #expect(index.nearest(fuel: nil, at: Self.leeds, radiusMiles: 5).isEmpty)
        #expect(index.nearest(fuel: nil, at: Self.leeds, radiusMiles: 30).count == 1)
    }

    @Test func lookups_neverReturnStationsWithoutLocation() {
        let stations = StationFixtures(count: 1500, unlocatedShare: 0.3, seed: 41).stations()
        let index = PriceIndex(stations: stations)
        let located = stations.filter { $0.location != nil }
        let everything = index.nearest(fuel: nil, at: Self.leeds, radiusMiles: 13_000, limit: 10_000)
        #expect(index.count == located.count)
        #expect(everything.count == located.count)
        #expect(everything.allSatisfy { $0.station.location != nil })
        let unlocated = stations.filter { $0.location == nil }
        #expect(!unlocated.isEmpty)
        #expect(unlocated.allSatisfy { index.station(id: $0.id) == nil })
    }

    @Test func lookups_whenStationLocationIsNotOnEarth_ignoreIt() {
        let bad = TestStations.make(id: "asda/1", location: Coordinate(lat: .nan, lng: 0))
        let index = PriceIndex(stations: [bad, TestStations.make(id: "asda/2", location: Self.leeds)])
        #expect(index.count == 1)
        #expect(index.nearest(fuel: nil, at: Self.leeds, radiusMiles: 13_000, limit: 5).map(\.station.id)
            == ["asda/2"])
    }

    @Test func lookups_whenInputIsInvalid_returnNothing() {
        let index = PriceIndex(stations: [TestStations.make(id: "asda/1", location: Self.leeds)])
        #expect(index.cheapest(fuel: .e10, at: Self.leeds, radiusMiles: -1).isEmpty)
        #expect(index.cheapest(fuel: .e10, at: Self.leeds, radiusMiles: .nan).isEmpty)
        #expect(index.cheapest(fuel: .e10, at: Self.leeds, radiusMiles: 5, limit: 0).isEmpty)
        #expect(index.nearest(fuel: nil, at: Coordinate(lat: 91, lng: 0), radiusMiles: 5).isEmpty)
        #expect(index.nearest(fuel: nil, at: Self.leeds, radiusMiles: .infinity).count == 1)
    }

    @Test func station_findsEveryIndexedStationByID() {
        let stations = StationFixtures(count: 1000, seed: 42).stations()
        let index = PriceIndex(stations: stations)
        #expect(stations.filter { $0.location != nil }.allSatisfy { index.station(id: $0.id) == $0 })
        #expect(index.station(id: "nobody/0") == nil)
    }

    @Test func init_whenIDsRepeat_keepsTheLastRecord() {
        let first = TestStations.make(id: "asda/1", location: Self.leeds, prices: [.e10: Price(tenths: 1400)])
        let second = TestStations.make(id: "asda/1", location: Self.leeds, prices: [.e10: Price(tenths: 1350)])
        let index = PriceIndex(stations: [first, second])
        #expect(index.count == 1)
        #expect(index.station(id: "asda/1") == second)
        #expect(index.cheapest(fuel: .e10, at: Self.leeds, radiusMiles: 1, limit: 5).map(\.price)
            == [Price(tenths: 1350)])
    }

    @Test func indexByteCount_staysCompact() {
        let stations = StationFixtures(count: 20_000, unlocatedShare: 0, seed: 43).stations()
        let index = PriceIndex(stations: stations)
        #expect(index.indexByteCount > 0)
        #expect(index.indexByteCount / index.count < 200)
    }
}
