import Messages
import Testing

/// The outlier rule price-ingest warns by and fuel-lookup flags by: more than 30.0p under or 35.0p
/// over the median of the retailer's prices of the fuel, over at least three prices.
struct PriceOutlierTests {
    @Test(arguments: [(1609 as Int32, nil as PriceOutlier?), (1608, .low), (2259, nil), (2260, .high), (1909, nil)])
    func aPriceAtTheBound_isNotAnOutlier_andOneTenthBeyondIs(price: Int32, expected: PriceOutlier?) {
        #expect(PriceOutlier.judge(price, median: 1909) == expected)
    }

    /// MFG's August 2026 feed: its stuck diesel at 147.9p against a median of 182.9p.
    @Test func aStuckPrice35pUnderTheMedian_isLow() {
        #expect(PriceOutlier.judge(1479, median: 1829) == .low)
    }

    @Test func theMedian_isTheLowerMiddleOfAnEvenCount_andNeedsThreePrices() {
        var two: [Int32] = [1500, 1900]
        #expect(PriceOutlier.median(sorting: &two) == nil)
        var four: [Int32] = [1900, 1500, 2000, 1800]
        #expect(PriceOutlier.median(sorting: &four) == 1800)
        var five: [Int32] = [1900, 1500, 2000, 1800, 1200]
        #expect(PriceOutlier.median(sorting: &five) == 1800)
    }
}
