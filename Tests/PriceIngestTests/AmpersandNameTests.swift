import FeedParsing
import Foundation
import Messages
import Testing

/// Brands, addresses and station names with `&`: initials such as M&S stay upper-case.
/// (FeedParsing's own rules, tested through its public parser.)
struct AmpersandNameTests {
    private func station(brand: String, address: String = "Doncaster Road, Selby") throws -> Station {
        let feed = TestFeeds.document(lastUpdated: "09/10/2025 11:00:00",
                                      sites: [TestFeeds.Site(id: "s1", brand: brand, address: address)])
        let fetched = Date(timeIntervalSince1970: 1_760_011_200)
        return try #require(try FeedParser().parse(feed, retailer: "test", fetchedAt: fetched).stations.first)
    }

    @Test(arguments: ["M&S", "m&s", "M & S", "Marks & Spencer", "MARKS AND SPENCER", "marks and spencer"])
    func brand_whenMarksAndSpencer_isMAndS(raw: String) throws {
        #expect(try station(brand: raw).brand == "M&S")
    }

    @Test(arguments: [("P&O FUELS", "P&O Fuels"), ("B&Q", "B&Q"), ("AT&T GARAGE", "AT&T Garage"),
                      ("H & M MOTORS", "H & M Motors"), ("SMITH&SONS GARAGE", "Smith&Sons Garage"),
                      ("Smith&sons", "Smith&sons")])
    func brand_whenUnknownWithAmpersand_keepsInitialsUpperCase(raw: String, expected: String) throws {
        #expect(try station(brand: raw).brand == expected)
    }

    @Test func address_whenAllCapitals_keepsInitialsJoinedByAmpersand() throws {
        let address = try station(brand: "Shell", address: "M&S SIMPLY FOOD, B&Q RETAIL PARK, LEEDS").address
        #expect(address == "M&S Simply Food, B&Q Retail Park, Leeds")
    }

    @Test(arguments: [
        ("M&S", "HIGH STREET, SELBY", "M&S Selby"),
        ("M&S", "ROTHERHAM ROAD, M&S PARKGATE", "M&S Parkgate"),
        ("Marks & Spencer", "Jockey Lane, M&S Monks Cross", "M&S Monks Cross"),
        ("SHELL", "UNIT 1, P&O FERRY TERMINAL", "Shell P&O Ferry Terminal"),
    ])
    func name_withAmpersandBrandOrPlace_keepsInitialsUpperCase(brand: String, address: String, expected: String)
        throws
    {
        #expect(try station(brand: brand, address: address).name == expected)
    }
}
