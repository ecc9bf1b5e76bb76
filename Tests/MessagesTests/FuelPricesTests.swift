import Foundation
import Messages
import Testing

/// `FuelPrices` must read, compare and code like the `[FuelCode: Price]` it replaced.
struct FuelPricesTests {
    @Test func aPriceSet_readsBack_andARemovedOneIsGone() {
        var prices: FuelPrices = [.b7: Price(tenths: 1459)]
        prices[.sdv] = Price(tenths: 1599)
        #expect(prices[.b7] == Price(tenths: 1459))
        #expect(prices[.sdv] == Price(tenths: 1599))
        #expect(prices[.e10] == nil && prices[.e5] == nil)
        #expect(prices.count == 2 && !prices.isEmpty)
        prices[.b7] = nil
        #expect(prices[.b7] == nil && prices.count == 1)
        prices[.sdv] = nil
        #expect(prices.isEmpty)
    }

    @Test func equalPrices_areEqual_howeverTheyWereReached() {
        var reached: FuelPrices = [.e10: Price(tenths: 1399), .b7: Price(tenths: 1459)]
        reached[.b7] = nil
        let direct: FuelPrices = [.e10: Price(tenths: 1399)]
        #expect(reached == direct)
        #expect(reached.hashValue == direct.hashValue)
        #expect(reached != [.e10: Price(tenths: 1400)])
        // A price of zero tenths is a price: not the same as no price.
        #expect(FuelPrices([.e5: Price(tenths: 0)]) != FuelPrices())
    }

    @Test func iteration_visitsEachPricedFuel_inFuelOrder() {
        let prices = FuelPrices([.sdv: Price(tenths: 4), .e10: Price(tenths: 1), .b7: Price(tenths: 3)])
        #expect(prices.map(\.fuel) == [.e10, .b7, .sdv])
        #expect(prices.map(\.price.tenths) == [1, 3, 4])
        #expect(FuelPrices().map(\.fuel).isEmpty)
    }

    @Test func aDictionaryLiteral_keepsTheLastPriceOfAFuelGivenTwice() {
        let prices: FuelPrices = [.e10: Price(tenths: 1), .e10: Price(tenths: 2)]
        #expect(prices[.e10] == Price(tenths: 2) && prices.count == 1)
    }

    @Test func json_isTheDictionarysObject_bothWays() throws {
        let dictionary: [FuelCode: Price] = [.e10: Price(tenths: 1399), .b7: Price(tenths: 1459)]
        let encoder = JSONCoding.makeEncoder()
        encoder.outputFormatting.insert(.sortedKeys)
        let written = try encoder.encode(FuelPrices(dictionary))
        #expect(written == (try encoder.encode(dictionary)))
        #expect(String(decoding: written, as: UTF8.self) == #"{"B7":145.9,"E10":139.9}"#)
        let read = try JSONCoding.makeDecoder().decode(FuelPrices.self, from: written)
        #expect(read == FuelPrices(dictionary))
    }

    @Test func json_withAFuelThatIsNotOne_isRefused() {
        #expect(throws: (any Error).self) {
            try JSONCoding.makeDecoder().decode(FuelPrices.self, from: Data(#"{"LPG": 80.9}"#.utf8))
        }
        #expect(throws: (any Error).self) {
            try JSONCoding.makeDecoder().decode(FuelPrices.self, from: Data(#"{"E10": "cheap"}"#.utf8))
        }
    }

    @Test func theSet_isHeldInline() {
        // Four Int32 prices and a byte of flags: no reference to a heap object per station.
        #expect(MemoryLayout<FuelPrices>.size == 17)
        #expect(MemoryLayout<Station>.stride <= 192)
    }
}
