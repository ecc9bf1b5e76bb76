import Testing
import Messages

struct PriceTests {
    @Test func price_whenFloatNoise_roundsToTenthOfPenny() {
        #expect(Price(pence: 151.89999999999998)?.tenths == 1519)
        #expect(Price(pence: 139.9)?.description == "139.9")
    }
}
