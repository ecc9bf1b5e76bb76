import Testing
import FeedParsing
import Messages

struct PostcodeTests {
    private func postcode(_ raw: String) throws -> (ParsedFeed, String) {
        let (feed, station) = try FeedFixtures.parseOne(FeedFixtures.station(postcode: raw))
        return (feed, station.postcode)
    }

    @Test(arguments: [
        ("\"GL542EP\"", "GL54 2EP"), ("\"TS27 4HS \"", "TS27 4HS"), ("\"hr9 6dw\"", "HR9 6DW"),
        ("\"Wa6 7HN\"", "WA6 7HN"), ("\"  sw1a  1aa\"", "SW1A 1AA"), ("\"E4 8SN\"", "E4 8SN"),
        ("\"GX11 1AA\"", "GX11 1AA"), ("\"M1 1AE\"", "M1 1AE"), ("\"W1A0AX\"", "W1A 0AX"),
        ("\"N1\\u00a00SL\"", "N1 0SL"),
    ])
    func postcode_whenValid_isNormalisedWithoutWarning(raw: String, expected: String) throws {
        let (feed, postcode) = try postcode(raw)
        #expect(postcode == expected)
        #expect(feed.count(.invalidPostcode) == 0)
    }

    @Test(arguments: [
        ("\"PEREGINE\"", "PEREGINE"), ("\"S019 9AQ\"", "S019 9AQ"), ("\"LL17 OLY\"", "LL17 OLY"),
        ("\"\"", ""), ("\"12345\"", "12345"), ("\"cv3  4ar x\"", "CV3 4AR X"),
    ])
    func postcode_whenInvalid_isKeptUpperCasedAndWarned(raw: String, expected: String) throws {
        let (feed, postcode) = try postcode(raw)
        #expect(postcode == expected)
        #expect(feed.count(.invalidPostcode) == 1)
        #expect(feed.acceptedCount == 1)
    }

    @Test func postcode_whenMissing_isEmptyAndWarned() throws {
        let (feed, station) = try FeedFixtures.parseOne(FeedFixtures.station(postcode: nil))
        #expect(station.postcode == "")
        #expect(feed.count(.invalidPostcode) == 1)
    }
}
