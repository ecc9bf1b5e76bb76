import Messages
import Testing

/// The outlier rule price-ingest warns by and fuel-lookup flags by: more than 35.0p from the
/// median of the retailer's prices of the fuel, over at least three prices.
struct PriceOutlierTests {
    @Test(arguments: [(1559 as Int32, nil as PriceOutlier?), (1558, .low), (2259, nil), (2260, .high), (1909, nil)])
    func aPriceExactly35pFromTheMedian_isNotAnOutlier_andOneMoreTenthIs(price: Int32, expected: PriceOutlier?) {
        #expect(PriceOutlier.judge(price, median: 1909) == expected)
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
