import FuelLookup
import Messages
import Testing

/// An index over several station arrays answers as one over their concatenation.
struct StationGroupsTests {
    @Test func positions_runThroughEveryGroupInOrder_skippingEmptyOnes() {
        let stations = StationFixtures(count: 40, seed: 61).stations()
        let groups = StationGroups([[], Array(stations[0..<10]), [], [], Array(stations[10..<35]), Array(stations[35...]), []])
        #expect(groups.count == 40)
        #expect(groups.map(\.id) == stations.map(\.id))
        #expect(StationGroups([]).isEmpty)
        #expect(StationGroups([[], []]).isEmpty)
    }

    @Test func anIndexOverGroups_answersAsTheConcatenation_withLaterGroupsWinningRepeatedIDs() {
        var stations = StationFixtures(count: 3000, seed: 62).stations()
        // Later copies of the first 100 stations, with other prices: the last record wins.
        let repeated = stations.prefix(100).map { station -> Station in
            var copy = station
            copy.prices = [.e10: Price(tenths: 1111)]
            return copy
        }
        stations += repeated
        let split = [Array(stations[0..<1200]), [], Array(stations[1200..<3000]), Array(stations[3000...])]
        let grouped = PriceIndex(stationGroups: StationGroups(split))
        let flat = PriceIndex(stations: stations)
        #expect(grouped.count == flat.count)
        for point in StationFixtures(count: 3000, seed: 62).queryPoints(400, near: stations, seed: 3) {
            #expect(grouped.cheapest(fuel: .e10, at: point, radiusMiles: 10, limit: 3)
                    == flat.cheapest(fuel: .e10, at: point, radiusMiles: 10, limit: 3))
            #expect(grouped.nearest(fuel: nil, at: point, radiusMiles: 10, limit: 3)
                    == flat.nearest(fuel: nil, at: point, radiusMiles: 10, limit: 3))
        }
        let repeatedID = repeated[0].id
        #expect(grouped.station(id: repeatedID)?.prices == [.e10: Price(tenths: 1111)])
    }
}
