import FeedParsing
import Messages
import Testing

/// A feed's brand, address and postcode are spoken, shown on cards and printed in terminals: their
/// control characters (a terminal escape sequence whole), direction overrides and invisible
/// characters are taken out (a QA feed's brand rang the bell, turned a terminal red and flipped
/// the rest of the line).
struct ShownTextTests {
    @Test func controlBidiAndInvisibleCharacters_areTakenOutOfBrandAddressAndPostcode() throws {
        let (_, station) = try FeedFixtures.parseOne(FeedFixtures.station(
            brand: #""Evil\u0007\u001b[31mBrand\u202e<speak>""#,
            address: #""Abbey Park\u200b, Coventry\ufeff""#,
            postcode: #""CV3\u00004AR""#))
        #expect(station.brand == "EvilBrand<speak>")
        #expect(station.address == "Abbey Park, Coventry")
        #expect(station.postcode == "CV3 4AR")
        #expect(!station.name.unicodeScalars.contains { $0.value < 0x20 || (0x202A...0x202E).contains($0.value) },
                "\(station.name.debugDescription)")
    }

    @Test func ordinaryTextOfOtherScripts_isKept() throws {
        let (_, station) = try FeedFixtures.parseOne(FeedFixtures.station(
            brand: #""Gôgarth""#, address: #""Ffordd y Môr, Llandudno""#))
        #expect(station.brand == "Gôgarth" && station.address == "Ffordd y Môr, Llandudno")
    }
}
