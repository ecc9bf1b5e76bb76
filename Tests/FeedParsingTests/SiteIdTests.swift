import Testing
import FeedParsing
import Messages

struct SiteIdTests {
    @Test func siteId_withSurroundingSpaces_isTrimmed() throws {
        let raw = FeedFixtures.station(siteId: "\"  gcny1efvebv0 \\n\"")
        let (_, station) = try FeedFixtures.parseOne(raw, retailer: "sgn")
        #expect(station.siteId == "gcny1efvebv0")
        #expect(station.id == "sgn/gcny1efvebv0")
    }

    @Test(arguments: [nil, "null", "\"\"", "\"   \""])
    func record_whenSiteIdMissingOrEmpty_isRefused(siteId: String?) throws {
        let feed = try FeedFixtures.parse(FeedFixtures.feed([FeedFixtures.station(siteId: siteId),
                                                             FeedFixtures.station(siteId: "\"ok\"")]))
        #expect(feed.stations.map(\.siteId) == ["ok"])
        #expect(feed.count(RecordRefusal.missingSiteId) == 1)
    }

    @Test(arguments: ["123", "true", "{}", "[\"a\"]"])
    func record_whenSiteIdNotAString_isRefused(siteId: String) throws {
        let feed = try FeedFixtures.parse(FeedFixtures.feed([FeedFixtures.station(siteId: siteId)]))
        #expect(feed.stations.isEmpty)
        #expect(feed.count(RecordRefusal.siteIdNotString) == 1)
    }

    @Test(arguments: ["\"\(String(repeating: "x", count: 65))\"", "\"ab\\u0007cd\""])
    func record_whenSiteIdTooLongOrHasControlCharacters_isRefused(siteId: String) throws {
        let feed = try FeedFixtures.parse(FeedFixtures.feed([FeedFixtures.station(siteId: siteId)]))
        #expect(feed.stations.isEmpty)
        #expect(feed.count(RecordRefusal.invalidSiteId) == 1)
    }

    @Test func duplicates_areNeverMergedAndGetNumberedIds() throws {
        let stations = [
            FeedFixtures.station(siteId: "\"gcr3m8rsmk3h\"", address: "\"A45 Eastbound\""),
            FeedFixtures.station(siteId: "\"other\""),
            FeedFixtures.station(siteId: "\"gcr3m8rsmk3h\"", address: "\"A45 Westbound\""),
            FeedFixtures.station(siteId: "\" gcr3m8rsmk3h\"", address: "\"A45 Services\""),
        ]
        let feed = try FeedFixtures.parse(FeedFixtures.feed(stations))
        #expect(feed.stations.map(\.id) == ["asda/gcr3m8rsmk3h", "asda/other", "asda/gcr3m8rsmk3h#2",
                                             "asda/gcr3m8rsmk3h#3"])
        #expect(feed.stations.map(\.siteId) == ["gcr3m8rsmk3h", "other", "gcr3m8rsmk3h", "gcr3m8rsmk3h"])
        #expect(feed.stations.map(\.address) == ["A45 Eastbound", "Abbey Park - North London Road, Coventry",
                                                  "A45 Westbound", "A45 Services"])
        #expect(feed.count(.duplicateSiteId) == 2)
        #expect(feed.examples(.duplicateSiteId).first
                == "asda/gcr3m8rsmk3h#2: site id gcr3m8rsmk3h repeats stations[0] (kept apart)")
    }

    @Test func duplicates_whenNumberedIdAlreadyTaken_skipToAFreeOne() throws {
        let stations = ["\"x\"", "\"x#2\"", "\"x\""].map { FeedFixtures.station(siteId: $0) }
        let feed = try FeedFixtures.parse(FeedFixtures.feed(stations))
        #expect(feed.stations.map(\.id) == ["asda/x", "asda/x#2", "asda/x#3"])
        #expect(Set(feed.stations.map(\.id)).count == 3)
    }
}
