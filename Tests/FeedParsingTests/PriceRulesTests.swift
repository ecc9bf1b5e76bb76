import Testing
import FeedParsing
import Messages

struct PriceRulesTests {
    private func prices(_ json: String) throws -> (ParsedFeed, FuelPrices) {
        let (feed, station) = try FeedFixtures.parseOne(FeedFixtures.station(prices: json))
        return (feed, station.prices)
    }

    @Test(arguments: ["0", "-5", "10", "14", "79.94", "300", "999.9", "1e9"])
    func price_whenSentinel_isAbsentAndWarned(value: String) throws {
        let (feed, prices) = try prices("{\"E10\": \(value), \"B7\": 140.9}")
        #expect(prices[.e10] == nil)
        #expect(prices[.b7] == Price(tenths: 1409))
        #expect(feed.count(.sentinelPrice) == 1)
    }

    @Test func price_atTheEdgesOfTheRange_isKept() throws {
        let (feed, prices) = try prices(#"{"E10": 80, "B7": 299.9, "E5": 79.96}"#)
        #expect(prices == [.e10: Price(tenths: 800), .b7: Price(tenths: 2999), .e5: Price(tenths: 800)])
        #expect(feed.count(.sentinelPrice) == 0)
    }

    @Test func price_withFloatNoise_isRoundedToTenthOfPenny() throws {
        let (_, prices) = try prices(#"{"E10": 151.89999999999998, "B7": 150}"#)
        #expect(prices[.e10] == Price(tenths: 1519))
        #expect(prices[.b7] == Price(tenths: 1500))
    }

    @Test func price_asNumericString_isAccepted() throws {
        let (feed, prices) = try prices(#"{"E10": "145.9", "B7": " 150 "}"#)
        #expect(prices[.e10] == Price(tenths: 1459))
        #expect(prices[.b7] == Price(tenths: 1500))
        #expect(feed.warnings.isEmpty)
    }

    @Test(arguments: ["\"N/A\"", "\"\"", "true", "[]", "{}", "\"nan\"", "\"inf\""])
    func price_whenNotANumber_isAbsentAndWarnedInvalid(value: String) throws {
        let (feed, prices) = try prices("{\"E10\": \(value)}")
        #expect(prices.isEmpty)
        #expect(feed.count(.invalidPrice) == 1)
    }

    @Test func price_whenNull_isAbsentWithoutWarning() throws {
        let (feed, prices) = try prices(#"{"E10": null, "B7": 140.9}"#)
        #expect(prices == [.b7: Price(tenths: 1409)])
        #expect(feed.warnings.isEmpty)
    }

    @Test func prices_whenEmptyObject_keepsStationWithNoPrices() throws {
        let (feed, station) = try FeedFixtures.parseOne(FeedFixtures.station(prices: "{}"))
        #expect(station.prices.isEmpty)
        #expect(feed.warnings.isEmpty)
    }

    @Test(arguments: [nil, "null", "[]", "\"cheap\""])
    func prices_whenMissingOrNotAnObject_keepsStationAndWarns(value: String?) throws {
        let (feed, station) = try FeedFixtures.parseOne(FeedFixtures.station(prices: value))
        #expect(station.prices.isEmpty)
        #expect(feed.count(.missingPrices) == 1)
    }

    @Test func prices_whenUnknownFuelKey_ignoresItWithWarning() throws {
        let (feed, prices) = try prices(#"{"LPG": 90.9, "HVO": 180.0, "E10": 140.9}"#)
        #expect(prices == [.e10: Price(tenths: 1409)])
        #expect(feed.count(.unknownFuel) == 2)
    }

    @Test func prices_whenFuelKeyInOtherCase_isRecognised() throws {
        let (feed, prices) = try prices(#"{"e10": 140.9, "sdv": 160.9, " B7 ": 150.9}"#)
        #expect(prices == [.e10: Price(tenths: 1409), .sdv: Price(tenths: 1609), .b7: Price(tenths: 1509)])
        #expect(feed.warnings.isEmpty)
    }

    @Test func prices_whenE10DearerThanE5_warnsInversion() throws {
        let (feed, prices) = try prices(#"{"E10": 130.9, "E5": 129.9}"#)
        #expect(prices.count == 2)
        #expect(feed.count(.priceInversion) == 1)
        #expect(feed.examples(.priceInversion) == ["asda/gcqfn1wd5k4j: E10 130.9 > E5 129.9"])
    }

    @Test func prices_whenB7DearerThanSDV_warnsInversion() throws {
        let (feed, _) = try prices(#"{"B7": 177.9, "SDV": 159.9}"#)
        #expect(feed.count(.priceInversion) == 1)
    }

    @Test func prices_whenGradesInOrderOrEqual_doNotWarn() throws {
        let (feed, _) = try prices(#"{"E10": 130.9, "E5": 130.9, "B7": 140.9, "SDV": 160.9}"#)
        #expect(feed.count(.priceInversion) == 0)
    }

    @Test func prices_whenMoreThan35pFromFeedMedian_warnsOutlier() throws {
        let e10 = [140.9, 141.9, 142.9, 139.9, 177.0, 176.8]
        let stations = e10.enumerated().map { index, price in
            FeedFixtures.station(siteId: "\"s\(index)\"", prices: "{\"E10\": \(price)}")
        }
        let feed = try FeedFixtures.parse(FeedFixtures.feed(stations))
        // Median (lower middle) is 141.9: 177.0 is 35.1p above, 176.8 is 34.9p above.
        #expect(feed.count(.priceOutlier) == 1)
        #expect(feed.examples(.priceOutlier) == ["asda/s4: E10 177.0 is 35.1p from the feed median 141.9"])
        #expect(feed.stations[4].prices[.e10] == Price(tenths: 1770))
    }

    @Test func prices_whenFewerThanThreeForAFuel_noMedianIsUsed() throws {
        let stations = [FeedFixtures.station(siteId: "\"a\"", prices: #"{"E10": 100.0}"#),
                        FeedFixtures.station(siteId: "\"b\"", prices: #"{"E10": 200.0}"#)]
        let feed = try FeedFixtures.parse(FeedFixtures.feed(stations))
        #expect(feed.count(.priceOutlier) == 0)
    }
}

struct LenientNumberTests {
    @Test func price_whenNumberTooLargeForADouble_isInvalidNotACrash() throws {
        let (feed, station) = try FeedFixtures.parseOne(FeedFixtures.station(prices: #"{"E10": 1e400, "B7": 140.9}"#))
        #expect(station.prices == [.b7: Price(tenths: 1409)])
        #expect(feed.count(.invalidPrice) == 1)
        #expect(feed.examples(.invalidPrice) == ["asda/gcqfn1wd5k4j: E10 is an out-of-range number, not a price"])
    }

    @Test func location_whenNumberTooLargeForADouble_isBad() throws {
        let (feed, station) = try FeedFixtures.parseOne(
            FeedFixtures.station(location: #"{"latitude": 1e400, "longitude": -1.48}"#))
        #expect(station.location == nil)
        #expect(station.reportedLatitude == nil)
        #expect(feed.count(.badCoordinates) == 1)
    }
}
