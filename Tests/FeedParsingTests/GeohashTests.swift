import Messages
import Testing
import FeedParsing

struct GeohashTests {
    @Test func decode_knownGeohash_givesItsCellCentre() throws {
        // The reference example: u4pruydqqvj is (57.64911, 10.40744).
        let point = try #require(Geohash.decode("u4pruydqqvj"))
        #expect(abs(point.lat - 57.64911) < 0.0001)
        #expect(abs(point.lng - 10.40744) < 0.0001)
    }

    @Test(arguments: ["", "abc!", "ai", "GCPV", "gcqfn1wd5k4jx"])
    func decode_whenNotAGeohash_givesNil(text: String) {
        #expect(Geohash.decode(text) == nil)
    }
}
