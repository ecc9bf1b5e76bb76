import Testing
import FeedParsing
import Messages

struct AddressTests {
    private func address(_ raw: String) throws -> String {
        try FeedFixtures.parseOne(FeedFixtures.station(address: raw)).1.address
    }

    @Test(arguments: [
        ("\"104 BRADFORD STREET, BOLTON\"", "104 Bradford Street, Bolton"),
        ("\"CLAYTON ROAD, NEWCASTLE-UNDER-LYME, STAFFORDSHIRE, ST5 4AE\"",
         "Clayton Road, Newcastle-under-Lyme, Staffordshire, ST5 4AE"),
        ("\"A143/A146 ROUNDABOUT\"", "A143/A146 Roundabout"),
        ("\"ST. JOHN'S ROAD, 1ST FLOOR, MFG SITE\"", "St. John's Road, 1st Floor, MFG Site"),
        // An inward code that reads like an ordinal (8ND, 2ND) stays a postcode.
        ("\"58 BARNSLEY ROAD, SELBY, YO8 8ND\"", "58 Barnsley Road, Selby, YO8 8ND"),
        ("\"2ND AVENUE, LEEDS LS1 2ND, WEST YORKSHIRE\"", "2nd Avenue, Leeds LS1 2ND, West Yorkshire"),
    ])
    func address_whenAllCaps_isTitleCased(raw: String, expected: String) throws {
        #expect(try address(raw) == expected)
    }

    @Test func address_whenMixedCase_keepsItsCase() throws {
        #expect(try address("\"Reading Road, YATELEY\"") == "Reading Road, YATELEY")
    }

    @Test func address_withNoBreakAndRepeatedSpaces_isCollapsed() throws {
        let raw = "\"Camstone Service Station\\u00a016 Cambridge Rd,\\u00a0Whetstone, Leicester,Leicestershire \""
        #expect(try address(raw) == "Camstone Service Station 16 Cambridge Rd, Whetstone, Leicester, Leicestershire")
    }

    @Test func address_withTrailingFullStopOrComma_dropsIt() throws {
        #expect(try address("\"Anker, Weddington Road, Nuneaton.\"") == "Anker, Weddington Road, Nuneaton")
        #expect(try address("\"PRL Peregrine Sold site, PEREGINE, \"") == "PRL Peregrine Sold site, PEREGINE")
    }

    @Test func address_whenMissingOrNotText_isEmptyAndWarned() throws {
        let (feed, station) = try FeedFixtures.parseOne(FeedFixtures.station(address: "null"))
        #expect(station.address == "")
        #expect(feed.count(.missingAddress) == 1)
        #expect(station.name == "Asda")
    }

    @Test func address_whenVeryLong_isCutAndWarned() throws {
        let long = String(repeating: "Long Road ", count: 100)
        let (feed, station) = try FeedFixtures.parseOne(FeedFixtures.station(address: "\"\(long)\""))
        #expect(station.address.count == 200)
        #expect(feed.count(.textTruncated) == 1)
    }
}
