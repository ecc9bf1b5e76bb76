@testable import FuelLookup
import Testing

/// The layout the search relies on: where each leaf's points lie, and their price order.
struct SpatialTreeLayoutTests {
    private static func randomPoints(_ count: Int, priceLevels: Int32, seed: UInt64) -> [PointRecord] {
        var random = SeededGenerator(seed: seed)
        return (0 ..< count).map { rank in
            PointRecord(x: Float.random(in: -1...1, using: &random), y: Float.random(in: -1...1, using: &random),
                        z: Float.random(in: -1...1, using: &random),
                        price: Int32.random(in: 0 ..< priceLevels, using: &random), station: Int32(rank))
        }
    }

    @Test(arguments: [1, 2, 15, 16, 17, 31, 33, 100, 257, 1000, 4099])
    func leafEnd_ofEveryPoint_isTheEndOfItsLeaf(count: Int) {
        let tree = SpatialTreeBuilder.build(Self.randomPoints(count, priceLevels: 50, seed: UInt64(count)))
        var mismatches = 0
        for leaf in tree.firstLeaf ..< tree.firstLeaf + tree.leafCount {
            let range = tree.pointRange(ofLeaf: leaf)
            for index in range where tree.leafEnd(ofPoint: index) != range.upperBound { mismatches += 1 }
        }
        #expect(mismatches == 0)
    }

    @Test(arguments: [3, 40, 5000])
    func everyLeaf_holdsItsPointsInAscendingPriceOrder(priceLevels: Int32) {
        let tree = SpatialTreeBuilder.build(Self.randomPoints(3000, priceLevels: priceLevels, seed: 7))
        var outOfOrder = 0
        for leaf in tree.firstLeaf ..< tree.firstLeaf + tree.leafCount {
            let prices = tree.pointRange(ofLeaf: leaf).map { tree.points[$0].price }
            if prices != prices.sorted() { outOfOrder += 1 }
        }
        #expect(outOfOrder == 0)
        #expect(Set(tree.points.map(\.station)).count == 3000)
    }
}
