import Testing
import FeedParsing

struct RetailerNameTests {
    @Test(arguments: [
        ("Asda", "asda"), ("Esso Tesco Alliance", "esso-tesco-alliance"), ("  MFG  ", "mfg"),
        ("Sainsbury's", "sainsburys"), ("jet_retail.uk", "jet-retail-uk"), ("Motor  Fuel -- Group", "motor-fuel-group"),
        ("karan-retail", "karan-retail"), ("BP2", "bp2"),
    ])
    func slug_whenNameValid_givesLowerCaseSlug(name: String, expected: String) throws {
        #expect(try RetailerName.slug(name) == expected)
    }

    @Test(arguments: ["", "   ", "---", "Tesco & Esso", "Müller", "a/../b\u{0}", String(repeating: "a", count: 41)])
    func slug_whenNameInvalid_throwsBadRetailerName(name: String) {
        #expect(throws: FeedError.badRetailerName(name)) { try RetailerName.slug(name) }
    }

    @Test func slug_whenExactlyFortyCharacters_isAccepted() throws {
        let name = String(repeating: "a", count: 40)
        #expect(try RetailerName.slug(name) == name)
    }

    @Test func parse_usesTheSlugInFeedAndStationIds() throws {
        let feed = try FeedFixtures.parse(FeedFixtures.feed([FeedFixtures.station()]), retailer: "Esso Tesco Alliance")
        #expect(feed.retailer == "esso-tesco-alliance")
        #expect(feed.stations.first?.retailer == "esso-tesco-alliance")
        #expect(feed.stations.first?.id == "esso-tesco-alliance/gcqfn1wd5k4j")
    }
}
