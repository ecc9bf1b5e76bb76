import Testing
import SampleFeeds

struct StationCountTests {
    @Test(arguments: [0, 1, 7, 13, 100, 3_000, 25_000])
    func feeds_whenStationsRequested_holdExactlyThatMany(count: Int) throws {
        let generator = try SampleFeedGenerator(options: .scale(stations: count, seed: 21))
        let feeds = generator.feeds()
        #expect(feeds.reduce(0) { $0 + $1.stationCount } == count)
        #expect(try FeedReader.stations(feeds).count == count)
        #expect(generator.plan.reduce(0) { $0 + $1.stationCount } == count)
        #expect(feeds.allSatisfy { $0.stationCount > 0 })
    }

    @Test func feeds_whenFewThousandStations_useTheRealRetailers() throws {
        let retailers = Set(FeedFixtures.demoClean.map(\.retailer))
        #expect(retailers == ["mfg", "asda", "shell", "tesco", "morrisons", "sainsburys", "bp", "rontec",
                              "esso-tesco-alliance", "sgn", "ascona-group", "moto", "jet"])
    }

    @Test func feeds_when100kStations_noFeedExceedsTheCapAndGroupsTakeTheRest() throws {
        let feeds = FeedFixtures.large
        #expect(feeds.reduce(0) { $0 + $1.stationCount } == 100_000)
        #expect(FeedFixtures.largeStations.count == 100_000)
        #expect(feeds.allSatisfy { $0.stationCount <= 10_000 })
        #expect(feeds.contains { $0.retailer == "group-001" })
        #expect(Set(feeds.map(\.retailer)).count == feeds.count)
        let biggest = try #require(feeds.max { $0.json.count < $1.json.count })
        #expect(biggest.json.count < 4_000_000)
    }

    @Test func feeds_whenCustomCap_respectIt() throws {
        let feeds = try SampleFeedGenerator(options: .init(stations: 3_000, maxStationsPerFeed: 250)).feeds()
        #expect(feeds.allSatisfy { $0.stationCount <= 250 })
        #expect(feeds.reduce(0) { $0 + $1.stationCount } == 3_000)
    }

    @Test func stations_whenModelled_matchTheFeedCountsWithUniqueIds() throws {
        let generator = try SampleFeedGenerator(options: .demo(stations: 2_000, seed: 5))
        let stations = generator.stations()
        #expect(stations.count == 2_000)
        #expect(Set(stations.map(\.id)).count == 2_000)
    }
}
