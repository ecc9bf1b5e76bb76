import Testing
@testable import FeedParsing
import Messages

struct CoordinateTests {
    private func parse(location: String?, siteId: String = "\"gcqfn1wd5k4j\"") throws -> (ParsedFeed, Station) {
        try FeedFixtures.parseOne(FeedFixtures.station(siteId: siteId, location: location))
    }

    @Test func location_whenInsideUKBox_isKept() throws {
        let (feed, station) = try parse(location: #"{"latitude": 52.3914, "longitude": -1.4868}"#)
        #expect(station.location == Coordinate(lat: 52.3914, lng: -1.4868))
        #expect(station.reportedLatitude == 52.3914)
        #expect(station.reportedLongitude == -1.4868)
        #expect(feed.warnings.isEmpty)
    }

    @Test func location_whenKeysReversedAndStrings_isParsedByName() throws {
        let (_, station) = try parse(location: #"{"longitude": "-1.4868", "latitude": "52.3914"}"#)
        #expect(station.location == Coordinate(lat: 52.3914, lng: -1.4868))
    }

    @Test func location_whenZeroZero_isNilAndWarnedBad() throws {
        let (feed, station) = try parse(location: #"{"latitude": 0, "longitude": 0}"#, siteId: "\"7zzzzzzzzzzz\"")
        #expect(station.location == nil)
        #expect(station.reportedLatitude == 0)
        #expect(station.reportedLongitude == 0)
        #expect(feed.count(.badCoordinates) == 1)
        #expect(feed.examples(.badCoordinates) == ["asda/7zzzzzzzzzzz: coordinates are 0,0"])
    }

    @Test(arguments: [nil, "null", "[]", "\"51.5,-0.1\"", #"{"latitude": 52.39}"#,
                      #"{"latitude": "north", "longitude": -1.48}"#, #"{"latitude": true, "longitude": -1.48}"#])
    func location_whenMissingOrNotNumeric_isNilAndWarnedBad(location: String?) throws {
        let (feed, station) = try parse(location: location)
        #expect(station.location == nil)
        #expect(feed.count(.badCoordinates) == 1)
        #expect(feed.acceptedCount == 1)
    }

    @Test func location_whenSwapped_isNilAndWarnedSwapped() throws {
        let (feed, station) = try parse(location: #"{"latitude": -1.721881, "longitude": 51.414963}"#,
                                        siteId: "\"mpsw1yx1r6p5\"")
        #expect(station.location == nil)
        #expect(station.reportedLatitude == -1.721881)
        #expect(station.reportedLongitude == 51.414963)
        #expect(feed.count(.swappedCoordinates) == 1)
        #expect(feed.count(.outsideUK) == 0)
    }

    @Test func location_whenOutsideUKEitherWay_isNilAndWarnedOutside() throws {
        let (feed, station) = try parse(location: #"{"latitude": "36.14498138", "longitude": "-5.360020161"}"#)
        #expect(station.location == nil)
        #expect(station.reportedLatitude == 36.14498138)
        #expect(feed.count(.outsideUK) == 1)
        #expect(feed.count(.swappedCoordinates) == 0)
    }

    @Test(arguments: [(49.8, -8.7), (61.0, 1.9), (55.0, 0.0)])
    func location_onTheBoxEdgesOrGreenwich_isKept(lat: Double, lng: Double) throws {
        let (_, station) = try parse(location: "{\"latitude\": \(lat), \"longitude\": \(lng)}", siteId: "\"site\"")
        #expect(station.location == Coordinate(lat: lat, lng: lng))
    }

    @Test func geohash_whenSiteIdFarFromCoordinates_warnsButKeepsLocation() throws {
        // gcybpmfsw090 (an Ascona site id) decodes near Sunderland; these coordinates are near Marlborough.
        let (feed, station) = try parse(location: #"{"latitude": 51.42, "longitude": -1.73}"#,
                                        siteId: "\"gcybpmfsw090\"")
        #expect(station.location == Coordinate(lat: 51.42, lng: -1.73))
        #expect(feed.count(.geohashMismatch) == 1)
    }

    /// Ascona's SR3 3ND: its site id is in Sunderland, its coordinates (the longitude wrong) in
    /// Galloway, 198 km from the SR area. Directions led there (QA); the site id's position is used.
    @Test func geohash_whenThePostcodeSidesWithTheSiteId_placesTheStationThere() throws {
        let (feed, station) = try FeedFixtures.parseOne(FeedFixtures.station(
            siteId: "\"gcybpmfsw090\"", postcode: "\"SR3 3ND\"",
            location: #"{"latitude": 54.876111, "longitude": -4.470685}"#))
        let sunderland = try #require(Geohash.decode("gcybpmfsw090"))
        #expect(station.location == sunderland)
        #expect(station.reportedLatitude == 54.876111 && station.reportedLongitude == -4.470685)
        #expect(feed.count(.geohashMismatch) == 1)
        #expect(feed.examples(.geohashMismatch).first?.contains("the site id's position is used") == true,
                "\(feed.examples(.geohashMismatch))")
    }

    /// Karan's shuffled site ids: the coordinates agree with the postcode (DL), the site id (near
    /// Cambridge) does not, and an unknown postcode settles nothing: the coordinates stay.
    @Test(arguments: ["\"DL10 6NT\"", "\"PEREGINE\"", "null"])
    func geohash_whenThePostcodeDoesNotSideWithTheSiteId_keepsTheCoordinates(postcode: String) throws {
        let (feed, station) = try FeedFixtures.parseOne(FeedFixtures.station(
            siteId: "\"u120fwxrh1q2\"", postcode: postcode, location: #"{"latitude": 54.40, "longitude": -1.70}"#))
        #expect(station.location == Coordinate(lat: 54.40, lng: -1.70))
        #expect(feed.count(.geohashMismatch) == 1)
    }

    @Test func postcodeAreas_areReadFromTheOutwardCodesLetters() {
        #expect(PostcodeAreas.area(of: "SR3 3ND")?.letters == "SR")
        #expect(PostcodeAreas.area(of: "W1A 1AA")?.centre == PostcodeAreas.area(of: "W2 1AA")?.centre)
        #expect(PostcodeAreas.area(of: "W1A 1AA")?.letters == "W")
        #expect(PostcodeAreas.area(of: "QQ1 1AA") == nil)
        #expect(PostcodeAreas.area(of: "PEREGINE") == nil)
        #expect(PostcodeAreas.area(of: "") == nil)
    }

    @Test func geohash_whenSiteIdMatchesCoordinates_doesNotWarn() throws {
        let (feed, _) = try parse(location: #"{"latitude": 52.3914, "longitude": -1.4868}"#)
        #expect(feed.count(.geohashMismatch) == 0)
    }

    @Test(arguments: ["SITE-001", "12345", "123456789", "gcqfn1", "gcqfn1wd5k4jxyz"])
    func geohash_whenSiteIdIsNotAGeohash_isNotChecked(siteId: String) throws {
        let (feed, _) = try parse(location: #"{"latitude": 52.3914, "longitude": -1.4868}"#, siteId: "\"\(siteId)\"")
        #expect(feed.count(.geohashMismatch) == 0)
    }
}
