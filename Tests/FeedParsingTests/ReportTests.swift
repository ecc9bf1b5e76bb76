import Foundation
import Testing
import FeedParsing
import Messages

struct ReportTests {
    @Test func summary_listsKeptLocatedRefusedAndWarningsMostFrequentFirst() throws {
        let stations = [
            FeedFixtures.station(siteId: "\"a\"", prices: #"{"E10": 0, "B7": 0}"#),
            FeedFixtures.station(siteId: "\"b\"", location: #"{"latitude": 0, "longitude": 0}"#),
            FeedFixtures.station(siteId: "\"\""),
        ]
        let feed = try FeedFixtures.parse(FeedFixtures.feed(stations))
        #expect(feed.summary == "asda: 2 kept (1 located), 1 refused (missing_site_id 1); "
                + "warnings: sentinel_price 2, bad_coordinates 1")
        #expect(feed.acceptedCount == 2)
        #expect(feed.locatedCount == 1)
        #expect(feed.refusedCount == 1)
    }

    @Test func summary_whenNothingOdd_saysNoWarnings() throws {
        let feed = try FeedFixtures.parse(FeedFixtures.feed([FeedFixtures.station()]))
        #expect(feed.summary == "asda: 1 kept (1 located), 0 refused; no warnings")
    }

    @Test func examples_whenManyOfOneKind_keepsOnlyTheFirstThree() throws {
        let stations = (1...10).map { FeedFixtures.station(siteId: "\"s\($0)\"", prices: #"{"E10": 999.9}"#) }
        let feed = try FeedFixtures.parse(FeedFixtures.feed(stations))
        #expect(feed.count(.sentinelPrice) == 10)
        #expect(feed.examples(.sentinelPrice) == [
            "asda/s1: E10 999.9 treated as no price",
            "asda/s2: E10 999.9 treated as no price",
            "asda/s3: E10 999.9 treated as no price",
        ])
    }

    @Test func examples_whenInputTextIsHuge_areClipped() throws {
        let huge = String(repeating: "Z", count: 5_000)
        let feed = try FeedFixtures.parse(FeedFixtures.feed([FeedFixtures.station(postcode: "\"\(huge)\"")]))
        let example = try #require(feed.examples(.invalidPostcode).first)
        #expect(example.count < 120)
    }

    @Test func parsedFeed_roundTripsThroughJSON() throws {
        let feed = try FeedFixtures.parse(FeedFixtures.feed([FeedFixtures.station()]))
        let data = try JSONCoding.encode(feed)
        #expect(try JSONCoding.decode(ParsedFeed.self, from: data) == feed)
    }
}
