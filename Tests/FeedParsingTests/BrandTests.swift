import Testing
import FeedParsing
import Messages

struct BrandTests {
    private func brand(_ raw: String?, retailer: String = "asda") throws -> (ParsedFeed, Station) {
        try FeedFixtures.parseOne(FeedFixtures.station(brand: raw), retailer: retailer)
    }

    @Test(arguments: [
        ("ESSO", "Esso"), ("Esso ", "Esso"), ("esso", "Esso"), ("BP", "BP"), ("Bp", "BP"), ("TESCO", "Tesco"),
        ("SHELL", "Shell"), ("TEXACO", "Texaco"), ("JET ", "JET"), ("Jet", "JET"), ("CO-OP", "Co-op"),
        ("Coop", "Co-op"), ("ASDA", "Asda"), ("Asda  Express", "Asda Express"), ("Morrisons", "Morrisons"),
        ("MURCO", "Murco"), ("Valero", "Valero"), ("Essar", "Essar"), ("SAINSBURY'S", "Sainsbury's"),
        ("AppleGreen", "Applegreen"), ("\\u00a0Shell\\t", "Shell"),
    ])
    func brand_whenKnown_mapsToCanonicalForm(raw: String, expected: String) throws {
        let (feed, station) = try brand("\"\(raw)\"")
        #expect(station.brand == expected)
        #expect(feed.count(.missingBrand) == 0)
    }

    @Test(arguments: [("GOLDEN FUELS", "Golden Fuels"), ("harvest  energy", "Harvest Energy"),
                      ("McColl's Fuel", "McColl's Fuel"), ("BESTWAY-PETROL", "Bestway-Petrol")])
    func brand_whenUnknown_isTitleCasedWhenSingleCase(raw: String, expected: String) throws {
        let (_, station) = try brand("\"\(raw)\"")
        #expect(station.brand == expected)
    }

    @Test(arguments: [nil, "null", "\"\"", "\"   \"", "42"])
    func brand_whenMissing_usesRetailerDisplayNameAndWarns(raw: String?) throws {
        let (feed, station) = try brand(raw, retailer: "mfg")
        #expect(station.brand == "MFG")
        #expect(feed.count(.missingBrand) == 1)
        #expect(!station.name.isEmpty)
    }

    @Test(arguments: [("esso-tesco-alliance", "Esso Tesco Alliance"), ("karan-retail", "Karan Retail"),
                      ("jet-retail-uk", "JET Retail UK"), ("sgn", "SGN"), ("asda", "Asda")])
    func brand_whenMissing_retailerDisplayNameIsReadable(retailer: String, expected: String) throws {
        let (_, station) = try brand("null", retailer: retailer)
        #expect(station.brand == expected)
    }
}
