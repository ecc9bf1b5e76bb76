import Testing
import Messages
import SampleFeeds

struct DistributionTests {
    private func count(near townName: String, withinMiles miles: Double,
                       in stations: [ParsedStation]) throws -> Int {
        let town = try #require(UKTowns.named(townName))
        let centre = Coordinate(lat: town.latitude, lng: town.longitude)
        return stations.compactMap(\.numericCoordinate).filter {
            Coordinate(lat: $0.latitude, lng: $0.longitude).distanceMiles(to: centre) <= miles
        }.count
    }

    @Test func stations_whenLargeCount_followPopulation() throws {
        let stations = FeedFixtures.largeStations
        let london = try count(near: "London", withinMiles: 20, in: stations)
        let inverness = try count(near: "Inverness", withinMiles: 8, in: stations)
        let leeds = try count(near: "Leeds", withinMiles: 8, in: stations)
        #expect(inverness > 0)
        #expect(london > 20 * inverness)
        #expect(leeds > 3 * inverness)
    }

    @Test func stations_whenLargeCount_reachEveryNation() throws {
        let stations = FeedFixtures.largeStations
        for town in ["Cardiff", "Glasgow", "Edinburgh", "Belfast", "Plymouth", "Norwich", "Selby", "Doncaster"] {
            #expect(try count(near: town, withinMiles: 6, in: stations) > 0, "\(town)")
        }
    }

    @Test func stations_whenLargeCount_includeRuralAndMotorwaySites() throws {
        let stations = FeedFixtures.largeStations
        let towns = UKTowns.all.map { Coordinate(lat: $0.latitude, lng: $0.longitude) }
        let sample = stations.compactMap(\.numericCoordinate).prefix(5_000)
        let remote = sample.filter { point in
            let here = Coordinate(lat: point.latitude, lng: point.longitude)
            return towns.allSatisfy { here.distanceMiles(to: $0) > 5 }
        }
        #expect(remote.count > 50 && remote.count < 1_500)
        #expect(stations.filter { $0.retailer == "moto" }.count >= 500)
    }

    @Test func towns_whenListed_coverTheUKInsideTheBox() {
        let towns = UKTowns.all
        #expect(towns.count >= 150)
        #expect(Set(towns.map(\.name)).count == towns.count)
        for name in ["Selby", "Doncaster", "Leeds", "London", "Manchester", "Birmingham", "Glasgow", "Edinburgh",
                     "Cardiff", "Belfast", "Bristol", "Norwich", "Inverness", "Plymouth"] {
            #expect(UKTowns.named(name) != nil, "\(name)")
        }
        for nation in UKNation.allCases {
            #expect(towns.filter { $0.nation == nation }.count >= 10, "\(nation)")
        }
        #expect(towns.allSatisfy { UKBounds.contains(latitude: $0.latitude, longitude: $0.longitude) })
        #expect(towns.allSatisfy { $0.population > 0 && !$0.postcodeAreas.isEmpty })
    }
}
