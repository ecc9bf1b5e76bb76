import Messages
import Testing
import SampleFeeds

struct GeohashTests {
    @Test func encode_whenRealFeedCoordinates_matchesTheirSiteIds() {
        // Tesco Selby and BP sites from the 2025-10-09 CMA snapshot: site_id is the coordinates' geohash.
        #expect(Geohash.encode(latitude: 53.768681, longitude: -1.089549) == "gcx1zhq978t7")
        #expect(Geohash.encode(latitude: 52.984551, longitude: -1.198109) == "gcrjktx96h1j")
        #expect(Geohash.encode(latitude: 50.51725, longitude: -4.859243) == "gbux3kms73vy")
    }

    @Test func encode_whenJustSouthWestOfZero_givesTheMFGZeroId() {
        #expect(Geohash.encode(latitude: -1e-9, longitude: -1e-9) == "7zzzzzzzzzzz")
    }

    @Test func encode_whenShorterLength_isPrefixOfLonger() {
        let full = Geohash.encode(latitude: 57.64911, longitude: 10.40744)
        #expect(full.hasPrefix("u4pruydqqvj"))
        #expect(Geohash.encode(latitude: 57.64911, longitude: 10.40744, length: 9) == String(full.prefix(9)))
    }

    @Test func decode_whenEncoded_returnsPointWithinCell() throws {
        let centre = try #require(Geohash.decode(Geohash.encode(latitude: 51.5074, longitude: -0.1278)))
        #expect(abs(centre.lat - 51.5074) < 1e-6)
        #expect(abs(centre.lng - -0.1278) < 1e-6)
        #expect(Geohash.decode("gcpv!") == nil)
    }
}
